from django.apps import AppConfig


class ReplaysConfig(AppConfig):
    name = "arena.replays"
    label = "replays"
