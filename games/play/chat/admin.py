"""The staff's queue of chat reports: the message, the lines before it, the reporter; the
actions mute the reported players (for an hour, a day, a week, or for good) or dismiss."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.models import User
from accounts.moderation import user_mute
from games.play.chat.models import ChatMessage, ChatReport, ReportStatus


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin):
    list_display = ("created_at", "status", "reported", "reporter", "message_text", "match")
    list_filter = ("status",)
    search_fields = ("reported__username", "reporter__username", "message__body")
    ordering = ("status", "created_at")
    readonly_fields = ("reporter", "reported", "message", "match", "context", "reason",
                       "created_at")
    fields = ("status", "reported", "reporter", "message", "match", "reason", "context",
              "created_at")
    actions = ["mute_hour", "mute_day", "mute_week", "mute_for_good", "dismiss"]

    @admin.display(description=_("message"))
    def message_text(self, report: ChatReport) -> str:
        return report.message.body if report.message is not None else "—"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def _mute(self, request: HttpRequest, queryset: QuerySet[ChatReport],
              minutes: int | None) -> None:
        users = User.objects.filter(pk__in=queryset.values("reported_id"))
        count = user_mute(users=users, minutes=minutes)
        queryset.update(status=ReportStatus.ACTED)
        self.message_user(request, ngettext("%(count)d player muted.",
                                            "%(count)d players muted.", count)
                          % {"count": count})

    @admin.action(description=_("Mute the reported players for an hour"),
                  permissions=["change"])
    def mute_hour(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        self._mute(request, queryset, 60)

    @admin.action(description=_("Mute the reported players for a day"), permissions=["change"])
    def mute_day(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        self._mute(request, queryset, 24 * 60)

    @admin.action(description=_("Mute the reported players for a week"),
                  permissions=["change"])
    def mute_week(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        self._mute(request, queryset, 7 * 24 * 60)

    @admin.action(description=_("Mute the reported players for good"), permissions=["change"])
    def mute_for_good(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        self._mute(request, queryset, None)

    @admin.action(description=_("Dismiss the selected reports"), permissions=["change"])
    def dismiss(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        queryset.update(status=ReportStatus.DISMISSED)


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("created_at", "match", "room", "author_name", "kind", "body")
    list_filter = ("room", "kind")
    search_fields = ("author_name", "body")
    readonly_fields = ("match", "room", "author", "guest_id", "author_name", "kind", "body",
                       "created_at")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
