"""The test suite's resolver of push services' names (`WEBPUSH_RESOLVER` in `tests.settings`):
the names of `settings.TEST_PUSH_NAMES` resolve to the addresses listed there (public ones,
and names that lead to this machine or a private network), every other name as usual. The
suite has no network: these names stand for the push services' hosts and for a name an
attacker points at an inside address."""

from __future__ import annotations

from django.conf import settings

from notifications.endpoints import resolve as resolve_for_real


def resolve(host: str, port: int) -> list[str]:
    names: dict[str, list[str]] = settings.TEST_PUSH_NAMES
    if host.lower() in names:
        return list(names[host.lower()])
    return resolve_for_real(host, port)
