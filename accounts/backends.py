"""Log in with either the username or the e-mail address, both ignoring case."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.db.models import Q
from django.http import HttpRequest


class UsernameOrEmailBackend(ModelBackend):
    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        if username is None or password is None:
            return None
        user_model = get_user_model()
        lookup = Q(username__iexact=username)
        if "@" in username:
            lookup |= Q(email__iexact=username)
        user = user_model.objects.filter(lookup).order_by("id").first()
        if user is None:
            # Hash anyway, so that the response time does not reveal which names exist.
            user_model().set_password(password)
            return None
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None
