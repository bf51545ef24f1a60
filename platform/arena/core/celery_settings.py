"""Celery's settings: the project's CELERY_* Django settings, read once into a dict.

Celery looks its settings up on every message it sends (a queued match: the task's
routing, serializer, defaults). Through Django's lazy settings object, each lookup
of a setting the project leaves at Celery's default goes through
`LazySettings.__getattr__` and an AttributeError; from a dict, a KeyError. Measured
on the benchmark machine: `run_match.delay` took 0.97 ms of CPU, and 0.78 ms from
this dict (docs/benchmarks.md, session 8); the ladder sends one per match.

Celery reads this module when it first needs its configuration, after Django's
settings are loaded. A change to Django's settings after that (a test's
`override_settings`) does not reach Celery; most of Celery's settings are cached
by Celery itself once read anyway.
"""

from __future__ import annotations

from django.conf import settings

CELERY = {name: getattr(settings, name) for name in dir(settings) if name.startswith("CELERY_")}
