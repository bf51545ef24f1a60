"""Emptying the live store between tests without touching anything else in Redis:
its backend's clear() would be FLUSHDB, and the store may share its Redis database
with the broker (CI) or the default cache."""

from __future__ import annotations

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache


def live_store_clear() -> None:
    store = caches["live"]
    if not isinstance(store, RedisCache):
        store.clear()  # files of its own
        return
    client = store._cache.get_client(None, write=True)
    prefix = store.make_key("", version=None).rsplit(":", 1)[0]
    keys = list(client.scan_iter(match=f"{prefix}*"))
    if keys:
        client.delete(*keys)
