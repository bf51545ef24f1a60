"""Django admin for ratings. Ratings are written by games (and recompute_ratings),
so the admin shows them read-only."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from .models import Rating, RatingChange


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ["bot", "competition", "elo", "games", "wins", "last_played_at"]
    list_filter = ["competition"]
    search_fields = ["bot__name"]
    list_select_related = ["bot", "competition"]
    ordering = ["competition", "-elo"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ["rating", "game", "bot_version", "before", "after", "created_at"]
    list_select_related = ["rating__bot", "rating__competition", "bot_version__bot"]
    raw_id_fields = ["rating", "game", "bot_version"]
    search_fields = ["rating__bot__name"]
