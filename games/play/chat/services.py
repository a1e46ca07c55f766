"""The writes of game chat: a line posted, a line or a player reported.

Every line passes, in this order (the cheap refusals first, so a flood costs no query):
the author's rate (`CHAT_RATE_LIMIT` per `CHAT_RATE_WINDOW` seconds, across all their
sockets), what the line is (a phrase's id, a reaction, or text of 1-140 characters), the
author's mute, whether free text is allowed here (`selectors.free_text_allowed`), the text's
rules (`accounts.moderation`) and no repeat of one of the author's last lines.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import moderation, ratelimit
from accounts.models import User
from games.play import selectors as play_selectors
from games.play.chat import errors
from games.play.chat.errors import ChatError
from games.play.chat.models import MAX_TEXT, ChatMessage, ChatReport, Kind
from games.play.chat.phrases import PHRASES, REACTIONS
from games.play.chat.selectors import Speaker, free_text_allowed
from games.play.models import Seat

REPEAT_LOOKBACK = 3  # a text equal to one of the author's last three is a repeat
REPEAT_WINDOW = timedelta(minutes=10)
CONTEXT_LINES = 10  # the lines before a reported one kept with the report


def _normal(text: str) -> str:
    return " ".join(text.casefold().split())


def chat_post(*, match_id: int, speaker: Speaker, kind: str, body: str,
              now: datetime | None = None) -> ChatMessage:
    """Post a line to the speaker's room of the match, or raise ChatError."""
    if speaker.user is None and not speaker.guest_id:
        raise ChatError(errors.NOT_ALLOWED, _("Log in to chat."))
    key = f"chat:{speaker.user.pk if speaker.user is not None else 'g' + speaker.guest_id}"
    wait = ratelimit.hit(key=key, limit=settings.CHAT_RATE_LIMIT,
                         window=settings.CHAT_RATE_WINDOW, now=None if now is None
                         else now.timestamp())
    if wait is not None:
        seconds = max(1, round(wait))
        raise ChatError(errors.RATE_LIMITED, ngettext(
            "You are sending messages too fast. Wait %(count)d second.",
            "You are sending messages too fast. Wait %(count)d seconds.", seconds)
            % {"count": seconds})
    if kind == Kind.PHRASE:
        if body not in PHRASES:
            raise ChatError(errors.REFUSED, _("There is no such phrase."))
    elif kind == Kind.EMOJI:
        if body not in REACTIONS:
            raise ChatError(errors.REFUSED, _("There is no such reaction."))
    elif kind == Kind.TEXT:
        body = body.strip()
        if not body or len(body) > MAX_TEXT:
            raise ChatError(errors.REFUSED, _("A message has 1 to %(count)d characters.")
                            % {"count": MAX_TEXT})
    else:
        raise ChatError(errors.REFUSED, _("The server did not understand that."))
    if speaker.user is not None:
        # The socket's user was read at its handshake: a mute since then must hold now.
        speaker = Speaker(user=User.objects.get(pk=speaker.user.pk), guest_id=speaker.guest_id,
                          seat=speaker.seat)
        assert speaker.user is not None
        muted = moderation.mute_words(user=speaker.user, now=now)
        if muted is not None:
            raise ChatError(errors.MUTED, muted)
    match = play_selectors.match_get(match_id=match_id)
    if match is None:
        raise ChatError(errors.NOT_ALLOWED, _("There is no such game."))
    if kind == Kind.TEXT:
        seats = list(match.seats.select_related("user"))
        if not free_text_allowed(match=match, seats=seats, speaker=speaker):
            raise ChatError(errors.NO_FREE_TEXT, _(
                "Only quick phrases and reactions here: free text is between accounts, and "
                "in rated games between friends or players who turned it on."))
        assert speaker.user is not None
        refusal = moderation.text_refusal(user=speaker.user, text=body, now=now)
        if refusal is not None:
            raise ChatError(errors.REFUSED, refusal)
        since = (now or timezone.now()) - REPEAT_WINDOW
        recent = ChatMessage.objects.filter(
            match_id=match_id, author=speaker.user, kind=Kind.TEXT, created_at__gte=since,
        ).order_by("-id").values_list("body", flat=True)[:REPEAT_LOOKBACK]
        if _normal(body) in {_normal(text) for text in recent}:
            raise ChatError(errors.REFUSED, _("You have just said that."))
    return ChatMessage.objects.create(
        match=match, room=speaker.room, author=speaker.user, guest_id=speaker.guest_id,
        author_name=speaker.user.username if speaker.user is not None else "",
        kind=kind, body=body)


def chat_report_create(*, reporter: User, message_id: int | None = None,
                       reported: User | None = None, match_id: int | None = None,
                       reason: str = "") -> ChatReport:
    """`reporter` reports a line of chat (and so its author), or a player (from a game they
    sat at, `match_id`, or from nowhere in particular). A line is reported once per reader:
    pressing again returns the same report."""
    reason = reason.strip()[:200]
    message = None
    if message_id is not None:
        message = ChatMessage.objects.select_related("author").filter(pk=message_id).first()
        if message is None or message.author is None:
            raise ChatError(errors.REFUSED, _("There is no such message."))
        if not _may_read(reporter, message):
            raise ChatError(errors.REFUSED, _("There is no such message."))
        reported, match_id = message.author, message.match_id
    if reported is None:
        raise ChatError(errors.REFUSED, _("Say whom or what you report."))
    if message is None and match_id is not None and not Seat.objects.filter(
            match_id=match_id, user=reported).exists():
        raise ChatError(errors.REFUSED, _("There is no such player."))
    if reported.pk == reporter.pk:
        raise ChatError(errors.REFUSED, _("You cannot report yourself."))
    limit, window = settings.CHAT_REPORT_RATE_LIMIT
    if ratelimit.hit(key=f"chat_report:{reporter.pk}", limit=limit, window=window):
        raise ChatError(errors.RATE_LIMITED, _("You have sent many reports. Try again later."))
    context = _context(message) if message is not None else ""
    try:
        with transaction.atomic():
            return ChatReport.objects.create(reporter=reporter, reported=reported,
                                             message=message, match_id=match_id,
                                             context=context, reason=reason)
    except IntegrityError:  # reported already (a second tab, a double click)
        return ChatReport.objects.get(reporter=reporter, message=message)


def _may_read(user: User, message: ChatMessage) -> bool:
    """Whether `user` could have read the line: its room is theirs."""
    seated = message.match.seats.filter(user=user).exists()
    return seated == (message.room == "players")


def _context(message: ChatMessage) -> str:
    """The lines of its room before it and the line itself, as text for the reviewer."""
    before = list(ChatMessage.objects.filter(match_id=message.match_id, room=message.room,
                                             id__lte=message.pk)
                  .order_by("-id")[:CONTEXT_LINES + 1])
    return "\n".join(f"[{line.created_at:%H:%M:%S}] {line.author_name or _('Guest')}: "
                     f"{line.body}" for line in reversed(before))
