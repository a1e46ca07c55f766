"""The people side of a profile: follow, unfollow, block, unblock (POST from the profile's
buttons), and the player's own profile words, flag and chat setting (from the settings)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import selectors, social
from accounts.forms import ProfileForm
from accounts.models import User
from accounts.signals import friendships_changed
from accounts.social import SocialError

RELATIONS = {
    "follow": lambda me, them: social.follow_create(follower=me, followed=them),
    "unfollow": lambda me, them: social.follow_delete(follower=me, followed=them),
    "block": lambda me, them: social.block_create(blocker=me, blocked=them),
    "unblock": lambda me, them: social.block_delete(blocker=me, blocked=them),
}


@login_required
@require_POST
def relation_change(request: HttpRequest, username: str, action: str) -> HttpResponse:
    change = RELATIONS.get(action)
    them = selectors.user_get_by_username(username=username)
    if change is None or them is None:
        raise Http404(_("No player has that name."))
    try:
        change(request.user, them)
    except SocialError as error:
        messages.error(request, error.detail)
    else:
        friendships_changed.send(sender=User, user_ids=[request.user.pk, them.pk])
    return redirect("profile", username=them.username)


@login_required
@require_POST
def profile_change(request: HttpRequest) -> HttpResponse:
    user: User = request.user  # type: ignore[assignment]
    form = ProfileForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return redirect("accounts:settings")
    try:
        social.profile_update(user=user, bio=form.cleaned_data["bio"],
                              country=form.cleaned_data["country"])
    except SocialError as error:
        messages.error(request, error.detail)
        return redirect("accounts:settings")
    User.objects.filter(pk=user.pk).update(
        chat_with_strangers=form.cleaned_data["chat_with_strangers"])
    messages.success(request, _("Your profile is saved."))
    return redirect("accounts:settings")
