"""Admin for competitions, matches, their seats and games."""

from django.contrib import admin

from .models import Competition, Game, Match, MatchSeat


@admin.register(Competition)
class CompetitionAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "seats", "games_per_match", "is_default", "ladder_enabled"]
    list_filter = ["seats", "ladder_enabled"]
    prepopulated_fields = {"slug": ["name"]}


class MatchSeatInline(admin.TabularInline):
    model = MatchSeat
    fields = ["index", "bot", "bot_version", "games", "wins", "faults", "rank_sum"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class GameInline(admin.TabularInline):
    model = Game
    fields = ["number", "seating", "ranks", "winner_index", "turns", "adjudicated", "faults"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "kind", "state", "competition", "rated", "attempts", "created_at"]
    list_filter = ["state", "kind", "competition"]
    date_hierarchy = "created_at"
    list_select_related = ["competition"]
    readonly_fields = [
        "kind",
        "competition",
        "tournament",
        "rated",
        "ruleset",
        "games_planned",
        "seed",
        "attempts",
        "worker",
        "lease_expires_at",
        "backend",
        "created_by",
        "created_at",
        "started_at",
        "finished_at",
    ]
    inlines = [MatchSeatInline, GameInline]

    def has_add_permission(self, request):
        return False  # matches are created by matchmaking, challenges and tournaments


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "winner_index", "turns", "adjudicated", "created_at"]
    list_select_related = ["match"]
    exclude = ["log_compressed"]
    readonly_fields = [
        "match",
        "number",
        "seating",
        "ranks",
        "winner_index",
        "turns",
        "adjudicated",
        "faults",
    ]

    def has_add_permission(self, request):
        return False
