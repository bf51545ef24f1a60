from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "arena.core"
    label = "core"
    verbose_name = "Core"
