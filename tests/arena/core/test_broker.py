"""The Redis broker transport keeps one Redis client per channel (arena.core.broker)."""

import pytest
from django.conf import settings
from kombu import Connection

from arena.celery import app
from arena.core.broker import Transport


def redis_url() -> str:
    if not settings.CELERY_BROKER_URL.startswith("redis://"):
        pytest.skip("needs Redis as the broker: set CELERY_BROKER_URL=redis://... (CI does)")
    return settings.CELERY_BROKER_URL


def test_a_redis_broker_url_selects_the_transport():
    redis_url()
    with app.connection_for_write() as connection:
        assert isinstance(connection.transport, Transport)


def test_the_channel_hands_out_one_client_until_its_pool_changes():
    with Connection(redis_url(), transport="arena.core.broker:Transport") as connection:
        channel = connection.channel()
        with channel.conn_or_acquire() as first, channel.conn_or_acquire() as second:
            assert first is second
            assert first.ping()
        given = object()
        with channel.conn_or_acquire(given) as passed:
            assert passed is given
        channel._disconnect_pools()  # as kombu does after a connection error
        with channel.conn_or_acquire() as after:
            assert after is not first
            assert after.connection_pool is channel.pool
            assert after.ping()
        channel.close()


def test_messages_go_through_and_are_acknowledged():
    """A message published, received and acknowledged through the shared client
    (the unacknowledged-message bookkeeping uses it) leaves nothing behind."""
    with Connection(redis_url(), transport="arena.core.broker:Transport") as connection:
        queue = connection.SimpleQueue("arena-test-broker-transport")
        try:
            queue.clear()
            for number in range(3):
                queue.put({"n": number})
            received = [queue.get(timeout=5) for _ in range(3)]
            for message in received:
                message.ack()
            assert [message.payload["n"] for message in received] == [0, 1, 2]
            with queue.channel.conn_or_acquire() as client:
                left = client.hmget(
                    queue.channel.unacked_key, [message.delivery_tag for message in received]
                )
                assert left == [None, None, None]
        finally:
            queue.clear()
            queue.close()
