"""The live store: the game a worker is playing, left where the site can stream it.

The worker (arena.play.live) writes, the site's event streams (arena.replays.live)
read, through Django's cache alias "live": Redis in production and CI, files under
var/live/ for `make run` (docs/live.md says why). Entries are whole values, written
again as the game grows, never appended to: a reader that misses a write loses
nothing, a writer that dies leaves at most a stale entry that expires.

Keys:
- `match:<id>`: {"game": the game being played, "played": the sandbox is done,
  "at": when it was written};
- `match:<id>:game:<n>`: {"seating", "log": the log so far (a finished game's log
  in full), "marks": [[time, events published by then], ...], "over"};
- `watched:<id>`: someone follows the match (a stream sets it every few seconds);
  the worker publishes the games of a match nobody follows not at all;
- `pulse`: when a match last started or ended, for the pages that list them;
- a table's person (arena.play.tables asks, the site answers): `table:<id>:question`
  {"number", "message", "deadline"} while the person is asked something (absent
  otherwise), `table:<id>:answer:<number>` the reply to it, `table:<id>:seen`
  when the person's page was last open, `table:<id>:left` once they left.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.cache import caches

# Long enough for a spectator's stream to find the games of a match it follows.
KEEP_SECONDS = 1800
# A stream says it is watching every WATCHING_EVERY seconds; the mark lasts longer.
WATCHING_EVERY = 2.0
WATCHING_SECONDS = 10


def _store() -> Any:
    return caches["live"]


def _match_key(match_id: int) -> str:
    return f"match:{match_id}"


def _game_key(match_id: int, game: int) -> str:
    return f"match:{match_id}:game:{game}"


def live_game_publish(
    *,
    match_id: int,
    game: int,
    seating: list[int],
    log: dict[str, Any],
    marks: list[list[float]],
    over: bool,
) -> None:
    """Write the game `game` of a match as it stands, and make it the current one.
    Raises whatever the store raises: callers on the worker swallow it."""
    now = time.time()
    _store().set_many(
        {
            _game_key(match_id, game): {
                "seating": seating,
                "log": log,
                "marks": marks,
                "over": over,
            },
            _match_key(match_id): {"game": game, "played": False, "at": now},
        },
        KEEP_SECONDS,
    )


def live_match_played(*, match_id: int, games: int) -> None:
    """The sandbox has played the match's last game; its result is being written."""
    _store().set(
        _match_key(match_id),
        {"game": max(0, games - 1), "played": True, "at": time.time()},
        KEEP_SECONDS,
    )


def live_match_get(*, match_id: int) -> dict[str, Any] | None:
    """What `live_match_played`/`live_game_publish` last wrote of the match, or None."""
    value: dict[str, Any] | None = _store().get(_match_key(match_id))
    return value


def live_game_get(*, match_id: int, game: int) -> dict[str, Any] | None:
    value: dict[str, Any] | None = _store().get(_game_key(match_id, game))
    return value


def live_pulse_touch() -> None:
    """Say that the list of running matches or results has changed."""
    _store().set("pulse", time.time(), KEEP_SECONDS)


def live_pulse_get() -> float:
    value = _store().get("pulse")
    return float(value) if isinstance(value, int | float) else 0.0


def live_watching_touch(*, match_id: int) -> None:
    """A stream follows the match: the worker should publish its games."""
    _store().set(f"watched:{match_id}", True, WATCHING_SECONDS)


def live_watched(*, match_id: int) -> bool:
    return bool(_store().get(f"watched:{match_id}"))


# -- a person at a table ---------------------------------------------------------------


def table_question_set(*, match_id: int, question: dict[str, Any] | None) -> None:
    """What the person is asked now ({"number", "message", "deadline"}), or None."""
    key = f"table:{match_id}:question"
    if question is None:
        _store().delete(key)
    else:
        _store().set(key, question, KEEP_SECONDS)


def table_question_get(*, match_id: int) -> dict[str, Any] | None:
    value: dict[str, Any] | None = _store().get(f"table:{match_id}:question")
    return value


def table_answer_set(*, match_id: int, number: int, reply: dict[str, Any]) -> None:
    _store().set(f"table:{match_id}:answer:{number}", reply, KEEP_SECONDS)


def table_answer_take(*, match_id: int, number: int) -> dict[str, Any] | None:
    """The reply to question `number`, once (it is removed)."""
    key = f"table:{match_id}:answer:{number}"
    value: dict[str, Any] | None = _store().get(key)
    if value is not None:
        _store().delete(key)
    return value


def table_seen_touch(*, match_id: int) -> None:
    """The person's page is open (its stream says so every few seconds)."""
    _store().set(f"table:{match_id}:seen", time.time(), KEEP_SECONDS)


def table_seen_at(*, match_id: int) -> float | None:
    value = _store().get(f"table:{match_id}:seen")
    return float(value) if isinstance(value, int | float) else None


def table_leave(*, match_id: int) -> None:
    _store().set(f"table:{match_id}:left", True, KEEP_SECONDS)


def table_left(*, match_id: int) -> bool:
    return bool(_store().get(f"table:{match_id}:left"))
