"""Admin for bots and versions. Versions are immutable uploads: their code and
hash are read-only here, and the code is never linked (it has no URL)."""

from django.contrib import admin, messages
from django.core.exceptions import ValidationError

from .models import Bot, BotVersion
from .services import bot_version_activate, bot_version_retire


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
    actions = ["activate", "retire"]
    readonly_fields = [
        "bot",
        "number",
        "kind",
        "status",
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

    # Status changes go through the services, which keep one active version per
    # bot under the bot's row lock; editing the field by hand could break that.
    @admin.action(description="Activate (retires the bot's current active version)")
    def activate(self, request, queryset):
        self._apply(request, queryset, bot_version_activate)

    @admin.action(description="Retire (takes the bot off the ladder if it was active)")
    def retire(self, request, queryset):
        self._apply(request, queryset, bot_version_retire)

    def _apply(self, request, queryset, service):
        for version in queryset.select_related("bot"):
            try:
                service(user=request.user, version=version)
            except ValidationError as error:
                self.message_user(request, f"{version}: {' '.join(error.messages)}", messages.ERROR)
            else:
                self.message_user(request, f"{version}: done.")
