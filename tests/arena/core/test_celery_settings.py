"""Celery's configuration is the project's CELERY_* Django settings, read once into
a dict (arena.core.celery_settings)."""

from django.conf import settings

from arena.celery import app

# Django setting -> the name Celery reads it by.
CELERY_NAMES = {
    "CELERY_BROKER_URL": "broker_url",
    "CELERY_TASK_ACKS_LATE": "task_acks_late",
    "CELERY_TASK_REJECT_ON_WORKER_LOST": "task_reject_on_worker_lost",
    "CELERY_WORKER_PREFETCH_MULTIPLIER": "worker_prefetch_multiplier",
    "CELERY_TASK_IGNORE_RESULT": "task_ignore_result",
    "CELERY_TASK_DEFAULT_QUEUE": "task_default_queue",
    "CELERY_BEAT_SCHEDULE": "beat_schedule",
    "CELERY_TIMEZONE": "timezone",
    "CELERY_ACCEPT_CONTENT": "accept_content",
    "CELERY_BROKER_TRANSPORT_OPTIONS": "broker_transport_options",
}


def test_every_celery_setting_reaches_celery():
    for name, celery_name in CELERY_NAMES.items():
        assert app.conf[celery_name] == getattr(settings, name), name


def test_settings_that_are_not_celerys_own_reach_its_fixups():
    # Read by Celery's Django fixup under the Django name.
    assert app.conf.get("CELERY_DB_REUSE_MAX") == settings.CELERY_DB_REUSE_MAX


def test_a_setting_left_at_celerys_default_is_celerys_default():
    assert "CELERY_TASK_PROTOCOL" not in dir(settings)
    assert app.conf.task_protocol == 2
