"""The report button: a line of chat or a player, reported to the staff's queue (the admin's
chat reports). Answers JSON to the chat panel's script, or comes back to the page it was
sent from (a profile's form) with a message."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.selectors import user_get_by_username
from games.chat import errors
from games.chat.errors import ChatError
from games.chat.services import chat_report_create


@login_required
@require_POST
def report(request: HttpRequest) -> HttpResponse:
    wants_json = "application/json" in request.headers.get("Accept", "")
    message_text = request.POST.get("message", "")
    player = request.POST.get("player", "")
    try:
        if message_text:
            if not message_text.isascii() or not message_text.isdigit() or len(
                    message_text) > 18:
                raise ChatError(errors.REFUSED, _("There is no such message."))
            chat_report_create(reporter=request.user,  # type: ignore[arg-type]
                               message_id=int(message_text),
                               reason=request.POST.get("reason", ""))
        else:
            reported = user_get_by_username(username=player[:20]) if player else None
            if reported is None:
                raise ChatError(errors.REFUSED, _("There is no such player."))
            chat_report_create(reporter=request.user,  # type: ignore[arg-type]
                               reported=reported, reason=request.POST.get("reason", ""))
    except ChatError as error:
        if wants_json:
            return JsonResponse({"code": error.code, "detail": error.detail},
                                status=429 if error.code == errors.RATE_LIMITED else 400)
        messages.error(request, error.detail)
    else:
        if wants_json:
            return JsonResponse({"ok": True})
        messages.success(request, _("Reported: the staff will look at it."))
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        back = "/"
    return redirect(back)
