"""What a fault was, in terms its bot's owner can act on, and in one sentence.

The sandbox writes a ``detail`` object into the log's ``fault`` event (REPLAY.md
allows extra keys; ``docs/replay.md`` lists these):

- every fault: ``message`` (the type of the message it faulted on) and ``turn``
  (that message's turn number, None for a ``start``);
- ``illegal``: ``reply`` (the offending line, cut to REPLY_CHARS), ``played``
  (the card codes it tried to play), ``legal`` (the cards the message allowed)
  and ``why`` when the sandbox refused the line itself (not JSON, too long,
  unasked for);
- ``timeout``: ``took_ms``, ``time_ms`` (the reply's allowance) and ``bank_ms``
  (what was left of the bank); for a person's seat (sandbox.human) ``person``
  instead, what became of them ("left the table", "stopped answering", ...);
- ``crash``: ``exit_code`` or ``signal`` when the process ended of its own
  accord, and ``stderr``, its last STDERR_LINES lines;
- ``limit``: ``limit``, which one ("memory", "output", "processes", "cpu time",
  "file size").

``reply`` and ``stderr`` show the bot's own output (its code, its notes): only
its owner may see them (PRIVATE_KEYS).

>>> fault_sentence("illegal", {"message": "turn", "turn": 13, "played": ["QS"],
...                 "legal": ["KH", "KS"]})
'Turn 14: played QS, but the legal cards were KH, KS.'
>>> fault_sentence("timeout", {"message": "turn", "turn": 2, "took_ms": 1412.7, "time_ms": 1000,
...                 "bank_ms": 300})
'Turn 3: no reply after 1413 ms; a reply may take 1000 ms, and 300 ms were left in the bank.'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from engine.cards import CARD_OF

REPLY_CHARS = 200
STDERR_LINES = 20
PRIVATE_KEYS = ("reply", "stderr")
# The sandbox's own words for why it refused a line, as a sentence continues them.
_WHY = {
    "reply line longer than the limit": "sent a reply line longer than 64 KiB",
    "output that no message asked for": "wrote output that no message asked for",
    "reply is not JSON": "sent a reply that is not JSON",
    "reply is not a JSON object": "sent a reply that is not a JSON object",
    "reply is not UTF-8": "sent a reply that is not UTF-8",
    "reply nested too deeply": "sent a reply nested too deeply",
    "NUL character in reply": "sent a NUL character",
    "lone surrogate in reply": "sent a lone surrogate",
}
_LIMITS = {
    "memory": "used more memory than it may",
    "output": "wrote more to stdout than a game allows",
    "processes": "started more processes or threads than it may",
    "cpu time": "used more CPU time than it may",
    "file size": "wrote a file larger than it may",
}


def public_detail(detail: dict[str, Any]) -> dict[str, Any]:
    """The detail without what only the bot's owner may see.

    >>> public_detail({"turn": 3, "reply": "secret", "stderr": ["trace"], "legal": ["KH"]})
    {'turn': 3, 'legal': ['KH']}
    """
    return {key: value for key, value in detail.items() if key not in PRIVATE_KEYS}


def cut_reply(line: bytes | str) -> str:
    """A reply line as the detail keeps it: text, at most REPLY_CHARS characters.

    >>> cut_reply(b"x" * 300)[-5:], len(cut_reply(b"x" * 300))
    ('x ...', 204)
    """
    text = line if isinstance(line, str) else line.decode("utf-8", "replace")
    return text if len(text) <= REPLY_CHARS else text[:REPLY_CHARS] + " ..."


def fault_sentence(reason: str, detail: dict[str, Any] | None) -> str:
    """One sentence that says what went wrong and where, from a fault's detail
    (as much as the detail holds: a public one says less).

    >>> fault_sentence("crash", {"message": "start", "turn": None, "signal": "SIGSEGV"})
    'At the start of the game: the bot died of signal SIGSEGV.'
    >>> fault_sentence("limit", {"message": "turn", "turn": 0, "limit": "memory"})
    'Turn 1: the bot used more memory than it may (limit: memory).'
    >>> fault_sentence("illegal", None)
    'Made a reply that is not a move (play or draw).'
    """
    detail = detail or {}
    where = _where(detail)
    what = _what(reason, detail)
    return f"{where}: {what}." if where else f"{what[0].upper()}{what[1:]}."


def _where(detail: dict[str, Any]) -> str:
    message = detail.get("message")
    turn = detail.get("turn")
    if message == "start":
        return "At the start of the game"
    if isinstance(turn, int):
        # Turn numbers as people count them: the first turn is turn 1.
        prefix = "Offered a catch at turn" if message == "catch" else "Turn"
        return f"{prefix} {turn + 1}"
    return ""


def _what(reason: str, detail: dict[str, Any]) -> str:
    if reason == "illegal":
        return _illegal(detail)
    if reason == "timeout":
        return _timeout(detail)
    if reason == "crash":
        if "signal" in detail:
            return f"the bot died of signal {detail['signal']}"
        if "exit_code" in detail:
            return f"the bot exited with code {detail['exit_code']}"
        return "the bot stopped answering (it exited or closed stdout)"
    if reason == "limit":
        limit = detail.get("limit")
        if limit in _LIMITS:
            return f"the bot {_LIMITS[limit]} (limit: {limit})"
        return "the bot was stopped at a resource limit"
    return f"the bot faulted ({reason})"


def _illegal(detail: dict[str, Any]) -> str:
    why = detail.get("why")
    if isinstance(why, str) and why:
        return _WHY.get(why, why)
    message = detail.get("message")
    if message == "start":
        return "answered start with something that is not a JSON object"
    if message == "catch":
        return "answered a catch offer with neither catch nor pass"
    played = detail.get("played")
    legal = detail.get("legal")
    if isinstance(played, list) and played:
        shown = _cards(played)
        if isinstance(legal, list) and played[0] not in legal:
            if not legal:
                return f"played {shown}, but no card could be played (draw instead)"
            return f"played {shown}, but the legal cards were {_cards(legal)}"
        if len(played) == 1:
            return f"played {shown} without naming a valid suit (S, H, D or C)"
        return f"played {shown}, which is not a valid multiple play"
    reply = _parsed(detail.get("reply"))
    if reply is not None:
        return f"answered {_short(reply)}, which is not a move (play or draw)"
    return "made a reply that is not a move (play or draw)"


def played_cards(reply: Any) -> list[str]:
    """The card codes a parsed reply tried to play (none that are not card codes),
    for the public part of an illegal fault's detail.

    >>> played_cards({"action": "play", "card": "QS"}), played_cards({"action": "jump"})
    (['QS'], [])
    """
    if not isinstance(reply, dict) or reply.get("action") != "play":
        return []
    many = reply.get("cards")
    cards: list[Any] = many if isinstance(many, list) else [reply.get("card")]
    return [card for card in cards[:4] if isinstance(card, str) and card in CARD_OF]


def _timeout(detail: dict[str, Any]) -> str:
    """
    >>> _timeout({"person": "left the table"})
    'the player left the table'
    """
    if isinstance(detail.get("person"), str):
        return f"the player {detail['person']}"
    took = detail.get("took_ms")
    allowed = detail.get("time_ms")
    bank = detail.get("bank_ms")
    if isinstance(took, int | float) and isinstance(allowed, int) and isinstance(bank, int):
        return (
            f"no reply after {round(took)} ms; a reply may take {allowed} ms, and {bank} ms were"
            " left in the bank"
        )
    return "no reply in time"


def _parsed(reply: Any) -> dict[str, Any] | None:
    if not isinstance(reply, str):
        return None
    try:
        value = json.loads(reply)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _short(reply: dict[str, Any]) -> str:
    text = json.dumps(reply, ensure_ascii=False)
    return text if len(text) <= 60 else text[:60] + " ..."


def _cards(cards: Sequence[Any]) -> str:
    return ", ".join(str(card) for card in cards)
