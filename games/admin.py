"""The admin of matches: to look, not to play (every change goes through `games.play.services`)."""

from __future__ import annotations

from django.contrib import admin

from games.play.models import Match, Move, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    fields = ("index", "user", "guest_id", "ai_level", "trump", "result", "place",
              "rating_before", "rating_after", "clock_ms", "connections")
    readonly_fields = fields


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    can_delete = False
    fields = ("ply", "seat", "text", "time_spent_ms", "clocks_after", "played_at")
    readonly_fields = fields


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "status", "variant", "rated", "time_control", "result",
                    "termination", "ply", "created_at", "finished_at")
    list_filter = ("status", "variant", "rated", "termination")
    date_hierarchy = "created_at"
    search_fields = ("=id", "seats__user__username")
    readonly_fields = [field.name for field in Match._meta.fields]
    inlines = [SeatInline, MoveInline]

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False


from games.play.chat import admin as chat_admin  # noqa: E402, F401  (the chat's reports and lines)
