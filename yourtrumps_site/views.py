from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from yourtrumps_site.health import run_checks


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    healthy, checks = run_checks()
    failing = [name for name, status in checks.items() if status.startswith("error")]
    body = {"status": "ok" if healthy else "unavailable", "checks": checks, "failing": failing}
    return JsonResponse(body, status=200 if healthy else 503)
