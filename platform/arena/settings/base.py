"""All of the site's settings. Values that vary come from `env` (the environment)."""

from __future__ import annotations

import socket

from django.core.exceptions import ImproperlyConfigured
from kombu import Exchange, Queue

from .env import (
    REPO_ROOT,
    VAR_DIR,
    database_from_url,
    ensure_dirs,
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_str,
)

BASE_DIR = REPO_ROOT

DEV_SECRET_KEY = "django-insecure-onecard-arena-development-key-never-use-in-production"  # noqa: S105 (development only; production refuses it)
SECRET_KEY = env_str("DJANGO_SECRET_KEY", DEV_SECRET_KEY)
# Off unless asked for: `make run` shows the site's own 404 and 500 pages, not
# Django's debug page with its URL list (DJANGO_DEBUG=true brings that back).
DEBUG = env_bool("DJANGO_DEBUG", False)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "arena.core",
    "arena.notifications",
    "arena.accounts",
    "arena.bots",
    "arena.matches",
    "arena.ratings",
    "arena.tournaments",
    "arena.replays",
    "arena.analysis",
    "arena.play",
    "arena.web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "arena.core.middleware.RejectNulBytesMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "arena.urls"
WSGI_APPLICATION = "arena.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

ensure_dirs(VAR_DIR)
DATABASES = {
    "default": database_from_url(env_str("DATABASE_URL", "sqlite:///var/arena.sqlite3")),
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# The per-match statements (arena.core.statements) run prepared on PostgreSQL. Turn
# off behind a pooler in transaction mode that cannot keep them (PgBouncer < 1.21).
ARENA_DB_PREPARED_STATEMENTS = env_bool("ARENA_DB_PREPARED_STATEMENTS", True)

SESSION_ENGINE = "arena.core.sessions"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "staticfiles"
ensure_dirs(STATIC_ROOT)
MEDIA_ROOT = VAR_DIR / "media"
MEDIA_URL = "/media/"
BOT_CODE_STORAGES = {
    "filesystem": {
        "BACKEND": "arena.bots.storage.PrivateFileSystemStorage",
        "OPTIONS": {"location": str(VAR_DIR / "bot-code")},
    },
    # For workers that share no disk with the site (arena.bots.codestore).
    "database": {"BACKEND": "arena.bots.codestore.DatabaseCodeStorage"},
}
ARENA_BOT_CODE_STORAGE = env_choice(
    "ARENA_BOT_CODE_STORAGE", "filesystem", tuple(BOT_CODE_STORAGES)
)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Production collects hashed copies (arena.settings.production); here files are
    # served as they lie, with or without DEBUG.
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    # Uploaded bot code: private, outside MEDIA_ROOT, and a storage that has no URL.
    "bot_code": BOT_CODE_STORAGES[ARENA_BOT_CODE_STORAGE],
}

# WhiteNoise serves the static files, with DEBUG off too (`make run` runs
# `runserver`, whose own static serving is for DEBUG only): straight from the apps'
# folders here, from STATIC_ROOT after `collectstatic` in production.
WHITENOISE_USE_FINDERS = True

# --- Celery -------------------------------------------------------------------------
# The embedded default broker is kombu's filesystem transport: several processes on
# one machine share a folder, no server needed. Production uses Redis.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "filesystem://")
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", f"file://{VAR_DIR / 'celery' / 'results'}")
if CELERY_BROKER_URL.startswith("filesystem://"):
    _broker_dir = VAR_DIR / "celery" / "broker"
    ensure_dirs(_broker_dir, VAR_DIR / "celery" / "processed", VAR_DIR / "celery" / "results")
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir),
        "data_folder_out": str(_broker_dir),
        "processed_folder": str(VAR_DIR / "celery" / "processed"),
        "control_folder": str(VAR_DIR / "celery" / "control"),
        "store_processed": False,
    }
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
if CELERY_BROKER_URL.startswith("redis://"):
    # kombu's Redis transport, reusing its Redis client (arena.core.broker).
    CELERY_BROKER_TRANSPORT = "arena.core.broker:Transport"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Without this, Celery's Django fixup closes every database connection after every
# task: one new PostgreSQL session per match (measured: 200 sessions for 200
# matches, ~10 ms of the server's CPU each). With it the fixup closes them only
# every DB_REUSE_MAX tasks, and arena.celery applies Django's own policy at task
# boundaries instead (CONN_MAX_AGE, health checks, dropping a broken connection).
CELERY_DB_REUSE_MAX = 10_000
CELERY_RESULT_EXPIRES = 3600
# Outcomes live in the database (matches, versions, tournaments); storing a result per
# task would only cost a broker round trip each. A task whose result is read (the
# probe) asks for it.
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_DEFAULT_QUEUE = env_str("ARENA_CELERY_QUEUE", "arena")
# Notifications (emails, webhook calls) have their own queue: a slow or dead
# receiver waits on it, never in front of a match. A worker started without -Q
# consumes every declared queue but those it excludes (`make run`'s and compose's
# match workers: the analyses' and the tables'); a deployment may give the
# notifications queue its own worker (`celery worker -Q notifications`).
ARENA_NOTIFICATIONS_QUEUE = env_str("ARENA_NOTIFICATIONS_QUEUE", "notifications")
# Each kind of work has its queue, so that none waits behind another's backlog (a
# tournament queues its whole schedule at once): a worker consuming several takes
# from them in turn, and a deployment may give each its own workers
# (docs/scaling.md). The ladder's matches (and challenges, promotion tests) stay on
# the default queue.
ARENA_TOURNAMENTS_QUEUE = env_str("ARENA_TOURNAMENTS_QUEUE", "tournaments")
ARENA_QUALIFICATION_QUEUE = env_str("ARENA_QUALIFICATION_QUEUE", "qualification")
# Replay analyses (arena.analysis) run a search for minutes: their own queue, and
# under `make run` and compose their own worker process, so a match never waits
# behind one.
ARENA_ANALYSIS_QUEUE = env_str("ARENA_ANALYSIS_QUEUE", "analysis")
# How often beat sends the analyses' sweep, which sends again an analysis whose
# worker died or whose message was lost (arena.analysis.services).
ARENA_ANALYSIS_SWEEP_SECONDS = env_int("ARENA_ANALYSIS_SWEEP_SECONDS", 60, minimum=5)
# A table with a person (arena.matches.tables) holds its worker for as long as the
# person plays: its own queue, and under `make run` and compose its own workers.
ARENA_TABLES_QUEUE = env_str("ARENA_TABLES_QUEUE", "tables")


def celery_queues(*names: str) -> list[Queue]:
    """Direct queues, each with its own exchange and routing key (a shared default
    routing key would copy every message into every queue)."""
    return [Queue(name, Exchange(name), routing_key=name) for name in dict.fromkeys(names)]


def celery_routing(
    *,
    default: str,
    notifications: str,
    tournaments: str,
    qualification: str,
    analysis: str,
    tables: str,
) -> tuple[list[Queue], dict[str, dict[str, str]]]:
    """Every declared queue, and the routes of the tasks that do not go to the
    default one (a match's run goes to the queue of its kind:
    arena.matches.services.match_queue). The test settings call it with their own
    names."""
    routes = {
        "arena.notifications.*": {"queue": notifications},
        "arena.tournaments.*": {"queue": tournaments},
        "arena.bots.qualify_version": {"queue": qualification},
        "arena.analysis.*": {"queue": analysis},
    }
    queues = celery_queues(default, notifications, tournaments, qualification, analysis, tables)
    return queues, routes


CELERY_TASK_QUEUES, CELERY_TASK_ROUTES = celery_routing(
    default=CELERY_TASK_DEFAULT_QUEUE,
    notifications=ARENA_NOTIFICATIONS_QUEUE,
    tournaments=ARENA_TOURNAMENTS_QUEUE,
    qualification=ARENA_QUALIFICATION_QUEUE,
    analysis=ARENA_ANALYSIS_QUEUE,
    tables=ARENA_TABLES_QUEUE,
)
# Periodic jobs (arena.play.tasks, arena.analysis.tasks). `expires` drops a run that waited
# longer than its period behind busy workers: the next one will do the same work.
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "ladder-matchmaking": {
        "task": "arena.matches.matchmake_ladders",
        "schedule": 5.0,
        "options": {"expires": 5},
    },
    "sweep-expired-leases": {
        "task": "arena.matches.sweep_expired_leases",
        "schedule": 30.0,
        "options": {"expires": 30},
    },
    "requeue-stale-qualifications": {
        "task": "arena.bots.requeue_stale_qualifications",
        "schedule": 60.0,
        "options": {"expires": 60},
    },
    "review-worker-hosts": {
        "task": "arena.play.review_worker_hosts",
        "schedule": 30.0,
        "options": {"expires": 30},
    },
    "cleanup-sandbox-orphans": {
        "task": "arena.matches.cleanup_sandbox_orphans",
        "schedule": 600.0,
        "options": {"expires": 600},
    },
    "sweep-stalled-analyses": {
        "task": "arena.analysis.sweep_stalled_analyses",
        "schedule": float(ARENA_ANALYSIS_SWEEP_SECONDS),
        "options": {"expires": ARENA_ANALYSIS_SWEEP_SECONDS},
    },
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celery" / "beat-schedule")

# --- Sandbox ------------------------------------------------------------------------
ARENA_SANDBOX_BACKEND = env_choice(
    "ARENA_SANDBOX_BACKEND", "auto", ("auto", "docker", "bwrap", "subprocess")
)
# Uploaded bots never run without isolation unless this is set explicitly.
ARENA_ALLOW_UNSANDBOXED = env_bool("ARENA_ALLOW_UNSANDBOXED", False)
ARENA_SANDBOX_IMAGE = env_str("ARENA_SANDBOX_IMAGE", "onecard-bot-runtime:latest")
ARENA_SANDBOX_RUNTIME = env_str("ARENA_SANDBOX_RUNTIME", "")  # e.g. "runsc" for gVisor
ARENA_MAX_UPLOAD_BYTES = env_int("ARENA_MAX_UPLOAD_BYTES", 1024 * 1024, minimum=1024)
# A zip upload: at most this many entries, unpacking to at most this many bytes, and
# no member compressed more than ARENA_MAX_ZIP_RATIO to 1 (zip bombs).
ARENA_MAX_ZIP_FILES = env_int("ARENA_MAX_ZIP_FILES", 64, minimum=1)
ARENA_MAX_UNPACKED_BYTES = env_int("ARENA_MAX_UNPACKED_BYTES", 8 * 1024 * 1024, minimum=1024)
ARENA_MAX_ZIP_RATIO = env_int("ARENA_MAX_ZIP_RATIO", 100, minimum=2)
# Bots one account may own (staff: no limit); new versions of them are unlimited
# but throttled (ARENA_UPLOAD_RATE).
ARENA_MAX_BOTS_PER_USER = env_int("ARENA_MAX_BOTS_PER_USER", 20, minimum=1)

# --- Matches and the ladder ---------------------------------------------------------
ARENA_QUALIFICATION_GAMES = env_int("ARENA_QUALIFICATION_GAMES", 2, minimum=1)
# A match's or tournament's logs as one zip (arena.matches.archives): at most this
# many games and this much JSON before compression; the rest is listed, not sent.
ARENA_LOG_ARCHIVE_MAX_GAMES = env_int("ARENA_LOG_ARCHIVE_MAX_GAMES", 2000, minimum=1)
ARENA_LOG_ARCHIVE_MAX_BYTES = env_int(
    "ARENA_LOG_ARCHIVE_MAX_BYTES", 100 * 1024 * 1024, minimum=1024
)
# A worker holds a running match for this long and renews it as games finish; the
# sweeper re-queues a match whose lease ran out (its worker died).
ARENA_MATCH_LEASE_SECONDS = env_int("ARENA_MATCH_LEASE_SECONDS", 300, minimum=10)
ARENA_MATCH_MAX_ATTEMPTS = env_int("ARENA_MATCH_MAX_ATTEMPTS", 3, minimum=1)
# A match queued this long is sent to the broker again: its message may have been
# lost (a Redis restarted without persistence). A duplicate is harmless.
ARENA_MATCH_RESEND_SECONDS = env_int("ARENA_MATCH_RESEND_SECONDS", 600, minimum=10)
# A result is committed durably: once a match page shows it, a crash of PostgreSQL
# cannot take it back. `true` lets each result's COMMIT return before its WAL is on
# disk (synchronous_commit off): a database crash may then lose the last fraction of
# a second of results, which the lease sweeper plays again (docs/platform-core.md).
ARENA_RESULTS_COMMIT_ASYNCHRONOUSLY = env_bool("ARENA_RESULTS_COMMIT_ASYNCHRONOUSLY", False)
# A version whose matches fault this many times in a row is taken off the ladder.
ARENA_FAULT_STREAK_LIMIT = env_int("ARENA_FAULT_STREAK_LIMIT", 5, minimum=1)
# The name a machine's workers are counted under (arena.play.workers): the host name
# unless set. A host whose matches fault far more than the others' is quarantined
# once it and the rest have played ARENA_WORKER_MIN_MATCHES; a quarantined worker
# looks its state up at most every ARENA_WORKER_STATE_SECONDS.
ARENA_WORKER_NAME = env_str("ARENA_WORKER_NAME", socket.gethostname())
if not 0 < len(ARENA_WORKER_NAME) <= 100 or ":" in ARENA_WORKER_NAME:
    raise ImproperlyConfigured("ARENA_WORKER_NAME must be 1 to 100 characters without ':'")
ARENA_WORKER_MIN_MATCHES = env_int("ARENA_WORKER_MIN_MATCHES", 20, minimum=1)
ARENA_WORKER_STATE_SECONDS = env_int("ARENA_WORKER_STATE_SECONDS", 5, minimum=0)
ARENA_CHALLENGES_PER_DAY = env_int("ARENA_CHALLENGES_PER_DAY", 20, minimum=0)
# Matchmaking keeps at most (workers x per-worker) ladder matches queued or running.
ARENA_WORKER_COUNT = env_int("ARENA_WORKER_COUNT", 2, minimum=1)
ARENA_LADDER_BACKLOG_PER_WORKER = env_int("ARENA_LADDER_BACKLOG_PER_WORKER", 2, minimum=1)
# Rank bands are counted against every rating of a ladder, kept this long in the
# cache (arena.ratings.selectors.competition_interval_bounds).
ARENA_BAND_CACHE_SECONDS = env_int("ARENA_BAND_CACHE_SECONDS", 15, minimum=0)
# How the ladder seats its tables (arena.play.pairing): "information" (the longest
# waiting bot anchors, opponents by the chance the table corrects the order) or
# "similar" (few games anchor, opponents of similar rating).
ARENA_MATCHMAKING_POLICY = env_choice(
    "ARENA_MATCHMAKING_POLICY", "information", ("information", "similar")
)

# --- Replay analysis ------------------------------------------------------------------
# Analyses one account may request per UTC day (staff: no limit).
ARENA_ANALYSES_PER_DAY = env_int("ARENA_ANALYSES_PER_DAY", 10, minimum=0)
# The search's playouts per decision: with its seed they make an analysis
# reproducible, so they are part of its settings (a new value, a new analysis).
ARENA_ANALYSIS_ITERATIONS = env_int("ARENA_ANALYSIS_ITERATIONS", 1000, minimum=1)
# One game's analysis stops after this long and says so, keeping what it computed.
ARENA_ANALYSIS_GAME_SECONDS = env_int("ARENA_ANALYSIS_GAME_SECONDS", 600, minimum=1)

# --- Email and notifications --------------------------------------------------------
# Mail goes through SMTP when EMAIL_HOST is set, else to the console (the worker's
# output under `make run`). EMAIL_BACKEND names another backend outright.
EMAIL_HOST = env_str("EMAIL_HOST", "")
EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL cannot both be true")
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10, minimum=1)
EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend",
)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "OneCard Arena <arena@localhost>")
# Where emails and webhook events link to: the site's public address.
ARENA_SITE_URL = env_str("ARENA_SITE_URL", "http://127.0.0.1:8000").rstrip("/")
if not ARENA_SITE_URL.startswith(("http://", "https://")):
    raise ImproperlyConfigured(
        f"ARENA_SITE_URL must start with http:// or https://, got {ARENA_SITE_URL!r}"
    )
# A delivery (an email, a webhook call) is tried this many times, waiting
# ARENA_DELIVERY_RETRY_SECONDS after the first failure and twice as long after each
# next one (30 s, 1, 2, 4, 8 min: about a quarter of an hour), then marked failed.
ARENA_DELIVERY_MAX_ATTEMPTS = env_int("ARENA_DELIVERY_MAX_ATTEMPTS", 6, minimum=1)
ARENA_DELIVERY_RETRY_SECONDS = env_int("ARENA_DELIVERY_RETRY_SECONDS", 30, minimum=1)
ARENA_WEBHOOK_TIMEOUT_SECONDS = env_int("ARENA_WEBHOOK_TIMEOUT_SECONDS", 5, minimum=1)
# Webhooks to loopback and private addresses would let users make the site call
# machines inside its own network (SSRF). Allowed here for `make run` and tests,
# whose receivers listen on 127.0.0.1; production refuses them unless this is set.
ARENA_WEBHOOK_ALLOW_PRIVATE_ADDRESSES = env_bool("ARENA_WEBHOOK_ALLOW_PRIVATE_ADDRESSES", True)

# --- Cache ---------------------------------------------------------------------------
# API throttles (uploads, logins) count in the cache, so every web process must share
# it: Redis in production (ARENA_CACHE_URL=redis://host:6379/2), process memory for
# `make run`, which has a single web process.
_CACHE_URL = env_str("ARENA_CACHE_URL", "")
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": _CACHE_URL}
        if _CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

# --- Live games (docs/live.md) ----------------------------------------------------------
# The worker leaves the game being played in the cache alias "live", which the site's
# event streams read: Redis (ARENA_LIVE_URL, else ARENA_CACHE_URL, else a Redis
# broker's URL), or files under var/live/ for `make run`, whose worker and site are
# separate processes with no server between them. Short socket timeouts: a Redis
# that hangs costs the worker's publishing thread a second, never a match.
_LIVE_URL = env_str(
    "ARENA_LIVE_URL",
    _CACHE_URL or (CELERY_BROKER_URL if CELERY_BROKER_URL.startswith("redis") else ""),
)
CACHES["live"] = (
    {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": _LIVE_URL,
        "KEY_PREFIX": "arena-live",
        "OPTIONS": {"socket_timeout": 1, "socket_connect_timeout": 1},
    }
    if _LIVE_URL
    else {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": str(VAR_DIR / "live"),
        "OPTIONS": {"MAX_ENTRIES": 5000},
    }
)
# How often the worker publishes the moves of the game being played, and how long
# anonymous and other users' spectating lags behind the table (the owner of a seat
# watches it without delay). A stream ends after ARENA_LIVE_STREAM_SECONDS; the
# browser's EventSource reconnects and resumes where it was.
ARENA_LIVE_PUBLISH_MS = env_int("ARENA_LIVE_PUBLISH_MS", 250, minimum=10)
ARENA_LIVE_PUBLIC_DELAY_SECONDS = env_int("ARENA_LIVE_PUBLIC_DELAY_SECONDS", 3, minimum=0)
ARENA_LIVE_STREAM_SECONDS = env_int("ARENA_LIVE_STREAM_SECONDS", 300, minimum=5)
# A match's games are written as each ends once it has lasted this long; a shorter
# match appears whole, with its result (arena.play.games).
ARENA_GAMES_PREVIEW_AFTER_SECONDS = env_int("ARENA_GAMES_PREVIEW_AFTER_SECONDS", 2, minimum=0)
# A person at a table (docs/live.md): the clock of each decision (when it runs
# out the seat draws, or passes on a catch), the timeouts in a row after which the
# person is taken as gone, how long their page may be away before they are, and
# the bound on a whole table, whatever the person does.
ARENA_TABLE_MOVE_SECONDS = env_int("ARENA_TABLE_MOVE_SECONDS", 60, minimum=1)
ARENA_TABLE_PATIENCE = env_int("ARENA_TABLE_PATIENCE", 3, minimum=1)
ARENA_TABLE_AWAY_SECONDS = env_int("ARENA_TABLE_AWAY_SECONDS", 20, minimum=1)
ARENA_TABLE_MAX_SECONDS = env_int("ARENA_TABLE_MAX_SECONDS", 1800, minimum=10)

# --- REST framework ----------------------------------------------------------------
REST_FRAMEWORK = {
    # Token first: DRF answers a request it cannot authenticate with the first
    # class's challenge, and only the token has one (401 with `WWW-Authenticate:
    # Token`; the session's would be a bare 403). Sessions still work, with CSRF.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "arena.core.api.exception_handler",
    "DEFAULT_THROTTLE_RATES": {
        "uploads": env_str("ARENA_UPLOAD_RATE", "30/hour"),
        "login": env_str("ARENA_LOGIN_RATE", "20/hour"),
        "signup": env_str("ARENA_SIGNUP_RATE", "20/hour"),
    },
    # Throttles tell visitors apart by address. X-Forwarded-For is trusted only from
    # this many proxies in front of the site (0: never), or a client could send a new
    # header with each request and never be throttled.
    "NUM_PROXIES": env_int("ARENA_NUM_PROXIES", 0, minimum=0),
}
SPECTACULAR_SETTINGS = {
    "TITLE": "OneCard Arena API",
    "DESCRIPTION": "Bots, versions, competitions, leaderboards, matches, games and tournaments.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "MatchKindEnum": "arena.matches.models.Match.Kind",
        "MatchStateEnum": "arena.matches.models.Match.State",
        "BotVersionKindEnum": "arena.bots.models.BotVersion.Kind",
        "BotVersionStatusEnum": "arena.bots.models.BotVersion.Status",
        "TournamentStateEnum": "arena.tournaments.models.Tournament.State",
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("ARENA_LOG_LEVEL", "INFO")},
}
