"""Play refuses to let an account go while it sits in a game that is not over
(`games.play.receivers`, on `accounts.signals.user_deleting`)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from accounts.models import User
from accounts.services import user_create, user_delete
from games.play.models import Status
from tests.accounts.conftest import finish_game

pytestmark = pytest.mark.django_db


def test_an_account_in_a_game_not_over_is_not_deleted_until_the_game_ends() -> None:
    anna = user_create(username="anna", email="anna@example.com", password="correct horse 77")
    boris = user_create(username="boris", email="boris@example.com", password="correct horse 77")
    match = finish_game(anna, boris, "", status=Status.PLAYING)
    with pytest.raises(ValidationError, match="not over yet"):
        user_delete(user=anna)
    assert User.objects.filter(pk=anna.pk).exists()

    match.status = Status.FINISHED
    match.save(update_fields=["status"])
    user_delete(user=anna)
    assert not User.objects.filter(pk=anna.pk).exists()
    assert match.seats.get(index=0).user_id is None
