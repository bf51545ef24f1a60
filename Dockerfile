# The platform image: the Django site (gunicorn + whitenoise), Celery workers and
# Celery beat all run from it, with different commands (see docker-compose.yml).
# It builds without a container registry, from the Debian base that
# sandbox/runtime/build_offline.sh bootstraps for the bot image
# (onecard-bot-base:bookworm, Debian's python3 3.11): apt and PyPI are the only
# sources. Build from the repository root:  docker build -t onecard-arena:latest .
ARG BASE=onecard-bot-base:bookworm

# The dependency list alone, read from pyproject.toml: the layer that installs it is
# keyed on this file's content, so editing the rest of pyproject.toml (tool settings)
# reuses the installed dependencies.
FROM ${BASE} AS requirements
COPY pyproject.toml /pyproject.toml
RUN python3 -c 'import tomllib; print("\n".join(tomllib.load(open("/pyproject.toml", "rb"))["project"]["dependencies"]))' \
        > /requirements.txt

FROM ${BASE}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PATH=/opt/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    DJANGO_SETTINGS_MODULE=arena.settings.production \
    ARENA_VAR_DIR=/var/lib/arena \
    PYTHONPATH=/app:/app/platform

# A virtualenv, because Debian's own Python refuses pip installs (PEP 668).
RUN apt-get update -qq \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/* \
    && python3 -m venv /opt/venv

# The dependencies before the code, so that a code change reuses this layer.
# EXTRA_CA_CERTS (PEM) is for a build behind a TLS-intercepting proxy: those
# certificates are trusted beside pip's own for this step and not kept.
ARG EXTRA_CA_CERTS=""
COPY --from=requirements /requirements.txt /tmp/requirements.txt
RUN set -eu; \
    if [ -n "$EXTRA_CA_CERTS" ]; then \
        bundle=/tmp/ca.pem; \
        cat "$(python -c 'import pip._vendor.certifi as c; print(c.where())')" > "$bundle"; \
        printf '%s\n' "$EXTRA_CA_CERTS" >> "$bundle"; \
        export PIP_CERT="$bundle"; \
    fi; \
    pip install --quiet -r /tmp/requirements.txt; \
    rm -f /tmp/ca.pem /tmp/requirements.txt

# The code runs from /app as in a checkout (PYTHONPATH, not an install into
# site-packages), so that the settings find bots_examples/ beside it.
WORKDIR /app
COPY manage.py ./
COPY engine engine
COPY sandbox sandbox
COPY bots_examples bots_examples
# The local runner: the starter kit (/starter-kit.zip) is zipped from these folders.
COPY onecard onecard
COPY platform platform
COPY deploy/gunicorn.conf.py ./
# collectstatic needs settings that import cleanly: a throwaway key at build time.
RUN useradd --system --uid 10001 --home-dir /var/lib/arena arena \
    && DJANGO_SECRET_KEY=build-only-key-build-only-key-build-only-key-build-only \
       python manage.py collectstatic --noinput -v0 \
    && chown -R arena:arena /var/lib/arena

# Every service runs unprivileged. The sandbox worker reaches the host's Docker
# socket through its group (compose sets `group_add`).
USER arena
EXPOSE 8000

# Health checks differ per service (web, worker, beat): docker-compose.yml has them.
CMD ["gunicorn", "--config", "gunicorn.conf.py", "arena.wsgi"]
