"""Admin for worker hosts: the staff's view of the pool, and the way back into it."""

from django.contrib import admin, messages

from .models import WorkerHost
from .workers import worker_host_reinstate


@admin.register(WorkerHost)
class WorkerHostAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "in_rotation",
        "matches",
        "faulted",
        "failures",
        "total_matches",
        "total_faulted",
        "total_failures",
        "quarantined_at",
        "quarantine_reason",
        "last_seen_at",
    ]
    list_filter = [("quarantined_at", admin.EmptyFieldListFilter)]
    search_fields = ["name"]
    readonly_fields = [field.name for field in WorkerHost._meta.fields]
    actions = ["return_to_rotation"]

    @admin.display(boolean=True, description="in rotation")
    def in_rotation(self, host: WorkerHost) -> bool:
        return host.in_rotation

    @admin.action(description="Put back in rotation (then restart its workers)")
    def return_to_rotation(self, request, queryset) -> None:
        hosts = list(queryset.filter(quarantined_at__isnull=False))
        for host in hosts:
            worker_host_reinstate(host=host)
        self.message_user(
            request,
            f"{len(hosts)} worker host(s) back in rotation; restart their workers, which "
            "stopped consuming when they were quarantined.",
            messages.SUCCESS,
        )

    def has_add_permission(self, request) -> bool:
        return False
