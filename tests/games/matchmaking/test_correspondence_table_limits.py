"""Several open correspondence tables per person (up to
`MATCHMAKING_OPEN_CORRESPONDENCE_TABLES`, counted under the user row lock; a live table still
one, which the database says), and the closing of the ones nobody filled in
`MATCHMAKING_CORRESPONDENCE_TABLE_DAYS`, their people notified, on real PostgreSQL."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.utils import translation

from games.matchmaking import errors, selectors, tables, tasks
from games.matchmaking.errors import MatchmakingError
from games.matchmaking.models import Table, TableSeat
from games.play.models import Match
from notifications.models import Kind, Notification
from notifications.selectors import notification_path, notification_text
from tests.games.matchmaking.conftest import at
from tests.support.threads import run_together

DAY = 24 * 3600


def days_table(creator, *, now=None, players=3):
    return tables.table_create(user=creator, players=players, time_control="2d", rated=False,
                               public=True, now=now or at(0))


@pytest.mark.django_db
def test_a_person_sits_at_up_to_the_limit_and_the_next_is_refused_naming_it(
    make_player, settings
):
    settings.MATCHMAKING_OPEN_CORRESPONDENCE_TABLES = 3
    anna = make_player("anna")
    days_table(anna)
    for _ in range(2):
        tables.table_join(user=anna, token=days_table(make_player()).token)
    assert TableSeat.objects.filter(user=anna, correspondence=True).count() == 3

    fourth = days_table(make_player())
    with translation.override("en"), pytest.raises(MatchmakingError) as refused:
        tables.table_join(user=anna, token=fourth.token)
    assert refused.value.code == errors.ALREADY_SEATED
    assert refused.value.message == ("You are sitting at 3 open correspondence tables, the "
                                     "most at once: leave one of them first.")
    with pytest.raises(MatchmakingError):
        days_table(anna)
    assert TableSeat.objects.filter(user=anna, correspondence=True).count() == 3
    # Leaving one frees a place.
    tables.table_leave(user=anna, token=selectors.correspondence_tables_of(user=anna)[1].token)
    tables.table_join(user=anna, token=fourth.token)


@pytest.mark.django_db
def test_a_live_table_is_still_one_at_a_time_and_the_database_says_so(make_player):
    anna = make_player("anna")
    tables.table_create(user=anna, players=3, time_control="untimed", rated=False,
                        public=True)
    other = tables.table_create(user=make_player(), players=3, time_control="3+2",
                                rated=False, public=True)
    with pytest.raises(MatchmakingError) as refused:
        tables.table_join(user=anna, token=other.token)
    assert refused.value.code == errors.ALREADY_SEATED

    with pytest.raises(IntegrityError), transaction.atomic():
        TableSeat.objects.create(table=other, index=2, user=anna, correspondence=False,
                                 joined_at=at(0))
    corr = days_table(make_player())
    with pytest.raises(IntegrityError), transaction.atomic():  # one seat per table and person
        TableSeat.objects.bulk_create([
            TableSeat(table=corr, index=i, user=anna, correspondence=True, joined_at=at(0))
            for i in (1, 2)])


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_", range(3))
def test_two_sittings_at_once_cannot_pass_the_limit(make_player, settings, round_):
    settings.MATCHMAKING_OPEN_CORRESPONDENCE_TABLES = 2
    anna = make_player("anna")
    days_table(anna)
    targets = [days_table(make_player()) for _ in range(2)]

    results = run_together(
        *[(lambda token=t.token: tables.table_join(user=anna, token=token)) for t in targets],
        expected=MatchmakingError,
    )

    refusals = [r for r in results if isinstance(r, MatchmakingError)]
    assert [r.code for r in refusals] == [errors.ALREADY_SEATED]
    assert TableSeat.objects.filter(user=anna, correspondence=True).count() == 2


@pytest.mark.django_db
def test_a_table_starting_removes_only_its_own_seats(make_player,
                                                     django_capture_on_commit_callbacks):
    anna, boris = make_player("anna"), make_player("boris")
    first, second = days_table(anna), days_table(anna)
    third = days_table(boris)
    tables.table_join(user=anna, token=third.token)

    match = tables.table_join(user=make_player(), token=first.token)
    assert match is None
    with django_capture_on_commit_callbacks(execute=True):
        match = tables.table_join(user=make_player(), token=first.token)

    assert isinstance(match, Match)
    assert not TableSeat.objects.filter(table=first).exists()
    assert set(TableSeat.objects.filter(user=anna).values_list("table_id", flat=True)) == {
        second.pk, third.pk}
    lobby = selectors.user_lobby_state(user=anna)
    assert [own["table"]["token"] for own in lobby["correspondence_tables"]] == [
        second.token, third.token]
    assert [own["can_start"] for own in lobby["correspondence_tables"]] == [False, False]


@pytest.mark.django_db
def test_the_lobby_says_in_how_many_days_a_correspondence_table_closes(make_player, settings):
    settings.MATCHMAKING_CORRESPONDENCE_TABLE_DAYS = 14
    days_table(make_player())
    tables.table_create(user=make_player(), players=3, time_control="3+2", rated=False,
                        public=True, now=at(0))

    assert [r["closes_in_days"] for r in selectors.lobby_tables(now=at(60))] == [14, None]
    assert selectors.lobby_tables(now=at(13 * DAY + 60))[0]["closes_in_days"] == 1
    assert selectors.lobby_tables(now=at(3 * DAY))[0]["closes_in_days"] == 11


@pytest.mark.django_db
def test_a_stale_table_closes_and_its_people_are_notified_once(
    make_player, settings, django_capture_on_commit_callbacks
):
    settings.MATCHMAKING_CORRESPONDENCE_TABLE_DAYS = 14
    anna, boris, vera = make_player("anna"), make_player("boris"), make_player("vera")
    stale = days_table(anna, now=at(0), players=4)
    tables.table_join(user=boris, token=stale.token, now=at(DAY))
    tables.table_fill_ai(user=anna, token=stale.token, seat=3, level=1)
    young = days_table(vera, now=at(5 * DAY))
    started = days_table(make_player(), now=at(0))
    for _ in range(2):
        tables.table_join(user=make_player(), token=started.token, now=at(60))
    live = tables.table_create(user=make_player(), players=3, time_control="untimed",
                               rated=False, public=True, now=at(0))

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        assert tables.correspondence_tables_close_stale(now=at(14 * DAY + 1)) == 1
    assert callbacks  # the lobby (and the notified pages) are told after commit
    assert tables.correspondence_tables_close_stale(now=at(14 * DAY + 2)) == 0

    assert not Table.objects.filter(pk=stale.pk).exists()
    assert Table.objects.filter(pk__in=[young.pk, started.pk, live.pk]).count() == 3
    assert [row["token"] for row in selectors.lobby_tables(now=at(14 * DAY + 3))] == [
        live.token, young.token]
    told = Notification.objects.filter(kind=Kind.TABLE_CLOSED)
    assert sorted(told.values_list("user__username", flat=True)) == ["anna", "boris"]
    with translation.override("en"):
        assert notification_text(told.first()) == (
            "Your correspondence table closed: nobody came to fill it in 14 days.")
    assert notification_path(told.first()) == "/lobby/"


@pytest.mark.django_db
def test_the_beat_task_closes_stale_tables(make_player, settings):
    settings.MATCHMAKING_CORRESPONDENCE_TABLE_DAYS = 1
    days_table(make_player(), now=at(0))
    assert tasks.close_stale_tables.apply().get() == 1
    assert not Table.objects.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_", range(3))
def test_the_last_seat_taken_while_the_table_closes_is_one_or_the_other(make_player, settings,
                                                                        round_):
    """The close and the sitting that fills the table lock the table first: either the
    table starts and nobody is told it closed, or it closes, its people are told, and the
    latecomer finds it gone."""
    settings.MATCHMAKING_CORRESPONDENCE_TABLE_DAYS = 14
    anna, boris, latecomer = make_player("anna"), make_player("boris"), make_player("vera")
    table = days_table(anna, now=at(0))
    tables.table_join(user=boris, token=table.token, now=at(DAY))

    closed, joined = run_together(
        lambda: tables.correspondence_tables_close_stale(now=at(14 * DAY + 1)),
        lambda: tables.table_join(user=latecomer, token=table.token, now=at(14 * DAY + 1)),
        expected=MatchmakingError,
    )

    told = sorted(Notification.objects.filter(kind=Kind.TABLE_CLOSED)
                  .values_list("user__username", flat=True))
    if isinstance(joined, Match):
        assert closed == 0
        assert told == []
        assert Table.objects.get(pk=table.pk).match_id == joined.pk
    else:
        assert isinstance(joined, MatchmakingError)
        assert joined.code == errors.GONE
        assert closed == 1
        assert told == ["anna", "boris"]
        assert not Table.objects.filter(pk=table.pk).exists()
        assert not Match.objects.exists()
