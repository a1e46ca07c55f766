"""The rating chart's geometry, and `last_seen`: written by requests, at most every few
minutes, shown on the profile."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.charts import rating_chart
from accounts.models import User
from accounts.services import LAST_SEEN_RESOLUTION, user_touch_last_seen

pytestmark = pytest.mark.django_db


def test_rating_chart_geometry() -> None:
    now = timezone.now()
    assert rating_chart([]) is None
    single = rating_chart([(now, 1500.0)])
    assert single is not None
    assert len(single.points) == 1
    chart = rating_chart([(now, 1500.0), (now, 1620.4), (now, 1410.0)])
    assert chart is not None
    xs = [p.x for p in chart.points]
    assert xs == sorted(xs)
    assert xs[0] == chart.plot_left
    assert xs[-1] == chart.plot_right
    highest = min(chart.points, key=lambda p: p.y)
    assert highest.rating == 1620
    for point in chart.points:
        assert chart.plot_top <= point.y <= chart.plot_bottom
    labels = [int(t.label) for t in chart.y_ticks]
    assert labels[0] <= 1410
    assert labels[-1] >= 1620


def test_last_seen_is_written_at_most_every_few_minutes(
    make_user: Callable[..., User],
) -> None:
    anna = make_user("anna")
    now = timezone.now()
    assert user_touch_last_seen(user=anna, now=now)
    assert not user_touch_last_seen(user=anna, now=now + timedelta(minutes=1))
    # A second copy of the user, loaded before the write (another request), writes nothing.
    stale = User.objects.get(pk=anna.pk)
    stale.last_seen = None
    assert not user_touch_last_seen(user=stale, now=now + timedelta(minutes=2))
    assert user_touch_last_seen(user=anna, now=now + LAST_SEEN_RESOLUTION + timedelta(seconds=1))


def test_requests_update_last_seen(client: Client, make_user: Callable[..., User]) -> None:
    anna = make_user("anna")
    assert anna.last_seen is None
    client.force_login(anna)
    client.get("/")
    anna.refresh_from_db()
    first = anna.last_seen
    assert first is not None
    client.get("/")
    anna.refresh_from_db()
    assert anna.last_seen == first
    page = client.get("/@/anna").content.decode()
    assert 'data-testid="last-seen"' in page


@pytest.mark.django_db(transaction=True)
async def test_async_requests_update_last_seen_too(
    async_client, make_user: Callable[..., User]  # type: ignore[no-untyped-def]
) -> None:
    """Under daphne the middleware runs in the async stack."""
    from asgiref.sync import sync_to_async
    from django.db import connections

    try:
        anna = await sync_to_async(make_user)("anna")
        await async_client.aforce_login(anna)
        await async_client.get("/")
        await sync_to_async(anna.refresh_from_db)()
        assert anna.last_seen is not None
    finally:
        # The ORM ran in asgiref's worker thread: close its connection, or the test
        # database cannot be dropped at the end of the run.
        await sync_to_async(connections.close_all)()
