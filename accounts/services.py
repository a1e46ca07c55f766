"""What changes accounts and ratings. Views, the admin and the games app call these; nothing
else writes to `User` or `PlayerRating`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import ratings, table_ratings
from accounts.models import PlayerRating, RatingMode, User
from accounts.signals import user_deleting, users_deactivated

# `last_seen` is written at most this often per user (see `accounts.middleware`).
LAST_SEEN_RESOLUTION = timedelta(minutes=5)


def user_create(*, username: str, email: str, password: str) -> User:
    """A new, active player with a usable password and a starting rating.

    Raises ValidationError (keyed by field) for a bad or taken username or e-mail address or a
    weak password.
    """
    user = User(username=username.strip(), email=User.objects.normalize_email(email.strip()))
    errors: dict[str, list[str]] = {}
    try:
        user.full_clean(exclude=["password"], validate_constraints=False)
    except ValidationError as error:
        errors.update(error.message_dict)
    if "username" not in errors and User.objects.filter(username__iexact=user.username).exists():
        errors["username"] = [_("A user with that username already exists.")]
    if user.email and "email" not in errors and User.objects.filter(
        email__iexact=user.email
    ).exists():
        errors["email"] = [_("A user with that email address already exists.")]
    try:
        validate_password(password, user=user)
    except ValidationError as error:
        errors["password"] = list(error.messages)
    if errors:
        raise ValidationError(errors)
    user.set_password(password)
    try:
        with transaction.atomic():
            user.save()
            PlayerRating.objects.create(user=user)
    except IntegrityError:
        # Someone took the name or address between the check and the insert.
        raise ValidationError(
            {"username": [_("A user with that username or email address already exists.")]}
        ) from None
    return user


def user_email_change(*, user: User, email: str) -> User:
    email = User.objects.normalize_email(email.strip())
    if User.objects.filter(email__iexact=email).exclude(pk=user.pk).exists():
        raise ValidationError({"email": [_("A user with that email address already exists.")]})
    user.email = email
    user.full_clean(exclude=["password"], validate_constraints=False)
    try:
        with transaction.atomic():
            user.save(update_fields=["email"])
    except IntegrityError:
        raise ValidationError(
            {"email": [_("A user with that email address already exists.")]}
        ) from None
    return user


def user_language_change(*, user: User, language: str) -> User:
    """Save the language the player reads the site in ("" for their browser's choice).

    Raises ValidationError for a language the site does not offer."""
    if language and language not in {code for code, _name in settings.LANGUAGES}:
        raise ValidationError({"language": [_("The site is not offered in that language.")]})
    if user.language != language:
        user.language = language
        user.save(update_fields=["language"])
    return user


def user_sound_volume_change(*, user: User, volume: int) -> User:
    """Keep the volume of the player's sounds (0 mutes, 100 at most) for all their devices.

    Raises ValidationError for a volume outside 0-100."""
    if not 0 <= volume <= 100:
        raise ValidationError({"volume": [_("The volume is a number from 0 to 100.")]})
    if user.sound_volume != volume:
        user.sound_volume = volume
        user.save(update_fields=["sound_volume"])
    return user


def user_bot_challenges_change(*, user: User, accept: bool) -> User:
    """Whether bots may challenge the player."""
    if user.bot_challenges != accept:
        user.bot_challenges = accept
        user.save(update_fields=["bot_challenges"])
    return user


def user_delete(*, user: User) -> None:
    """Delete an account at its owner's request: the row and everything personal go.

    The games it played stay: their seats lose the link to the user (`Seat.user` is
    SET_NULL), so the opponent keeps the record and sees "deleted user" in its place. Refused
    (`ValidationError`, from a receiver of `accounts.signals.user_deleting`) while the user
    sits in a game that is not over, which would be left without its player.
    """
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        user_deleting.send(sender=User, user=user)
        user.delete()


def user_login_failures_clear(*, user: User) -> int:
    """Forget the failed log-ins counted against this account (after the owner proved who
    they are by setting a new password from the e-mailed link), so the lock-out page's advice
    "reset your password" really lets them in. Failures of other accounts from the same
    address still count against that address."""
    from axes.utils import reset

    return reset(username=user.username.lower())


def user_deactivate(*, users: QuerySet[User]) -> int:
    """Staff's switch: the accounts can no longer log in or play.

    Their open sessions stop working at their next request, because the authentication
    backend refuses inactive users when it loads the user of a session (HTTP and WebSocket),
    and their open sockets are closed now (`accounts.signals.users_deactivated`).
    """
    with transaction.atomic():
        ids = list(users.filter(is_active=True).select_for_update().values_list("pk", flat=True))
        count = User.objects.filter(pk__in=ids).update(is_active=False)
        users_deactivated.send(sender=User, user_ids=ids)
    return count


def user_touch_last_seen(*, user: User, now: datetime | None = None) -> bool:
    """Record that the user is around; writes at most once per LAST_SEEN_RESOLUTION.

    Returns whether a row was written. The condition lives in the UPDATE itself, so that two
    requests at once write at most once.
    """
    now = now or timezone.now()
    if user.last_seen is not None and now - user.last_seen < LAST_SEEN_RESOLUTION:
        return False
    written = (
        User.objects.filter(pk=user.pk)
        .filter(Q(last_seen__isnull=True) | Q(last_seen__lt=now - LAST_SEEN_RESOLUTION))
        .update(last_seen=now)
    )
    user.last_seen = now
    return bool(written)


# --- Ratings ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One player's rating before and after a rated game."""

    user_id: int
    rating_before: float
    rating_after: float
    deviation_before: float
    deviation_after: float
    provisional_before: bool
    provisional_after: bool

    @property
    def delta(self) -> int:
        """The change as shown: the difference of the rounded ratings."""
        return ratings.shown_change(self.rating_before, self.rating_after)


def rating_ensure(*, users: list[User], mode: str = RatingMode.DUEL) -> None:
    """Give these users a starting rating row of the mode if they have none (safe under
    concurrency: INSERT ... ON CONFLICT DO NOTHING never aborts the surrounding transaction)."""
    PlayerRating.objects.bulk_create(
        [PlayerRating(user_id=user.pk, mode=mode) for user in users], ignore_conflicts=True
    )


def _change(row: PlayerRating, before: ratings.Standing, now: datetime) -> RatingChange:
    deviation_before = ratings.current_deviation(before, now=now)
    return RatingChange(
        user_id=row.user_id,
        rating_before=before.rating,
        rating_after=row.rating,
        deviation_before=deviation_before,
        deviation_after=row.deviation,
        provisional_before=ratings.is_provisional(deviation_before),
        provisional_after=ratings.is_provisional(row.deviation),
    )


def rating_apply_duel_result(
    *,
    winner: User,
    loser: User,
    draw: bool = False,
    mode: str = RatingMode.DUEL,
    now: datetime | None = None,
) -> tuple[RatingChange, RatingChange]:
    """Rate one finished ranked duel on the rating of its `mode`; returns (winner's change,
    loser's change).

    For a draw pass the two players as `winner` and `loser` in any order with `draw=True`.
    Must run inside the transaction that finishes the match, so that the match's result and
    both ratings commit together or not at all. Both rating rows are locked in the order of
    the user ids, so two matches finishing at once for the same players cannot deadlock.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError(
            "rating_apply_duel_result must be called inside the transaction that finishes "
            "the match"
        )
    if winner.pk is None or loser.pk is None or winner.pk == loser.pk:
        raise ValueError("a rated duel needs two different saved users")
    now = now or timezone.now()
    rating_ensure(users=[winner, loser], mode=mode)
    rows = {
        row.user_id: row
        for row in PlayerRating.objects.select_for_update()
        .filter(user_id__in=[winner.pk, loser.pk], mode=mode)
        .order_by("user_id")
    }
    winner_row, loser_row = rows[winner.pk], rows[loser.pk]
    winner_before = _standing(winner_row)
    loser_before = _standing(loser_row)
    winner_new, loser_new = ratings.rate_duel(
        winner_before, loser_before, first_score=0.5 if draw else 1.0, now=now
    )
    for row, new in ((winner_row, winner_new), (loser_row, loser_new)):
        row.rating = new.rating
        row.deviation = new.deviation
        row.volatility = new.volatility
        row.games += 1
        row.last_rated_at = now
        row.save(update_fields=["rating", "deviation", "volatility", "games", "last_rated_at"])
    return _change(winner_row, winner_before, now), _change(loser_row, loser_before, now)


def _standing(row: PlayerRating) -> ratings.Standing:
    return ratings.Standing(row.rating, row.deviation, row.volatility, row.last_rated_at)


def rating_apply_table_result(
    *, users: Sequence[User], places: Sequence[int], now: datetime | None = None
) -> list[RatingChange]:
    """Rate one finished rated table of 3-4 on the table rating (`accounts.table_ratings`):
    ``places[i]`` is ``users[i]``'s place (competition ranking). Returns each player's
    change, in the order given. Must run inside the transaction that finishes the match; the
    rows are locked in the order of the user ids, so tables finishing at once cannot
    deadlock. The row keeps the shown mean in `rating` and sigma in points in `deviation`."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError(
            "rating_apply_table_result must be called inside the transaction that finishes "
            "the match"
        )
    ids = [user.pk for user in users]
    if None in ids or len(set(ids)) != len(ids):
        raise ValueError("a rated table needs different saved users")
    table_ratings.check_places(places)
    if len(places) != len(users):
        raise ValueError(f"{len(users)} players for {len(places)} places")
    now = now or timezone.now()
    start = table_ratings.TableRating.new()
    PlayerRating.objects.bulk_create(
        [PlayerRating(user_id=pk, mode=RatingMode.TABLE, rating=start.display,
                      deviation=start.display_deviation) for pk in ids],
        ignore_conflicts=True,
    )
    rows = {
        row.user_id: row
        for row in PlayerRating.objects.select_for_update()
        .filter(user_id__in=ids, mode=RatingMode.TABLE).order_by("user_id")
    }
    before = [table_ratings.TableRating.of_display(rows[pk].rating, rows[pk].deviation)
              for pk in ids]
    after = table_ratings.table_rate(before, places)
    changes = []
    for pk, old, new in zip(ids, before, after, strict=True):
        row = rows[pk]
        row.rating, row.deviation = new.display, new.display_deviation
        row.games += 1
        row.last_rated_at = now
        row.save(update_fields=["rating", "deviation", "games", "last_rated_at"])
        changes.append(RatingChange(
            user_id=pk, rating_before=old.display, rating_after=new.display,
            deviation_before=old.display_deviation, deviation_after=new.display_deviation,
            provisional_before=old.is_provisional, provisional_after=new.is_provisional,
        ))
    return changes
