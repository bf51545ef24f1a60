"""The bytes on the wire: encoding messages and judging hostile replies.

A reply is untrusted input. Anything that is not one line of a sane JSON object
becomes ``BotFault("illegal")`` here, never an exception inside the engine: deep
nesting, integers too long to convert, NaN and Infinity, invalid UTF-8, NUL
characters and lone surrogates (PostgreSQL's jsonb refuses both, so a reply that
carries them could break storing the log of every player of the game).
"""

from __future__ import annotations

import json
import json.scanner
from collections.abc import Callable
from typing import Any

from engine.errors import BotFault

# Replies are shallow ({"action": "play", "card": "7C"}); anything nested deeper
# than this is an attack on the parser or on whoever reads the log later.
MAX_DEPTH = 16

_encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def encode_message(message: dict[str, Any]) -> bytes:
    """One message as one UTF-8 JSON line.

    >>> encode_message({"type": "end", "seat": 0})
    b'{"type":"end","seat":0}\\n'
    """
    return (_encoder.encode(message) + "\n").encode("utf-8")


def _reject_constant(name: str) -> Any:
    raise BotFault("illegal", f"{name} is not JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise BotFault("illegal", "number out of range")
    return value


_decoder = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite_float)
# The decoder's own scanner, called directly: `JSONDecoder.decode` adds two regular
# expression matches for the whitespace around the value, which cost as much as the
# scan of a whole reply.
# (typeshed declares make_scanner's argument as the scanner class itself, hence the ignore.)
_scan: Callable[[str, int], tuple[Any, int]] = json.scanner.make_scanner(_decoder)  # type: ignore[arg-type]
_JSON_WHITESPACE = " \t\n\r"


def _check_depth_prefix(text: str) -> None:
    """Refuse deep nesting before json sees it (its C parser recurses)."""
    depth = 0
    in_string = False
    escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise BotFault("illegal", "reply nested too deeply")
        elif char in "]}":
            depth -= 1


def _check_strings(value: Any) -> None:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise BotFault("illegal", "NUL character in reply")
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise BotFault("illegal", "lone surrogate in reply") from None
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def parse_reply(line: bytes) -> dict[str, Any]:
    """One reply line (without its newline) as a dict, or ``BotFault("illegal")``.

    >>> parse_reply(b'{"action": "draw"}')
    {'action': 'draw'}
    >>> parse_reply(b'[1, 2]')
    Traceback (most recent call last):
    ...
    engine.errors.BotFault: illegal: reply is not a JSON object
    """
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise BotFault("illegal", "reply is not UTF-8") from None
    if text.count("[") + text.count("{") > MAX_DEPTH:  # only then can it nest too deep
        _check_depth_prefix(text)
    text = text.strip(_JSON_WHITESPACE)
    try:
        value, end = _scan(text, 0)
    except BotFault:
        raise
    except (ValueError, RecursionError, StopIteration):
        # ValueError covers JSONDecodeError and ints beyond the digit limit;
        # StopIteration is the scanner's "no JSON value here".
        raise BotFault("illegal", "reply is not JSON") from None
    if end != len(text):
        raise BotFault("illegal", "reply is not JSON")
    if not isinstance(value, dict):
        raise BotFault("illegal", "reply is not a JSON object")
    # Strictly decoded UTF-8 holds no surrogates, and JSON refuses a raw NUL in a
    # string: only a \u escape can smuggle either in.
    if "\\u" in text:
        _check_strings(value)
    return value
