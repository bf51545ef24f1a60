"""OneCard Arena: the Django site (settings, Celery app and the apps)."""

from .celery import app as celery_app

__all__ = ["celery_app"]
