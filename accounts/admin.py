from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import User


@admin.register(User)
class SiteUserAdmin(UserAdmin):
    list_display = ("username", "email", "is_active", "is_staff", "date_joined", "last_seen")
    list_filter = ("is_active", "is_staff", "is_superuser")
    fieldsets = (*UserAdmin.fieldsets, ("Your Trumps", {"fields": ("language", "last_seen")}))
    actions = ["deactivate"]

    @admin.action(description="Deactivate the selected accounts")
    def deactivate(self, request, queryset):  # type: ignore[no-untyped-def]
        count = queryset.update(is_active=False)
        self.message_user(request, f"{count} account(s) deactivated.")
