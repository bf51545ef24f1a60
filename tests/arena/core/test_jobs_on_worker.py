"""Qualification and a match through a real Celery worker and the real broker."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from arena.bots.models import BotVersion
from arena.bots.services import bot_version_upload
from arena.matches.models import Match
from arena.matches.services import match_create
from arena.settings.env import REPO_ROOT
from tests.arena.factories import UserFactory, default_competition
from tests.support.worker import wait_for


@pytest.mark.slow
def test_uploads_qualify_and_play_on_a_real_worker(celery_worker_process):
    # An earlier transactional test's flush may have removed the migration's rows.
    competition = default_competition()
    user = UserFactory()
    versions = []
    for name in ("random", "greedy"):
        source = (REPO_ROOT / "bots_examples" / f"{name}_bot.py").read_bytes()
        versions.append(
            bot_version_upload(
                user=user, name=f"w-{name}", upload=SimpleUploadedFile("bot.py", source)
            )
        )
    broken = bot_version_upload(
        user=user,
        name="w-broken",
        upload=SimpleUploadedFile("bot.py", b"import sys; sys.exit(3)\n"),
    )

    def statuses():
        ids = [v.pk for v in [*versions, broken]]
        found = dict(BotVersion.objects.filter(pk__in=ids).values_list("pk", "status"))
        return [found[i] for i in ids]

    wait_for(
        lambda: all(s in ("active", "failed") for s in statuses()),
        timeout=90,
        what="qualification on the worker",
    )
    assert statuses() == ["active", "active", "failed"]

    match = match_create(
        kind=Match.Kind.LADDER,
        versions=[BotVersion.objects.get(pk=v.pk) for v in versions],
        ruleset=competition.ruleset,
        games=2,
        competition=competition,
        rated=True,
    )
    wait_for(
        lambda: Match.objects.get(pk=match.pk).state in ("done", "failed"),
        timeout=90,
        what="the match on the worker",
    )
    match.refresh_from_db()
    assert match.state == Match.State.DONE, match.error
    assert match.games.count() == 2
    assert match.worker.count(":") == 2  # host:pid:nonce of the worker that played it
