"""Account pages: thin views over `accounts.forms`, `accounts.services` and
`accounts.selectors`."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.messages.views import SuccessMessageMixin
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST
from django.views.i18n import set_language as django_set_language

from accounts import languages, ratelimit
from accounts.forms import (
    AccountDeleteForm,
    ApiTokenForm,
    BotChallengesForm,
    ChangePasswordForm,
    EmailChangeForm,
    LanguageForm,
    LoginForm,
    NewPasswordForm,
    ProfileForm,
    ResetPasswordForm,
    SignupForm,
    SoundVolumeForm,
    add_service_errors,
    bot_challenges_form_of,
)
from accounts.models import User
from accounts.services import (
    user_bot_challenges_change,
    user_create,
    user_delete,
    user_email_change,
    user_language_change,
    user_login_failures_clear,
    user_sound_volume_change,
)
from accounts.tokens import token_create, token_list, token_revoke

TOO_MANY_REQUESTS = 429


def _refused_too_often(request: HttpRequest, action: str, form: object,
                       subject: str | None = None) -> bool:
    """Count one attempt of `action` from this address (or, given a `subject`, for that
    subject); past the limit, say so on the form."""
    limit, window = settings.ACCOUNT_RATE_LIMITS[action]
    key = f"{action}:{ratelimit.client_address(request) if subject is None else subject}"
    wait = ratelimit.hit(key=key, limit=limit, window=window)
    if wait is None:
        return False
    form.add_error(None, ratelimit.wait_message(wait))  # type: ignore[attr-defined]
    return True

LOGIN_BACKEND = "accounts.backends.UsernameOrEmailBackend"


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("profile", username=request.user.get_username())
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if _refused_too_often(request, "signup", form):
            return render(request, "accounts/signup.html", {"form": form},
                          status=TOO_MANY_REQUESTS)
        try:
            user = user_create(**form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            login(request, user, backend=LOGIN_BACKEND)
            messages.success(request, _("Welcome to Your Trumps, %(name)s!") % {
                "name": user.username})
            return redirect("profile", username=user.username)
    return render(request, "accounts/signup.html", {"form": form})


def locked_out(request: HttpRequest, original_response: object = None,
               credentials: dict[str, object] | None = None) -> HttpResponse:
    """django-axes' lock-out answer (`AXES_LOCKOUT_CALLABLE`): the page says what is locked,
    the account from this address, the account, or this address."""
    from axes.handlers.proxy import AxesProxyHandler
    from axes.helpers import get_cool_off

    from accounts.axes_support import ACCOUNT, ADDRESS
    from accounts.templatetags.accounts_tags import minutes

    handler = AxesProxyHandler.get_implementation()
    scope = handler.lockout_scope(request, credentials)
    limit = {ACCOUNT: settings.LOGIN_ACCOUNT_FAILURE_LIMIT,
             ADDRESS: settings.LOGIN_ADDRESS_FAILURE_LIMIT}.get(scope or "",
                                                            settings.AXES_FAILURE_LIMIT)
    return render(request, "accounts/locked_out.html",
                  {"scope": scope, "failure_limit": limit,
                   "minutes": max(1, minutes(get_cool_off(request)))},
                  status=TOO_MANY_REQUESTS)


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True


@login_required
@require_http_methods(["GET", "POST"])
def account_settings(request: HttpRequest) -> HttpResponse:
    user: User = request.user  # type: ignore[assignment]
    form = EmailChangeForm(request.POST or None, user=user)
    if request.method == "POST" and form.is_valid():
        try:
            user_email_change(user=user, email=form.cleaned_data["email"])
        except ValidationError as error:
            user.refresh_from_db(fields=["email"])
            add_service_errors(form, error)
        else:
            messages.success(request, _("Your email address has been changed."))
            return redirect("accounts:settings")
    return _settings_page(request, email_form=form)


def _settings_page(request: HttpRequest, *, status: int = 200, **forms: object) -> HttpResponse:
    user: User = request.user  # type: ignore[assignment]
    context = {
        "email_form": EmailChangeForm(user=user),
        "language_form": LanguageForm(initial={"language": user.language}),
        # Until the player chooses, the scripts' default (static/js/sound.js).
        "sound_form": SoundVolumeForm(initial={"volume": user.sound_volume
                                               if user.sound_volume is not None else 60}),
        "profile_form": ProfileForm(initial={
            "bio": user.bio, "country": user.country,
            "chat_with_strangers": user.chat_with_strangers}),
        **forms,
    }
    return render(request, "accounts/settings.html", context, status=status)


@login_required
@require_POST
def language_change(request: HttpRequest) -> HttpResponse:
    """Save the player's language; the cookie follows, so the site stays in it after they log
    out on this device (none: the browser's preference again)."""
    user: User = request.user  # type: ignore[assignment]
    form = LanguageForm(request.POST)
    if form.is_valid():
        try:
            user_language_change(user=user, language=form.cleaned_data["language"])
        except ValidationError as error:
            add_service_errors(form, error)
    if not form.is_valid():
        return _settings_page(request, language_form=form, status=400)
    # The message is shown on the next page: in the language that page will be in.
    language = user.language or languages.browser_language(request.headers.get("accept-language"))
    with translation.override(language):
        messages.success(request, _("Your language has been saved."))
    response = redirect("accounts:settings")
    languages.remember_language(response, user.language)
    return response


@login_required
@require_POST
def sound_volume_change(request: HttpRequest) -> HttpResponse:
    """Keep the player's sound volume. The pages' scripts post here and read JSON back
    (`Accept: application/json`); the settings page's form is sent back to the settings."""
    user: User = request.user  # type: ignore[assignment]
    form = SoundVolumeForm(request.POST)
    if form.is_valid():
        try:
            user_sound_volume_change(user=user, volume=form.cleaned_data["volume"])
        except ValidationError as error:
            add_service_errors(form, error)
    wants_json = "application/json" in request.headers.get("accept", "")
    if not form.is_valid():
        if wants_json:
            return JsonResponse({"errors": form.errors.get_json_data()}, status=400)
        return _settings_page(request, sound_form=form, status=400)
    if wants_json:
        return JsonResponse({"volume": user.sound_volume})
    messages.success(request, _("Your sound volume has been saved."))
    return redirect("accounts:settings")


class PasswordChangeView(SuccessMessageMixin, auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    form_class = ChangePasswordForm
    success_url = reverse_lazy("accounts:settings")
    success_message = gettext_lazy("Your password has been changed.")


@login_required
@require_http_methods(["GET", "POST"])
def account_delete(request: HttpRequest) -> HttpResponse:
    user: User = request.user  # type: ignore[assignment]
    form = AccountDeleteForm(request.POST or None, user=user)
    if request.method == "POST" and form.is_valid():
        try:
            user_delete(user=user)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            logout(request)
            messages.success(request, _("Your account has been deleted. Goodbye!"))
            return redirect("home")
    return render(request, "accounts/delete.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def api_tokens(request: HttpRequest) -> HttpResponse:
    """The player's API tokens: make one (its text is shown on this answer only, never
    again), see and revoke the others; and whether bots may challenge them."""
    user: User = request.user  # type: ignore[assignment]
    form = ApiTokenForm(request.POST or None)
    new_token = None
    if request.method == "POST" and form.is_valid():
        try:
            new_token = token_create(user=user, name=form.cleaned_data["name"],
                                     scopes=form.cleaned_data["scopes"])
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            form = ApiTokenForm()
    response = render(request, "accounts/api_tokens.html", {
        "form": form, "new_token": new_token, "tokens": token_list(user=user),
        "bot_form": bot_challenges_form_of(user),
    }, status=400 if form.errors else 200)
    response["Cache-Control"] = "no-store"  # the new token's text must not stay in a cache
    return response


@login_required
@require_POST
def api_token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    user: User = request.user  # type: ignore[assignment]
    if token_revoke(user=user, token_id=token_id):
        messages.success(request, _("The token has been revoked."))
    return redirect("accounts:api_tokens")


@login_required
@require_POST
def bot_challenges_change(request: HttpRequest) -> HttpResponse:
    user: User = request.user  # type: ignore[assignment]
    form = BotChallengesForm(request.POST)
    form.is_valid()  # a checkbox: absent is False, never an error
    user_bot_challenges_change(user=user, accept=bool(form.cleaned_data.get("accept")))
    messages.success(request, _("Your choice about bots has been saved."))
    return redirect("accounts:api_tokens")


class PasswordResetView(auth_views.PasswordResetView):
    template_name = "accounts/password_reset.html"
    email_template_name = "accounts/emails/password_reset.txt"
    subject_template_name = "accounts/emails/password_reset_subject.txt"
    form_class = ResetPasswordForm
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form: ResetPasswordForm) -> HttpResponse:
        # Per address, and per address asked for: a few addresses must not flood one inbox.
        email = form.cleaned_data["email"].strip().lower()
        if _refused_too_often(self.request, "password_reset", form) or _refused_too_often(
            self.request, "password_reset_account", form, subject=email
        ):
            response = self.form_invalid(form)
            response.status_code = TOO_MANY_REQUESTS
            return response
        return super().form_valid(form)


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_done.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    form_class = NewPasswordForm
    success_url = reverse_lazy("accounts:password_reset_complete")

    def form_valid(self, form: NewPasswordForm) -> HttpResponse:
        response = super().form_valid(form)
        user_login_failures_clear(user=form.user)
        return response


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "accounts/password_reset_complete.html"


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's `set_language` (it checks the `next` URL), also saved in the player's account."""
    response = django_set_language(request)
    form = LanguageForm(request.POST)
    language = form.cleaned_data["language"] if form.is_valid() else ""
    if language and request.user.is_authenticated:
        user_language_change(user=request.user, language=language)  # type: ignore[arg-type]
    return response
