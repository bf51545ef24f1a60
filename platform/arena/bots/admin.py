"""Admin for bots and versions. Versions are immutable uploads: their code and
hash are read-only here, and the code is never linked (it has no URL)."""

from django.contrib import admin

from .models import Bot, BotVersion


class BotVersionInline(admin.TabularInline):
    model = BotVersion
    fields = ["number", "kind", "status", "size", "created_at", "qualified_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False  # versions come from uploads only


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "is_example", "created_at"]
    list_filter = ["is_example"]
    search_fields = ["name", "owner__username"]
    list_select_related = ["owner"]
    raw_id_fields = ["owner"]
    inlines = [BotVersionInline]


@admin.register(BotVersion)
class BotVersionAdmin(admin.ModelAdmin):
    list_display = [
        "__str__",
        "status",
        "kind",
        "size",
        "consecutive_faulted_matches",
        "created_at",
    ]
    list_filter = ["status", "kind"]
    search_fields = ["bot__name", "sha256"]
    list_select_related = ["bot"]
    exclude = ["code"]
    readonly_fields = [
        "bot",
        "number",
        "kind",
        "code_path",
        "original_filename",
        "sha256",
        "size",
        "qualification",
        "qualification_attempts",
        "qualification_started_at",
        "created_at",
        "qualified_at",
    ]

    def has_add_permission(self, request):
        return False

    @admin.display(description="stored code")
    def code_path(self, version):
        return version.code.name
