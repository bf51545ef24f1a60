from django.apps import AppConfig


class WebConfig(AppConfig):
    """The site people use in a browser: pages built on the other apps' services."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "arena.web"
    label = "web"
    verbose_name = "Web UI"
