"""Test settings: base plus a fast password hasher. The database and broker still
come from the environment, so CI runs the suite against PostgreSQL and Redis."""

from .base import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Keep test traffic apart from a `make run` on the same machine: its own queue, and
# its own folders for the embedded broker and results.
CELERY_TASK_DEFAULT_QUEUE = "arena-test"
ARENA_NOTIFICATIONS_QUEUE = "arena-test-notifications"
ARENA_TOURNAMENTS_QUEUE = "arena-test-tournaments"
ARENA_QUALIFICATION_QUEUE = "arena-test-qualification"
ARENA_ANALYSIS_QUEUE = "arena-test-analysis"
ARENA_TABLES_QUEUE = "arena-test-tables"
CELERY_TASK_QUEUES, CELERY_TASK_ROUTES = celery_routing(  # noqa: F405
    default=CELERY_TASK_DEFAULT_QUEUE,
    notifications=ARENA_NOTIFICATIONS_QUEUE,
    tournaments=ARENA_TOURNAMENTS_QUEUE,
    qualification=ARENA_QUALIFICATION_QUEUE,
    analysis=ARENA_ANALYSIS_QUEUE,
    tables=ARENA_TABLES_QUEUE,
)
if CELERY_BROKER_URL.startswith("filesystem://"):  # noqa: F405
    _test_broker = VAR_DIR / "celery-test" / "broker"  # noqa: F405
    ensure_dirs(_test_broker, _test_broker.parent / "processed", _test_broker.parent / "results")  # noqa: F405
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_test_broker),
        "data_folder_out": str(_test_broker),
        "processed_folder": str(VAR_DIR / "celery-test" / "processed"),  # noqa: F405
        "control_folder": str(VAR_DIR / "celery-test" / "control"),  # noqa: F405
        "store_processed": False,
    }
if CELERY_RESULT_BACKEND.startswith("file://"):  # noqa: F405
    CELERY_RESULT_BACKEND = f"file://{VAR_DIR / 'celery-test' / 'results'}"  # noqa: F405
MEDIA_ROOT = VAR_DIR / "test-media"  # noqa: F405
STORAGES["bot_code"]["OPTIONS"]["location"] = str(VAR_DIR / "test-bot-code")  # noqa: F405
# Bots in tests are our own example bots and tiny scripted ones: the subprocess
# backend keeps the suite fast. Sandboxed backends have their own marked tests, and
# CI can select one with these variables.
ARENA_SANDBOX_BACKEND = env_choice(  # noqa: F405
    "ARENA_SANDBOX_BACKEND", "subprocess", ("auto", "docker", "bwrap", "subprocess")
)
ARENA_ALLOW_UNSANDBOXED = env_bool("ARENA_ALLOW_UNSANDBOXED", True)  # noqa: F405
# Tests read bands right after the games that move them.
ARENA_BAND_CACHE_SECONDS = 0
# Tests quarantine hosts and look at once.
ARENA_WORKER_STATE_SECONDS = env_int("ARENA_WORKER_STATE_SECONDS", 0, minimum=0)  # noqa: F405
# Live streams in tests: the table as it is played, and a test's own store.
ARENA_LIVE_PUBLIC_DELAY_SECONDS = env_int("ARENA_LIVE_PUBLIC_DELAY_SECONDS", 0, minimum=0)  # noqa: F405
ARENA_LIVE_PUBLISH_MS = 50
ARENA_GAMES_PREVIEW_AFTER_SECONDS = 0
if CACHES["live"]["BACKEND"].endswith("FileBasedCache"):  # noqa: F405
    CACHES["live"]["LOCATION"] = str(VAR_DIR / "live-test")  # noqa: F405
else:
    CACHES["live"]["KEY_PREFIX"] = "arena-live-test"  # noqa: F405
