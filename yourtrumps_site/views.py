from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games.play.your_turn import correspondence_games
from games.puzzles.daily import puzzle_daily, puzzle_picture
from yourtrumps_site.health import run_checks


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The front page; a signed-in player's correspondence games come first, the ones
    waiting for their move at the top; the puzzle of the day."""
    games = (correspondence_games(user_id=request.user.pk,
                                  per_page=settings.GAMES_YOUR_TURN_ON_HOME).games
             if request.user.is_authenticated else [])
    daily = puzzle_daily(day=timezone.localdate())
    return render(request, "home.html", {
        "corr_games": games, "now": timezone.now(),
        "daily": puzzle_picture(puzzle=daily) if daily is not None else None})


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    healthy, checks = run_checks()
    failing = [name for name, status in checks.items() if status.startswith("error")]
    body = {"status": "ok" if healthy else "unavailable", "checks": checks, "failing": failing}
    return JsonResponse(body, status=200 if healthy else 503)


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """Pages name the SVG icon; what asks for the old address without reading a page (feed
    readers, bookmarks) is sent to it too, rather than to a 404. Resolved at request time: in
    production the icon's name carries its hash, known only once the static files are
    collected, and the URLs are loaded by processes (the Celery worker) that never collect."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))
