"""Pages of play. Thin: they read through selectors, act through services.

Visitors without an account may play casual games against the AI at once, like on lichess:
they get a guest id in their session (kept across the pages of their visit) and their seat
is bound to it. Rated games need an account.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django.views.decorators.http import require_GET, require_http_methods

from accounts.selectors import ai_accounts
from games.play import selectors, services
from games.play.forms import PlayAIForm
from games.play.models import Match, Seat, TerminationReason
from games.play.services import Player
from games.play.watch import live_games
from games.rules import MOVE_LIMIT

GUEST_SESSION_KEY = "guest_id"


def guest_id(request: HttpRequest, *, create: bool = False) -> str:
    """The visitor's guest id from their session (made on first need)."""
    value = request.session.get(GUEST_SESSION_KEY, "")
    if not value and create:
        value = secrets.token_hex(16)
        request.session[GUEST_SESSION_KEY] = value
    return str(value)


def viewer_of(request: HttpRequest) -> selectors.Viewer:
    user = request.user
    return selectors.Viewer(
        user_id=user.pk if user.is_authenticated else None, guest_id=guest_id(request)
    )


@require_http_methods(["GET", "POST"])
def play_ai(request: HttpRequest) -> HttpResponse:
    form = PlayAIForm(request.POST or None)
    if request.method == "POST" and getattr(request.user, "is_bot", False):
        form.add_error(None, _("A bot account plays only through the API."))
    if request.method == "POST" and form.is_valid():
        time_control = form.cleaned_data["time_control"]
        if request.user.is_authenticated:
            human = Player(user=request.user)  # type: ignore[arg-type]
        else:
            human = Player(guest_id=guest_id(request, create=True))
        match = services.match_create(
            players=[human, Player(ai_level=form.cleaned_data["level"])],
            variant=form.cleaned_data["variant"],
            time_control=time_control,
        )
        return redirect("games:match", match_id=match.pk)
    return render(request, "games/play_ai.html", {"form": form, "ai_accounts": ai_accounts()})


@require_GET
def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = selectors.match_get(match_id=match_id)
    if match is None:
        raise Http404
    seats = selectors.match_seats(match=match)
    seat = selectors.seat_of(seats=seats, viewer=viewer_of(request))
    if seat is None and not match.public:
        raise Http404
    return render(request, "games/match.html",
                  _match_context(match, seats, seat, viewer_of(request).user_id))


def _match_context(match: Match, seats: list[Seat], seat: int | None,
                   viewer_user_id: int | None) -> dict[str, Any]:
    replay_url = reverse("replays:replay", args=[match.pk])
    return {
        "match": match,
        "seats": seats,
        "seat": seat,
        # The chat panel's player report: the seated accounts a signed-in viewer may report.
        "reportable_players": [] if viewer_user_id is None else [
            other.user.username for other in seats
            if other.user is not None and other.user_id != viewer_user_id],
        "replay_url": replay_url,
        "board_config": {
            "matchId": match.pk,
            "socketPath": f"/ws/match/{match.pk}/",
            "matchUrl": reverse("games:match", args=[0]).replace("/0/", "/{id}/"),
            "replayUrl": replay_url,
            "labels": board_labels(),
        },
    }


@require_GET
def watch(request: HttpRequest) -> HttpResponse:
    """The public games in progress, the best players' first; the page refreshes itself."""
    return render(request, "games/watch.html", {
        "games": live_games(),
        "refresh_seconds": settings.GAMES_WATCH_REFRESH_SECONDS,
    })


@require_GET
def tv(request: HttpRequest) -> HttpResponse:
    """The featured game: the top live game (not the viewer's own), watched as a spectator;
    when it ends the page comes back here and so moves on to the next."""
    user_id = request.user.pk if request.user.is_authenticated else None
    top = next(iter(live_games(limit=1, exclude_user_id=user_id)), None)
    match = selectors.match_get(match_id=top.match_id) if top is not None else None
    if match is None:
        return render(request, "games/watch.html", {
            "games": [], "tv": True, "refresh_seconds": settings.GAMES_WATCH_REFRESH_SECONDS})
    seats = selectors.match_seats(match=match)
    context = _match_context(match, seats, None, user_id)
    context["tv"] = {"next_seconds": settings.GAMES_TV_NEXT_SECONDS}
    return render(request, "games/match.html", context)


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    labels = board_labels()
    return render(
        request,
        "pages/rules.html",
        {
            "move_limit": MOVE_LIMIT,
            "absence_seconds": settings.GAMES_TABLE_ABSENCE_SECONDS,
            "move_limit_seconds": settings.GAMES_TABLE_MOVE_LIMIT_SECONDS,
            "card_labels": {key: labels[key] for key in ("suits", "cardSuits", "ranks", "card")},
        },
    )


def board_labels() -> dict[str, Any]:
    """Every word the board shows, translated here (the scripts hold no text)."""
    # Translators: a suit on its own (a trump badge, the choice of trump): the nominative.
    suits = {"C": _("clubs"), "D": _("diamonds"), "H": _("hearts"), "S": _("spades")}
    # A suit in a card's name ("queen of hearts"), in the form the name needs: the genitive
    # in Russian ("дама червей").
    card_suits = {
        "C": pgettext("suit in a card name", "clubs"),
        "D": pgettext("suit in a card name", "diamonds"),
        "H": pgettext("suit in a card name", "hearts"),
        "S": pgettext("suit in a card name", "spades"),
    }
    ranks = {
        "6": _("six"), "7": _("seven"), "8": _("eight"), "9": _("nine"), "T": _("ten"),
        "J": _("jack"), "Q": _("queen"), "K": _("king"), "A": _("ace"),
    }
    return {
        "suits": suits,
        "cardSuits": card_suits,
        "ranks": ranks,
        # Translators: a card's name, as a screen reader says it; the script fills in the rank
        # and the suit (its "suit in a card name" form).
        "card": pgettext("card name", "{rank} of {suit}"),
        "take": [ngettext("Take %(n)d card", "Take %(n)d cards", n) % {"n": n}
                 for n in range(37)],
        "pile": [ngettext("%(n)d card in the pile", "%(n)d cards in the pile", n) % {"n": n}
                 for n in range(37)],
        "handSize": [ngettext("%(n)d card", "%(n)d cards", n) % {"n": n} for n in range(37)],
        "trump": _("Trump: {suit}"),
        "you": _("You"),
        # Translators: the title of a bot account beside its name, as lichess writes it.
        "bot": _("BOT"),
        "yourTurn": _("Your turn"),
        "yourTurnLead": _("Your turn: lead any card"),
        "yourTurnBeat": _("Your turn: beat the top card or take"),
        "chooseSecond": _("Now choose the card to lay on top"),
        # Translators: the script fills in the name of a card ("queen of hearts").
        "premove": _("Premove: {card} (Esc takes it back)"),
        # Translators: the tooltip of a card: the digit key that plays it.
        "cardKey": _("Key {key}"),
        "theirTurn": _("{name} to move"),
        "aiThinking": _("{name} is thinking"),
        # Translators: the seat of a player who left a table, played by the AI since.
        "aiFor": _("AI for {name}"),
        # Translators: shown to a player who left a table, on coming back to its page.
        "takenOverYou": _("You left the table: the AI played your seat from move {move}."),
        "chooseTrump": _("Choose your trump suit"),
        "waitTrump": _("{name} is choosing a trump suit"),
        "trumpDeadline": _("A random suit in {s} s"),
        "trumpDeadlineDays": _("A random suit in {time}"),
        "corrYouHave": _("You have {time} to move."),
        "corrTheyHave": _("{name} has {time} to move."),
        "corrNoClockYou": ngettext(
            "No clock: take your time (after %(days)d day of silence your opponent may claim"
            " the game).",
            "No clock: take your time (after %(days)d days of silence your opponent may claim"
            " the game).", settings.GAMES_CORRESPONDENCE_CLAIM_DAYS,
        ) % {"days": settings.GAMES_CORRESPONDENCE_CLAIM_DAYS},
        "corrNoClock": _("{name} to move, no clock."),
        "emptyPile": _("The pile is empty"),
        "resign": _("Resign"),
        "abort": _("Abort"),
        "offerDraw": _("Offer a draw"),
        "drawOffered": _("Draw offered"),
        "acceptDraw": _("Accept the draw"),
        "declineDraw": _("Decline"),
        "opponentOffersDraw": _("{name} offers a draw"),
        # Translators: at a table of 3 or 4, a player who agreed to another's draw offer.
        "drawAccepted": _("You accepted the draw"),
        # Translators: at a table of 3 or 4 a draw needs everyone still holding cards, a
        # rematch every person who played; the script fills in the names of the others who
        # have not answered yet, as a list ("Anna and Boris").
        "drawWaiting": _("Still to answer: {names}"),
        "claimVictory": _("Claim victory"),
        "opponentLeft": _("{name} left the game. You may claim victory in {s} s."),
        "opponentLeftNow": _("{name} left the game. You may claim victory."),
        "rematch": _("Rematch"),
        "rematchOffered": _("Rematch offered"),
        "acceptRematch": _("Accept the rematch"),
        "opponentOffersRematch": _("{name} wants a rematch"),
        "replay": _("Replay"),
        "confirmResign": _("Resign this game?"),
        "cancel": _("Cancel"),
        "won": _("You won"),
        # Translators: the end of a game of 3 or 4, to a player who is not the loser.
        "wonPlace": _("You won: place {place}"),
        "lost": _("You lost"),
        "draw": _("Draw"),
        "aborted": _("Game aborted"),
        "winner": _("{name} won"),
        # Translators: at a table of 3 or 4, to a spectator: the one player who lost.
        "loser": _("{name} lost"),
        # Translators: a seat's place at the end of a game of 3 or 4 (1 is the best).
        "place": _("Place {place}"),
        # Translators: a player of a game of 3 or 4 who has played out their cards, and the
        # place that gives them (the first out has the first place).
        "placeOut": _("Out: place {place}"),
        "reasons": {str(value): str(label) for value, label in TerminationReason.choices},
        "connecting": _("Connecting…"),
        "reconnecting": _("Connection lost. Reconnecting…"),
        "connectionFailed": _("The connection failed. Trying again…"),
        "connectionFailedFinal": _("The connection failed. Reload the page to try again."),
        "offline": _("offline"),
        "spectating": _("You are watching this game"),
        "moves": _("Moves"),
        "rated": _("Rated"),
        "casual": _("Casual"),
        "untimed": _("Untimed"),
        "errors": {
            "not_your_turn": _("It is not your turn."),
            "illegal_move": _("That move is not allowed."),
            "stale_ply": _("The game moved on; the board is up to date now."),
            "not_a_player": _("You are not playing in this game."),
            "bad_message": _("The server did not understand that."),
            "game_over": _("The game is over."),
            "cannot_abort": _("Too late to abort: you may resign."),
            "cannot_claim": _("You cannot claim victory yet."),
            "not_allowed": _("That is not allowed here."),
            "not_found": _("There is no such game."),
            "wrong_phase": _("That cannot be done at this stage of the game."),
            "bad_trump": _("That suit cannot be chosen as trump."),
            "no_draw_offer": _("There is no draw offer to answer."),
            "game_not_over": _("The game is not over yet."),
            "server_error": _("Something went wrong on the server. Try again."),
            "unavailable": _("The site is briefly unavailable. Try again."),
            "rate_limited": _("Too many messages at once."),
        },
        "errorGeneric": _("That did not work."),
    }
