from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "arena.play"
    label = "play"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects the worker's start)
