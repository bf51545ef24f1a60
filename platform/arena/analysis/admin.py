"""Admin for analyses: read-only, since each is the search's record of a game.
Deleting one lets it be asked for again under the same settings."""

from django.contrib import admin

from .models import Analysis


@admin.register(Analysis)
class AnalysisAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "settings_key", "state", "decisions_total", "created_at"]
    list_filter = ["state"]
    fields = [
        "game",
        "settings_key",
        "settings",
        "state",
        "requested_by",
        "decisions_total",
        "error",
        "attempts",
        "lease_expires_at",
        "created_at",
        "started_at",
        "finished_at",
    ]
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
