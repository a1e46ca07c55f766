"""django-axes hooks: count failed log-ins per account, however the account was named, and
lock out by scope.

Failures are counted three ways (`AXES_LOCKOUT_PARAMETERS`): per (account, address), per
account and per address. The pair is locked first, after `AXES_FAILURE_LIMIT` failures:
an attacker at one address cannot lock the owner out at another. The account alone is
locked only after `LOGIN_ACCOUNT_FAILURE_LIMIT` failures from any addresses (many addresses
guessing one password), the address alone after `LOGIN_ADDRESS_FAILURE_LIMIT` failures on any
accounts (one address trying many). Each count covers the cool-off time
(`AXES_COOLOFF_TIME`) since its last failure. The lock-out page says which is locked."""

from __future__ import annotations

from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from django.conf import settings
from django.db.models import QuerySet, Sum
from django.http import HttpRequest

from accounts.selectors import user_find_for_login


def lockout_username(request: HttpRequest, credentials: dict[str, object] | None = None) -> str:
    """The name axes counts failures under: the account's username when the name or address
    given belongs to one (so `Anna`, `anna` and `anna@example.com` share one counter), else
    the given name in lower case."""
    field = settings.AXES_USERNAME_FORM_FIELD
    if credentials:
        given = credentials.get(field)
    else:
        given = getattr(request, "data", request.POST).get(field)
    given = str(given or "").strip()
    if not given:
        return ""
    user = user_find_for_login(identifier=given)
    return (user.username if user is not None else given).lower()


PAIR, ACCOUNT, ADDRESS = "pair", "account", "address"


def _failures(attempts: QuerySet[Any]) -> int:
    return int(attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0)


class ScopedLockoutHandler(AxesDatabaseHandler):  # type: ignore[misc]
    """Axes' database handler with a limit of its own for each count (see the module doc)."""

    def lockout_scope(self, request: HttpRequest, credentials: dict[str, Any] | None = None
                      ) -> str | None:
        """What is locked: PAIR, ACCOUNT, ADDRESS, or None."""
        pair, account, address = (_failures(attempts) for attempts in
                                  self.get_user_attempts(request, credentials))
        if pair >= settings.AXES_FAILURE_LIMIT:
            return PAIR
        if account >= settings.LOGIN_ACCOUNT_FAILURE_LIMIT:
            return ACCOUNT
        if address >= settings.LOGIN_ADDRESS_FAILURE_LIMIT:
            return ADDRESS
        return None

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None
                     ) -> int:
        """The pair's failures, or the limit itself once any count is past its own (axes
        compares this number with `AXES_FAILURE_LIMIT`)."""
        pair = _failures(self.get_user_attempts(request, credentials)[0])
        if self.lockout_scope(request, credentials) is not None:
            return max(pair, settings.AXES_FAILURE_LIMIT)
        return pair
