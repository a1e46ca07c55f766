"""The profile page: thin over `accounts.selectors` (the user, the ratings),
`games.profiles.selectors` (their games) and `games.puzzles.selectors` (their puzzles)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from accounts import selectors as account_selectors
from accounts import social
from accounts.charts import rating_chart
from accounts.countries import COUNTRIES, flag
from accounts.models import RatingMode, User
from games.profiles import selectors
from games.profiles.forms import ProfilePuzzlesForm
from games.puzzles.selectors import puzzle_history_page, puzzle_rating_history


def profile(request: HttpRequest, username: str) -> HttpResponse:
    user = account_selectors.user_get_by_username(username=username)
    if user is None:
        raise Http404(_("No player has that name."))
    if user.username != username:
        return redirect("profile", username=user.username, permanent=True)
    history = selectors.profile_rating_history(user=user)
    table_history = selectors.profile_rating_history(user=user, mode=RatingMode.TABLE)
    table_record = selectors.profile_record(user=user, mode=RatingMode.TABLE)
    context = {
        "profile_user": user,
        "is_own": request.user.is_authenticated and request.user.pk == user.pk,
        "rating": account_selectors.rating_get(user=user),
        "record": selectors.profile_record(user=user),
        "recent_games": selectors.profile_recent_games(user=user),
        "chart": rating_chart([(point.at, point.rating) for point in history]),
        # Tables of 3-4 have a rating of their own: shown beside the duel's once played.
        "table_rating": account_selectors.rating_get(user=user, mode=RatingMode.TABLE)
        if table_record.played else None,
        "table_record": table_record,
        "table_chart": rating_chart([(point.at, point.rating) for point in table_history]),
        "live_games": selectors.profile_live_games(user=user),
        "all_games_url": selectors.player_history_url(user=user),
        **_puzzles(user, ProfilePuzzlesForm(request.GET).page_number),
        **_people(request, user),
    }
    return render(request, "accounts/profile.html", context)


def _people(request: HttpRequest, user: User) -> dict[str, object]:
    """The profile's flag and, for another signed-in player, how the two stand: follows,
    block, and the score of their duels."""
    people: dict[str, object] = {"flag": flag(user.country),
                                 "country_name": dict(COUNTRIES).get(user.country, "")}
    viewer = request.user
    if viewer.is_authenticated and viewer.pk != user.pk:
        people.update({
            "following": social.is_following(follower_id=viewer.pk, followed_id=user.pk),
            "follows_you": social.is_following(follower_id=user.pk, followed_id=viewer.pk),
            "blocking": social.is_blocking(blocker_id=viewer.pk, blocked_id=user.pk),
            "head_to_head": selectors.head_to_head(user=viewer, opponent=user),  # type: ignore[arg-type]
        })
    return people


def _puzzles(user: User, page_number: int) -> dict[str, object]:
    """The profile's puzzles: the rating, its chart and a page of the puzzles played (none
    of it for a player who never played one)."""
    page, played = puzzle_history_page(user_id=user.pk, page_number=page_number)
    if not page.paginator.count:
        return {"puzzle_rating": None}
    history = puzzle_rating_history(user_id=user.pk)
    return {
        "puzzle_rating": account_selectors.rating_get(user=user, mode=RatingMode.PUZZLE),
        "puzzle_chart": rating_chart([(point.at, point.rating) for point in history]),
        "puzzles_page": page,
        "puzzles_played": played,
    }
