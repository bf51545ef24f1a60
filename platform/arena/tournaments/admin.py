"""Django admin for tournaments; the schedule is created by the start task, so the
admin can create a pending tournament with entries and start it from the list."""

from __future__ import annotations

import secrets

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from .models import Tournament, TournamentEntry
from .selectors import tournament_progress
from .services import tournament_start


class TournamentEntryInline(admin.TabularInline):
    model = TournamentEntry
    extra = 0
    raw_id_fields = ["bot", "bot_version"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "format", "seats", "state", "progress", "created_by", "created_at"]
    list_filter = ["state", "format", "seats"]
    search_fields = ["name", "created_by__username"]
    readonly_fields = ["seed", "created_at", "started_at", "finished_at"]
    raw_id_fields = ["created_by"]
    inlines = [TournamentEntryInline]
    actions = ["start"]

    @admin.display(description="progress")
    def progress(self, tournament: Tournament) -> str:
        done, total = tournament_progress(tournament=tournament)
        return f"{done} / {total}"

    def save_model(self, request: HttpRequest, obj: Tournament, form, change: bool) -> None:
        if obj.seed is None:
            obj.seed = secrets.randbits(62)
        super().save_model(request, obj, form, change)

    @admin.action(description="Start the selected pending tournaments (create their matches)")
    def start(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        started = 0
        for tournament in queryset.filter(state=Tournament.State.PENDING):
            result = tournament_start(tournament_id=tournament.pk)
            started += bool(result and result.state == Tournament.State.RUNNING)
        self.message_user(request, f"Started {started} tournament(s).", messages.SUCCESS)


@admin.register(TournamentEntry)
class TournamentEntryAdmin(admin.ModelAdmin):
    list_display = ["tournament", "bot", "bot_version"]
    search_fields = ["tournament__name", "bot__name"]
    raw_id_fields = ["tournament", "bot", "bot_version"]
