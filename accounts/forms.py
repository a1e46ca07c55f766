"""The account forms: they check the input; the views call the services.

Every error is tied to the field that caused it (`add_service_errors` does the same for the
ValidationError a service raises).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import password_validation
from django.contrib.auth.forms import (
    AuthenticationForm,
    PasswordChangeForm,
    PasswordResetForm,
    SetPasswordForm,
)
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts.countries import COUNTRIES
from accounts.languages import user_language
from accounts.models import TokenScope, User
from accounts.selectors import user_find_for_login
from accounts.validators import username_validators


def add_service_errors(form: forms.Form, error: ValidationError) -> None:
    """Put a service's ValidationError onto the form's fields (or the form, if unkeyed)."""
    if hasattr(error, "error_dict"):
        for field, messages in error.message_dict.items():
            form.add_error(field if field in form.fields else None, messages)
    else:
        form.add_error(None, error)


class SignupForm(forms.Form):
    username = forms.CharField(
        label=_("Username"),
        max_length=20,
        validators=username_validators,
        help_text=_("3 to 20 characters: letters, digits, _ and -."),
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none",
                                      "autofocus": True}),
    )
    email = forms.EmailField(
        label=_("Email"),
        help_text=_("Only for resetting your password; never shown to anyone."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    password = forms.CharField(
        label=_("Password"),
        strip=False,
        help_text=password_validation.password_validators_help_text_html,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )



class LoginForm(AuthenticationForm):
    """Log in by username or e-mail address; a failure is shown at the password field."""

    username = forms.CharField(
        label=_("Username or email"),
        max_length=254,
        widget=forms.TextInput(attrs={"autofocus": True, "autocomplete": "username",
                                      "autocapitalize": "none"}),
    )
    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": _("Wrong username, email or password."),
        "inactive": _("This account has been closed."),
    }

    def clean(self) -> dict[str, Any]:
        try:
            return super().clean()
        except ValidationError as error:
            if error.code != "invalid_login":
                raise
            closed = self._closed_account()
            self.add_error("password", closed or error)
            return self.cleaned_data

    def _closed_account(self) -> ValidationError | None:
        """Tell a deactivated user why, but only one who knows the password."""
        user = user_find_for_login(identifier=self.cleaned_data.get("username") or "")
        password = self.cleaned_data.get("password") or ""
        if user is not None and not user.is_active and user.check_password(password):
            return ValidationError(self.error_messages["inactive"], code="inactive")
        return None


class PasswordCheckMixin(forms.Form):
    current_password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_current_password(self) -> str:
        password = self.cleaned_data["current_password"]
        if not self.user.check_password(password):
            raise ValidationError(_("That is not your password."), code="wrong_password")
        return password


class EmailChangeForm(PasswordCheckMixin):
    email = forms.EmailField(
        label=_("New email"),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    field_order = ["email", "current_password"]


class AccountDeleteForm(PasswordCheckMixin):
    pass


class ProfileForm(forms.Form):
    """The profile's words and flag, and whether free text is open to strangers in rated
    games (`accounts.social.profile_update` holds the bio to chat's rules)."""

    bio = forms.CharField(label=_("About you"), max_length=300, required=False,
                          widget=forms.Textarea(attrs={"rows": 3}))
    country = forms.ChoiceField(label=_("Country"), required=False,
                                choices=[("", _("None shown")), *COUNTRIES])
    chat_with_strangers = forms.BooleanField(
        label=_("Free text chat in rated games with players who are not my friends"),
        required=False)


class LanguageSelect(forms.Select):
    """Each language's option marked with its language, as in the footer's switcher (a screen
    reader then says "Polski" the Polish way)."""

    def create_option(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(*args, **kwargs)
        if option["value"]:
            option["attrs"]["lang"] = option["value"]
        return option


class LanguageForm(forms.Form):
    # Each language by its own name (settings.LANGUAGES), so a reader finds theirs.
    language = forms.ChoiceField(
        label=_("Language of the site"),
        required=False,
        help_text=_("Used on every device you log in with, and for the emails we send you."),
        widget=LanguageSelect(attrs={"data-testid": "settings-language"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["language"].choices = [
            ("", _("The language your browser prefers")), *settings.LANGUAGES
        ]


class SoundVolumeForm(forms.Form):
    volume = forms.IntegerField(
        label=_("Sound volume"), min_value=0, max_value=100,
        help_text=_("0 mutes the sounds. Kept for every device you log in with."),
        widget=forms.NumberInput(attrs={"type": "range", "step": 10,
                                        "data-testid": "settings-sound-volume"}),
    )


class ApiTokenForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=60,
                           help_text=_("What the token is for, e.g. the name of your bot."))
    scopes = forms.MultipleChoiceField(
        label=_("Scopes"), choices=TokenScope.choices, widget=forms.CheckboxSelectMultiple,
        help_text=_("What a program holding the token may do in your name."),
    )


class BotChallengesForm(forms.Form):
    accept = forms.BooleanField(label=_("Accept challenges from bots"), required=False)


def bot_challenges_form_of(user: User) -> BotChallengesForm:
    """The form as the API tokens page shows it (it posts to its own view)."""
    return BotChallengesForm(initial={"accept": user.bot_challenges})


class _WeakPasswordAtFirstField:
    """Django reports a weak new password at the confirmation field; show it at the field
    where it was typed first (a mismatch stays at the confirmation, where it belongs)."""

    def validate_password_for_user(self, user: User, password_field_name: str = "new_password1",
                                   **kwargs: Any) -> None:
        if password_field_name == "new_password2":
            password_field_name = "new_password1"
        super().validate_password_for_user(  # type: ignore[misc]
            user, password_field_name=password_field_name, **kwargs
        )


class NewPasswordForm(_WeakPasswordAtFirstField, SetPasswordForm):
    pass


class ChangePasswordForm(_WeakPasswordAtFirstField, PasswordChangeForm):
    pass


class ResetPasswordForm(PasswordResetForm):
    """The reset e-mail is written in the account's saved language (whoever asked for it, in
    whatever language), else in the language of the page it was asked from."""

    def send_mail(self, subject_template_name: str, email_template_name: str,
                  context: dict[str, Any], *args: Any, **kwargs: Any) -> None:
        language = user_language(context["user"]) or translation.get_language()
        with translation.override(language):
            super().send_mail(subject_template_name, email_template_name, context, *args,
                              **kwargs)
