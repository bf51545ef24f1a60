"""Admin for notifications. A webhook's secret is never shown, here either."""

from django.contrib import admin

from .models import Delivery, Notification, Preference, Webhook


class DeliveryInline(admin.TabularInline):
    model = Delivery
    fields = ["channel", "state", "attempts", "error", "created_at", "finished_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ["title", "kind", "user", "created_at", "read_at"]
    list_filter = ["kind"]
    search_fields = ["title", "user__username"]
    list_select_related = ["user"]
    raw_id_fields = ["user"]
    readonly_fields = ["created_at"]
    inlines = [DeliveryInline]


@admin.register(Preference)
class PreferenceAdmin(admin.ModelAdmin):
    list_display = ["user", "kind", "email", "webhook"]
    list_select_related = ["user"]
    raw_id_fields = ["user"]


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin):
    list_display = ["user", "url", "created_at"]
    list_select_related = ["user"]
    search_fields = ["user__username", "url"]
    fields = ["user", "url", "created_at"]  # not the secret
    readonly_fields = ["user", "url", "created_at"]

    def has_add_permission(self, request):
        return False  # made by their users, who see the secret once


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = ["notification", "channel", "state", "attempts", "error", "created_at"]
    list_filter = ["channel", "state"]
    raw_id_fields = ["notification"]
