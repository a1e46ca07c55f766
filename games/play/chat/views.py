"""The report button: a line of chat or a player, reported to the staff's queue (the admin's
chat reports). Answers JSON to the chat panel's script, or comes back to the page it was
sent from (a profile's form) with a message."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.selectors import user_get_by_username
from games.play.chat import errors
from games.play.chat.errors import ChatError
from games.play.chat.forms import ReportForm
from games.play.chat.services import chat_report_create


@login_required
@require_POST
def report(request: HttpRequest) -> HttpResponse:
    wants_json = "application/json" in request.headers.get("Accept", "")
    form = ReportForm(request.POST)
    try:
        if not form.is_valid():
            raise ChatError(errors.REFUSED, _("There is no such message."))
        data = form.cleaned_data
        if data["message"] is not None:
            chat_report_create(reporter=request.user,  # type: ignore[arg-type]
                               message_id=data["message"], reason=data["reason"])
        else:
            reported = (user_get_by_username(username=data["player"])
                        if data["player"] else None)
            if reported is None:
                raise ChatError(errors.REFUSED, _("There is no such player."))
            chat_report_create(reporter=request.user,  # type: ignore[arg-type]
                               reported=reported, match_id=data["match"],
                               reason=data["reason"])
    except ChatError as error:
        if wants_json:
            return JsonResponse({"code": error.code, "detail": error.detail},
                                status=429 if error.code == errors.RATE_LIMITED else 400)
        messages.error(request, error.detail)
    else:
        if wants_json:
            return JsonResponse({"ok": True})
        messages.success(request, _("Reported: the staff will look at it."))
    back = form.cleaned_data.get("next", "") if form.is_valid() else ""
    if not back.startswith("/") or not url_has_allowed_host_and_scheme(
            back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        back = "/"
    return HttpResponseRedirect(back)
