from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.models import PlayerRating, User
from accounts.moderation import user_unmute
from accounts.services import user_deactivate


@admin.register(User)
class SiteUserAdmin(UserAdmin):
    list_display = ("username", "email", "is_active", "is_staff", "date_joined", "last_seen")
    list_filter = ("is_active", "is_staff", "is_superuser")
    fieldsets = (*UserAdmin.fieldsets, (_("Your Trumps"), {"fields": ("language", "last_seen")}),
                 (_("Profile and chat"), {"fields": ("bio", "country", "chat_with_strangers",
                                                      "chat_muted_until",
                                                      "chat_muted_for_good")}))
    actions = ["deactivate", "unmute"]

    @admin.action(description=_("Lift the chat mute of the selected accounts"),
                  permissions=["change"])
    def unmute(self, request, queryset):  # type: ignore[no-untyped-def]
        user_unmute(users=queryset)

    @admin.action(description=_("Deactivate the selected accounts"), permissions=["change"])
    def deactivate(self, request, queryset):  # type: ignore[no-untyped-def]
        count = user_deactivate(users=queryset)
        self.message_user(
            request,
            ngettext(
                "%(count)d account deactivated: it can no longer log in or play.",
                "%(count)d accounts deactivated: they can no longer log in or play.",
                count,
            )
            % {"count": count},
        )


@admin.register(PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin):
    list_display = ("user", "mode", "rating", "deviation", "volatility", "games", "last_rated_at")
    list_filter = ("mode",)
    search_fields = ("user__username",)
    ordering = ("mode", "-rating")
    readonly_fields = ("user", "mode", "rating", "deviation", "volatility", "games",
                       "last_rated_at")

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False
