from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "arena.notifications"
    label = "notifications"
