from __future__ import annotations

from datetime import timedelta

from django import template

register = template.Library()


@register.filter
def minutes(value: timedelta | None) -> int:
    """A duration in whole minutes, rounded up (for the lock-out message)."""
    if value is None:
        return 0
    return int(-(-value.total_seconds() // 60))
