"""Production: the same settings, hardened. Secrets and hosts must come from the
environment; a missing one stops the process at start-up."""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import DEV_SECRET_KEY, SECRET_KEY
from .env import env_bool, env_int

if SECRET_KEY == DEV_SECRET_KEY or len(SECRET_KEY) < 50:
    raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set to a long random value in production")

DEBUG = env_bool("DJANGO_DEBUG", False)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    "bot_code": STORAGES["bot_code"],  # noqa: F405 (base's private storage for bot code)
}
WHITENOISE_USE_FINDERS = False  # the image collects the static files at build time
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
X_FRAME_OPTIONS = "DENY"
# Webhooks may not target loopback or private addresses (SSRF; arena.notifications.webhooks).
ARENA_WEBHOOK_ALLOW_PRIVATE_ADDRESSES = env_bool("ARENA_WEBHOOK_ALLOW_PRIVATE_ADDRESSES", False)
