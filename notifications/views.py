"""Pages and endpoints of the notifications. Thin: they read through selectors and act
through services."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import User
from notifications import delivery, selectors, services
from notifications.forms import PreferencesForm, PushSubscriptionForm, field_name
from notifications.models import Channel, Kind

BAD_REQUEST = 400
SERVICE_WORKER = "notifications-sw.js"


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@login_required
@require_GET
def notification_list(request: HttpRequest) -> HttpResponse:
    rows = selectors.notifications_newest(user_id=request.user.pk, limit=100)
    return render(request, "notifications/list.html",
                  {"items": selectors.notification_items(rows)})


@login_required
@require_POST
def read(request: HttpRequest, notification_id: int | None = None) -> HttpResponse:
    """Mark one notification read (the list's links do on their way), or all of them."""
    services.notifications_mark_read(user_id=request.user.pk, notification_id=notification_id)
    if _wants_json(request):
        return JsonResponse({"unread": selectors.unread_count(user_id=request.user.pk)})
    return redirect("notifications:list")


def _channels() -> list[str]:
    return [Channel.EMAIL, Channel.PUSH] if selectors.push_offered() else [Channel.EMAIL]


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    user: User = request.user  # type: ignore[assignment]
    channels = _channels()
    current = selectors.preferences_of(user_id=user.pk)
    initial = {field_name(kind, channel): channel in chosen
               for kind, chosen in current.items() for channel in channels}
    form = PreferencesForm(request.POST or None, channels=channels, initial=initial)
    if request.method == "POST" and form.is_valid():
        chosen = form.chosen()
        if Channel.PUSH not in channels:  # the push choices stay as they were
            chosen = {kind: kinds | (current[kind] & {Channel.PUSH.value})
                      for kind, kinds in chosen.items()}
        services.preferences_set(user_id=user.pk, channels=chosen)
        messages.success(request, _("Your notification settings have been saved."))
        return redirect("notifications:settings")
    return render(request, "notifications/settings.html", {
        "form": form,
        "channel_labels": [Channel(channel).label for channel in channels],
        "push_config": {
            "publicKey": settings.WEBPUSH_VAPID_PUBLIC_KEY if selectors.push_offered() else "",
            "subscribeUrl": reverse("notifications:push_subscribe"),
            "unsubscribeUrl": reverse("notifications:push_unsubscribe"),
            "workerUrl": reverse("notifications:service_worker"),
            "labels": {
                "enable": _("Send notifications to this browser"),
                "disable": _("Stop notifications to this browser"),
                "enabled": _("This browser gets your notifications."),
                "denied": _("This browser refuses notifications from this site: "
                            "allow them in its settings."),
                "unsupported": _("This browser cannot receive push notifications."),
                "failed": _("The browser could not subscribe. Try again later."),
            },
        },
        "has_email": bool(user.email),
    })


def _push_form(request: HttpRequest) -> PushSubscriptionForm | None:
    try:
        body = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(body, dict):
        return None
    keys = body.get("keys") if isinstance(body.get("keys"), dict) else {}
    return PushSubscriptionForm({"endpoint": body.get("endpoint"),
                                 "p256dh": keys.get("p256dh"), "auth": keys.get("auth")})


@login_required
@require_POST
def push_subscribe(request: HttpRequest) -> HttpResponse:
    """Keep a browser's push subscription (the JSON of `PushSubscription.toJSON()`)."""
    if not selectors.push_offered():
        return JsonResponse({"error": _("This site sends no push notifications.")}, status=404)
    form = _push_form(request)
    if form is None or not form.is_valid():
        errors = form.errors.get_json_data() if form is not None else {}
        return JsonResponse({"error": _("That is not a push subscription."), "fields": errors},
                            status=BAD_REQUEST)
    services.push_subscription_save(user_id=request.user.pk, **form.cleaned_data)
    return JsonResponse({"ok": True})


@login_required
@require_POST
def push_unsubscribe(request: HttpRequest) -> HttpResponse:
    try:
        body = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError):
        body = None
    endpoint = body.get("endpoint") if isinstance(body, dict) else None
    if not isinstance(endpoint, str) or not endpoint:
        return JsonResponse({"error": _("That is not a push subscription.")},
                            status=BAD_REQUEST)
    removed = services.push_subscription_delete(user_id=request.user.pk, endpoint=endpoint)
    return JsonResponse({"ok": True, "removed": removed})


@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """The link of every notification e-mail: one click (a GET: the token, not a session, is
    the authority) stops e-mail of that kind, no log-in needed. The page offers to undo it, or
    to stop every kind (forms with the CSRF token, like every form of the site)."""
    found = delivery.unsubscribe_token_read(token)
    user = User.objects.filter(pk=found[0], is_active=True).first() if found else None
    kind = found[1] if found else ""
    if user is None or (kind not in Kind.values and kind != delivery.ALL_KINDS):
        return render(request, "notifications/unsubscribe.html", {"invalid": True},
                      status=BAD_REQUEST)
    action = request.POST.get("action", "")
    if action == "resubscribe" and kind in Kind.values:
        services.email_resubscribe(user_id=user.pk, kind=kind)
        done = "resubscribed"
    elif action == "all":
        services.email_unsubscribe(user_id=user.pk, kinds=list(Kind.values))
        done = "all"
    else:
        kinds = list(Kind.values) if kind == delivery.ALL_KINDS else [kind]
        services.email_unsubscribe(user_id=user.pk, kinds=kinds)
        done = "all" if kind == delivery.ALL_KINDS else "kind"
    return render(request, "notifications/unsubscribe.html", {
        "done": done, "token": token,
        "kind_label": Kind(kind).label if kind in Kind.values else "",
    })


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, served from the site's root so that its scope is the whole site."""
    path = finders.find(SERVICE_WORKER)
    with open(str(path), "rb") as source:
        response = HttpResponse(source.read(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response
