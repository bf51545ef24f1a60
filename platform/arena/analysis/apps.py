from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    name = "arena.analysis"
    label = "analysis"
