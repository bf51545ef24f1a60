"""The worker process's one lease-keeping thread (arena.play.heartbeat)."""

from __future__ import annotations

import threading
import time

from arena.play.heartbeat import LeaseKeeper


class Renewals:
    """A fake `renew(match_id=..., token=...)` that records its calls."""

    def __init__(self, *, held: bool = True, error: bool = False) -> None:
        self.calls: list[tuple[int, str]] = []
        self.held = held
        self.error = error
        self.lock = threading.Lock()

    def __call__(self, *, match_id: int, token: str) -> bool:
        with self.lock:
            self.calls.append((match_id, token))
        if self.error:
            raise RuntimeError("database away")
        return self.held

    def count(self, match_id: int) -> int:
        with self.lock:
            return sum(1 for called, _ in self.calls if called == match_id)


def wait_for(predicate, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.005)
    return False


def test_held_leases_are_renewed_each_period_until_released():
    renewals = Renewals()
    keeper = LeaseKeeper(renewals)
    keeper.hold(match_id=1, token="a", every_seconds=0.02)
    keeper.hold(match_id=2, token="b", every_seconds=0.02)
    assert wait_for(lambda: renewals.count(1) >= 3 and renewals.count(2) >= 3)
    keeper.release(match_id=1, token="a")
    before = renewals.count(1)
    assert wait_for(lambda: renewals.count(2) >= 8)
    assert renewals.count(1) <= before + 1  # at most one renewal already under way


def test_a_lost_lease_is_not_renewed_again():
    renewals = Renewals(held=False)
    keeper = LeaseKeeper(renewals)
    keeper.hold(match_id=7, token="a", every_seconds=0.01)
    assert wait_for(lambda: renewals.count(7) == 1)
    time.sleep(0.1)
    assert renewals.count(7) == 1


def test_a_failing_renewal_waits_a_period_before_trying_again():
    renewals = Renewals(error=True)
    keeper = LeaseKeeper(renewals)
    started = time.monotonic()
    keeper.hold(match_id=3, token="a", every_seconds=0.05)
    assert wait_for(lambda: renewals.count(3) >= 2)
    time.sleep(0.1)
    keeper.release(match_id=3, token="a")
    periods = (time.monotonic() - started) / 0.05
    # One try per period: a retry loop without the wait would have made thousands.
    assert renewals.count(3) <= periods + 2


def test_release_by_an_earlier_claim_leaves_the_new_lease_alone():
    renewals = Renewals()
    keeper = LeaseKeeper(renewals)
    keeper.hold(match_id=5, token="new", every_seconds=0.02)
    keeper.release(match_id=5, token="old")
    assert wait_for(lambda: renewals.count(5) >= 2)


def test_a_lease_due_sooner_wakes_the_sleeping_thread():
    renewals = Renewals()
    keeper = LeaseKeeper(renewals)
    keeper.hold(match_id=1, token="slow", every_seconds=3600)
    time.sleep(0.05)  # the thread now sleeps for an hour
    keeper.hold(match_id=2, token="fast", every_seconds=0.02)
    assert wait_for(lambda: renewals.count(2) >= 2, timeout=2)
