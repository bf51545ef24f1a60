"""Every periodic job in the beat schedule names a registered task."""

from __future__ import annotations

from django.conf import settings

from arena.celery import app

CORE_JOBS = {
    "arena.matches.matchmake_ladders",
    "arena.matches.sweep_expired_leases",
    "arena.bots.requeue_stale_qualifications",
    "arena.matches.cleanup_sandbox_orphans",
    "arena.analysis.sweep_stalled_analyses",
}


def test_beat_schedule_tasks_exist():
    app.loader.import_default_modules()
    names = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert names >= CORE_JOBS
    assert names <= set(app.tasks)
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        if entry["task"] in CORE_JOBS:
            # A run that waited longer than its period is dropped, never piled up.
            assert entry["options"]["expires"] <= entry["schedule"]
