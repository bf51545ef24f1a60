"""Each fault kind leaves in the log's `fault` event the detail its owner can act on,
and a sentence that says it (sandbox.faults), with hostile bots of each kind."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from sandbox.faults import fault_sentence, public_detail
from tests.sandbox.harness import FAST, HOSTILE, fault_of, play, require_backend

ROOMY = dataclasses.replace(FAST, message_ms=5000, first_start_ms=15000)

pytestmark = pytest.mark.bwrap


@pytest.fixture(autouse=True)
def _bwrap() -> None:
    require_backend("bwrap")


def fault_event(log: dict[str, Any]) -> dict[str, Any]:
    seat = log["seating"].index(0)
    (event,) = [e for e in log["events"] if e["kind"] == "fault" and e["seat"] == seat]
    return event


def test_an_illegal_card_names_the_card_and_the_legal_set() -> None:
    log = play(HOSTILE / "illegal_card.py", "bwrap").games[0]
    event = fault_event(log)
    detail = event["detail"]
    assert event["reason"] == "illegal"
    assert detail["message"] == "turn"
    assert detail["played"][0] not in detail["legal"]
    assert detail["reply"].startswith('{"action": "play"')
    sentence = fault_sentence("illegal", detail)
    where = f"Turn {detail['turn'] + 1}: played {detail['played'][0]}, but "
    if detail["legal"]:
        assert sentence == where + f"the legal cards were {', '.join(detail['legal'])}."
    else:
        assert sentence == where + "no card could be played (draw instead)."


def test_a_reply_the_sandbox_refuses_says_why_and_is_cut() -> None:
    log = play(HOSTILE / "huge_line.py", "bwrap").games[0]
    detail = fault_event(log)["detail"]
    assert detail["why"] == "reply line longer than the limit"
    assert "longer than 64 KiB" in fault_sentence("illegal", detail)
    log = play(HOSTILE / "non_json.py", "bwrap").games[0]
    detail = fault_event(log)["detail"]
    assert len(detail["reply"]) <= 204
    assert "not JSON" in fault_sentence("illegal", detail)


def test_a_timeout_gives_the_time_taken_against_the_allowance_and_the_bank() -> None:
    log = play(HOSTILE / "infinite_loop.py", "bwrap").games[0]
    detail = fault_event(log)["detail"]
    assert detail["time_ms"] == FAST.message_ms
    assert detail["bank_ms"] == FAST.bank_ms
    assert detail["took_ms"] >= FAST.message_ms + FAST.bank_ms
    assert f"a reply may take {FAST.message_ms} ms" in fault_sentence("timeout", detail)


def test_a_crash_gives_the_exit_status_and_the_last_stderr_lines() -> None:
    log = play(HOSTILE / "raises.py", "bwrap").games[0]
    detail = fault_event(log)["detail"]
    assert detail["exit_code"] == 1
    assert detail["stderr"][-1] == "RuntimeError: this bot gives up"
    assert "exited with code 1" in fault_sentence("crash", detail)
    assert "stderr" not in public_detail(detail)
    log = play(HOSTILE / "segfault.py", "bwrap").games[0]
    detail = fault_event(log)["detail"]
    assert detail["signal"] == "SIGSEGV"
    assert "died of signal SIGSEGV" in fault_sentence("crash", detail)


@pytest.mark.parametrize(
    ("bot", "limit", "limits"),
    [("stdout_flood.py", "output", FAST), ("memory_bomb.py", "memory", ROOMY)],
)
def test_a_limit_says_which(bot: str, limit: str, limits: Any, tmp_path: Path) -> None:
    log = play(HOSTILE / bot, "bwrap", limits=limits).games[0]
    assert fault_of(log) == "limit"
    detail = fault_event(log)["detail"]
    assert detail["limit"] == limit
    assert f"(limit: {limit})" in fault_sentence("limit", detail)


def test_the_time_fields_sent_are_logged_as_runs() -> None:
    result = play(HOSTILE / "illegal_card.py", "bwrap", games=2)
    for log in result.games:
        sound = log["seating"].index(1)
        clock = log["timing"][sound]["clock"]
        assert clock[0][1:] == [FAST.first_start_ms if log is result.games[0] else 300, 300]
        assert all(count > 0 for count, _, _ in clock)
