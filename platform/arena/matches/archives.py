"""Many games' logs as one zip, each log as the requesting user may see it.

An archive is bounded (ARENA_LOG_ARCHIVE_MAX_GAMES games, ARENA_LOG_ARCHIVE_MAX_BYTES
of JSON before compression): past either bound the rest is left out and the
archive's README.txt says which games are missing and where each can be fetched.
"""

from __future__ import annotations

import json
import tempfile
import zipfile
from collections.abc import Iterable
from typing import IO, Any

from django.conf import settings
from django.db.models import Prefetch, QuerySet
from django.http import FileResponse

from .logs import log_decompress, log_without_private
from .models import Game, Match, MatchSeat
from .selectors import match_indexes_owned

# Archives up to this size are built in memory, larger ones in a temporary file.
_SPOOL_BYTES = 8 * 1024 * 1024


def archive_matches(*, matches: QuerySet[Match]) -> QuerySet[Match]:
    """The matches with what an archive reads of them: seats (bot and owner)."""
    seats = MatchSeat.objects.select_related("bot", "person").order_by("index")
    return matches.prefetch_related(Prefetch("seats", queryset=seats)).order_by("pk")


def logs_archive(*, user: Any, matches: Iterable[Match], title: str) -> IO[bytes]:
    """A zip of the games of `matches`, one `match-<id>-game-<n>.json` per game
    (other owners' stderr, debug and private fault detail removed), and a README.txt.
    The file is positioned at its start."""
    limit_games = settings.ARENA_LOG_ARCHIVE_MAX_GAMES
    limit_bytes = settings.ARENA_LOG_ARCHIVE_MAX_BYTES
    # Not a `with`: the file is the caller's to send and close (FileResponse does).
    spool = tempfile.SpooledTemporaryFile(max_size=_SPOOL_BYTES)  # noqa: SIM115
    written = 0
    count = 0
    missing: list[str] = []
    with zipfile.ZipFile(spool, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for match in matches:
            seats = list(match.seats.all())
            owned = match_indexes_owned(user=user, seats=seats)
            names = {seat.index: seat.player_name for seat in seats}
            for game in Game.objects.filter(match=match).order_by("number").iterator():
                name = f"match-{match.pk}-game-{game.number + 1}.json"
                if count >= limit_games or written >= limit_bytes:
                    missing.append(f"{name}  /games/{game.pk}/log.json")
                    continue
                log = _visible_log(game, owned=owned, names=names)
                data = json.dumps(log, indent=1).encode()
                written += len(data)
                count += 1
                archive.writestr(name, data)
        archive.writestr("README.txt", _readme(title=title, count=count, missing=missing))
    spool.seek(0)
    return spool


def archive_response(
    *, user: Any, matches: QuerySet[Match], title: str, filename: str
) -> FileResponse:
    """The archive of `matches` as a download (for the API and the pages alike)."""
    archive = logs_archive(user=user, matches=archive_matches(matches=matches), title=title)
    response = FileResponse(
        archive, as_attachment=True, filename=filename, content_type="application/zip"
    )
    response["Cache-Control"] = "private, no-store"  # it holds the user's own output
    return response


def match_archive_response(*, user: Any, match: Match) -> FileResponse:
    """The archive of one match's logs as a download."""
    return archive_response(
        user=user,
        matches=Match.objects.filter(pk=match.pk),
        title=f"Match {match.pk}",
        filename=f"match-{match.pk}-logs.zip",
    )


def _visible_log(game: Game, *, owned: set[int], names: dict[int, str]) -> dict[str, Any]:
    log = log_decompress(game.log_compressed)
    hidden = {seat for seat, index in enumerate(game.seating) if index not in owned}
    log = log_without_private(log, hidden_seats=hidden)
    if all(index in names for index in game.seating):
        log = {**log, "names": [names[index] for index in game.seating]}
    # The game number the bots were told (older logs did not keep it).
    return {**log, "game": log.get("game", game.number)}


def _readme(*, title: str, count: int, missing: list[str]) -> str:
    lines = [
        f"{title}: {count} game log{'s' if count != 1 else ''} (onecard-replay/1, docs/replay.md).",
        "Each seat's stderr, debug and the fault detail that quotes its output are included",
        "only for the bots of the account that downloaded this archive.",
        "Replay one with `onecard replay FILE`, or rerun it with your bot:",
        "`onecard rerun FILE --bot my_bot.py --seat N`.",
    ]
    if missing:
        lines += [
            "",
            f"{len(missing)} games are left out: the archive is bounded in size. Fetch them one",
            "by one from the site:",
            *missing,
        ]
    return "\n".join(lines) + "\n"
