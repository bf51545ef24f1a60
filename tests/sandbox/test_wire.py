"""The reply parser against hostile bytes: every bad reply is `illegal`, nothing raises else."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import BotFault
from sandbox.wire import MAX_DEPTH, encode_message, parse_reply


@pytest.mark.parametrize(
    "line",
    [
        b"[" * 30000 + b"]" * 30000,
        b'{"a":' * (MAX_DEPTH + 1) + b"1" + b"}" * (MAX_DEPTH + 1),
        b'{"n": ' + b"9" * 5000 + b"}",
        b'{"n": NaN}',
        b'{"n": -Infinity}',
        b'{"n": 1e999}',
        b'{"debug": "\xff\xfe"}',
        b'{"debug": "\\u0000"}',
        b'{"debug": "\\udc80"}',
        b'{"\\ud800": 1}',
        b"draw",
        b"",
        b"[]",
        b'"draw"',
        b"null",
        b'{"action": "draw"} {"action": "draw"}',
    ],
)
def test_hostile_reply_is_illegal(line: bytes) -> None:
    with pytest.raises(BotFault) as fault:
        parse_reply(line)
    assert fault.value.reason == "illegal"


def test_nesting_up_to_the_limit_is_fine() -> None:
    line = b'{"a":' * (MAX_DEPTH - 1) + b"1" + b"}" * (MAX_DEPTH - 1)
    assert parse_reply(line)["a"]


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    assert parse_reply(b'{"debug": "' + b"[{" * 100 + b'\\""}')["debug"].startswith("[{")


def test_an_ordinary_reply_parses() -> None:
    reply = {"action": "play", "card": "7H", "suit": "S", "call": True, "debug": "é"}
    assert parse_reply(json.dumps(reply).encode()) == reply


@given(st.binary(max_size=300))
def test_no_bytes_raise_anything_but_illegal(line: bytes) -> None:
    reason = None
    try:
        reply = parse_reply(line)
    except BotFault as fault:
        reason = fault.reason
    else:
        assert isinstance(reply, dict)
    assert reason in (None, "illegal")


def test_messages_are_one_compact_line() -> None:
    line = encode_message({"type": "turn", "hand": ["7H"], "note": "é"})
    assert line.endswith(b"\n")
    assert line.count(b"\n") == 1
    assert json.loads(line) == {"type": "turn", "hand": ["7H"], "note": "é"}
