# The platform image: the Django site (gunicorn + whitenoise), Celery workers and
# Celery beat all run from it, with different commands (see docker-compose.yml).
# Build from the repository root:  docker build -t onecard-arena:latest .
FROM python:3.11-slim-bookworm

# The code runs from /app as in a checkout (PYTHONPATH, not an install into
# site-packages), so that the settings find bots_examples/ beside it.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DJANGO_SETTINGS_MODULE=arena.settings.production \
    ARENA_VAR_DIR=/var/lib/arena \
    PYTHONPATH=/app:/app/platform

WORKDIR /app

# Dependencies first, so that a code change does not reinstall them.
COPY pyproject.toml README.md ./
RUN mkdir -p engine sandbox platform/arena bots_examples \
    && touch engine/__init__.py sandbox/__init__.py platform/arena/__init__.py bots_examples/__init__.py \
    && pip install . \
    && pip uninstall -y onecard-arena

COPY manage.py ./
COPY engine engine
COPY sandbox sandbox
COPY bots_examples bots_examples
# The local runner: the starter kit (/starter-kit.zip) is zipped from these folders.
COPY onecard onecard
COPY platform platform
# collectstatic needs settings that import cleanly: a throwaway key at build time.
RUN DJANGO_SECRET_KEY=build-only-key-build-only-key-build-only-key-build-only \
       python manage.py collectstatic --noinput \
    && useradd --system --uid 10001 --home-dir /var/lib/arena arena \
    && mkdir -p /var/lib/arena && chown -R arena:arena /var/lib/arena

# The site and beat run unprivileged. The sandbox worker runs with the Docker
# socket and therefore with its group (compose sets `group_add`).
USER arena
VOLUME ["/var/lib/arena"]
EXPOSE 8000

# Health checks differ per service (web, worker, beat): docker-compose.yml has them.
CMD ["gunicorn", "arena.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3", "--worker-class", "gthread", "--threads", "32", "--access-logfile", "-"]
