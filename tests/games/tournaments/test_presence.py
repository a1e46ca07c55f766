"""A process's arena pages renew their players' presence together (`presence`), on real
PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games.tournaments import presence, services
from games.tournaments.models import Participant
from tests.support.threads import rows_held

pytestmark = pytest.mark.django_db(transaction=True)


async def test_the_pages_renew_together_and_leave_out_a_row_a_wave_holds(arena, make_player):
    players = [await sync_to_async(make_player)(1500) for _ in range(3)]
    long_ago = timezone.now() - timedelta(minutes=5)
    for player in players:  # joined long ago: their leases have run out
        await sync_to_async(services.tournament_join)(user=player, token=arena.token,
                                                      now=long_ago)
    busy = players[2]

    def present() -> set[int]:
        return set(Participant.objects.filter(
            tournament=arena, present_until__gt=timezone.now()).values_list("user_id",
                                                                           flat=True))

    with rows_held(lambda: Participant.objects.select_for_update(no_key=True).get(
            tournament=arena, user=busy)):
        for player in players:
            presence.renew_soon(tournament_id=arena.pk, user_id=player.pk)
        await presence.renew_now()
    assert await sync_to_async(present)() == {players[0].pk, players[1].pk}

    presence.renew_soon(tournament_id=arena.pk, user_id=busy.pk)
    await presence.renew_now()
    assert await sync_to_async(present)() == {player.pk for player in players}
