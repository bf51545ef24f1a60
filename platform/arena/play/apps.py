from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "arena.play"
    label = "play"
