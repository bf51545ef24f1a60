"""Qualification: a short plan of sandboxed matches against the random bot decides a version."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from arena.bots.models import BotVersion
from arena.bots.services import (
    QUALIFICATION_MAX_ATTEMPTS,
    bot_version_qualification_start,
    bot_version_upload,
)
from arena.matches.selectors import default_competition
from arena.play.qualification import (
    ATTACK,
    EXIT_AT_END,
    SITUATIONS,
    TURN_LIMIT,
    TURN_LIMIT_END,
    bot_version_qualify,
)
from arena.settings.env import REPO_ROOT
from sandbox.errors import InfrastructureError
from tests.arena.factories import (
    DRAW_BOT_SOURCE,
    ActiveBotVersionFactory,
    BotVersionFactory,
    UserFactory,
)
from tests.arena.play.test_pesten_ladder import pesten_competition

pytestmark = pytest.mark.django_db

CRASHING_BOT = b"""import sys
print("about to fail", file=sys.stderr, flush=True)
raise SystemExit("I give up")
"""

HEURISTIC = (REPO_ROOT / "bots_examples" / "heuristic_bot.py").read_text()
HEURISTIC_MAIN = 'if __name__ == "__main__":\n    run(HeuristicBot())\n'


def heuristic_except(condition: str) -> bytes:
    """The example heuristic bot, except that it dies at a message where `condition`
    (an expression of `message` and `self.ruleset`) holds."""
    assert HEURISTIC.endswith(HEURISTIC_MAIN)
    hostile = f"""
class Hostile(HeuristicBot):
    def __call__(self, message):
        if {condition}:
            print("hostile: I die at this", message["type"], file=sys.stderr, flush=True)
            raise SystemExit(1)
        return super().__call__(message)


run(Hostile())
"""
    return (HEURISTIC.removesuffix(HEURISTIC_MAIN) + hostile).encode()


def qualified(source: bytes, *, seed: int, name: str = "candidate") -> BotVersion:
    version = upload(UserFactory(), name, source)
    bot_version_qualify(version_id=version.pk, seed=seed)
    version.refresh_from_db()
    return version


def upload(user, name: str, source: bytes, filename: str = "bot.py") -> BotVersion:
    return bot_version_upload(user=user, name=name, upload=SimpleUploadedFile(filename, source))


def test_upload_queues_qualification_on_commit(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        version = upload(UserFactory(), "draws", b"x = 1\n")
    assert version.status == BotVersion.Status.PENDING
    assert version.number == 1
    assert len(callbacks) == 1


def test_good_bot_qualifies_and_becomes_active():
    source = (REPO_ROOT / "bots_examples" / "greedy_bot.py").read_bytes()
    version = upload(UserFactory(), "greedy-copy", source)

    bot_version_qualify(version_id=version.pk)

    version.refresh_from_db()
    assert version.status == BotVersion.Status.ACTIVE, version.qualification
    assert version.qualified_at is not None
    assert version.qualification["faults"] == []


def test_a_good_new_version_of_an_active_bot_goes_to_its_promotion_test():
    source = (REPO_ROOT / "bots_examples" / "greedy_bot.py").read_bytes()
    user = UserFactory()
    old = ActiveBotVersionFactory(bot__owner=user, bot__name="greedy-copy")
    version = upload(user, "greedy-copy", source)
    assert version.number == 2

    bot_version_qualify(version_id=version.pk)

    version.refresh_from_db()
    old.refresh_from_db()
    assert version.status == BotVersion.Status.TESTING, version.qualification
    assert version.qualified_at is not None
    assert old.status == BotVersion.Status.ACTIVE  # until the promotion test decides


def test_crashing_bot_fails_with_its_fault_and_stderr():
    version = upload(UserFactory(), "crasher", CRASHING_BOT)

    bot_version_qualify(version_id=version.pk)

    version.refresh_from_db()
    assert version.status == BotVersion.Status.FAILED
    assert "crash" in version.status_reason
    stderr = [line for game in version.qualification["games"] for line in game["stderr"]]
    assert any("about to fail" in line for line in stderr)


def test_zip_bot_qualifies():
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("main.py", "import strategy\n\nstrategy.main()\n")
        archive.writestr("strategy.py", (REPO_ROOT / "bots_examples" / "random_bot.py").read_text())
    version = upload(UserFactory(), "zipped", buffer.getvalue(), "bot.zip")
    bot_version_qualify(version_id=version.pk)
    version.refresh_from_db()
    assert version.status == BotVersion.Status.ACTIVE, version.qualification


def test_infrastructure_error_postpones_without_blaming(monkeypatch):
    version = upload(UserFactory(), "unlucky", b"x = 1\n")

    def no_sandbox(**kwargs):
        raise InfrastructureError("Docker engine unreachable")

    monkeypatch.setattr("arena.play.qualification.run_sandboxed_match", no_sandbox)
    with pytest.raises(InfrastructureError):
        bot_version_qualify(version_id=version.pk)
    version.refresh_from_db()
    assert version.status == BotVersion.Status.PENDING
    assert "postponed" in version.status_reason
    assert version.qualification_attempts == 0


def test_decided_versions_are_not_qualified_again():
    version = ActiveBotVersionFactory()
    assert bot_version_qualify(version_id=version.pk) is None
    assert bot_version_qualification_start(version_id=version.pk + 1000) is None


def test_a_run_that_never_finishes_fails_after_a_few_attempts():
    version = BotVersionFactory(qualification_attempts=QUALIFICATION_MAX_ATTEMPTS)
    assert bot_version_qualification_start(version_id=version.pk) is None
    version.refresh_from_db()
    assert version.status == BotVersion.Status.FAILED
    assert "did not finish" in version.status_reason


@pytest.mark.bwrap
def test_qualification_in_bubblewrap_refuses_a_bot_that_reads_host_files(settings):
    """With a real sandbox, an upload cannot see the host: reading the site's own
    settings module fails, and the bot faults."""
    from sandbox.backends.bwrap import bwrap_path

    if bwrap_path() is None:
        pytest.skip("bubblewrap is not installed (CI installs it in .ci/steps/10-bwrap.sh)")
    settings.ARENA_SANDBOX_BACKEND = "bwrap"
    settings.ARENA_ALLOW_UNSANDBOXED = False
    snoop = f"open({str(REPO_ROOT / 'platform/arena/settings/base.py')!r}).read()\n".encode()
    good = upload(
        UserFactory(), "boxed-random", (REPO_ROOT / "bots_examples/random_bot.py").read_bytes()
    )
    nosy = upload(UserFactory(), "nosy", snoop + DRAW_BOT_SOURCE)

    bot_version_qualify(version_id=good.pk)
    bot_version_qualify(version_id=nosy.pk)

    good.refresh_from_db()
    nosy.refresh_from_db()
    assert good.status == BotVersion.Status.ACTIVE, good.qualification
    assert good.qualification["backend"] == "bwrap"
    assert nosy.status == BotVersion.Status.FAILED
    stderr = "\n".join(line for game in nosy.qualification["games"] for line in game["stderr"])
    assert "FileNotFoundError" in stderr or "PermissionError" in stderr


def test_uploaded_bots_never_run_unsandboxed_unless_allowed(settings):
    settings.ARENA_SANDBOX_BACKEND = "subprocess"
    settings.ARENA_ALLOW_UNSANDBOXED = False
    version = upload(UserFactory(), "refused", b"x = 1\n")
    with pytest.raises(InfrastructureError):
        bot_version_qualify(version_id=version.pk)
    version.refresh_from_db()
    assert version.status == BotVersion.Status.PENDING


def test_stale_qualifications_are_found_again():
    from datetime import timedelta

    from django.utils import timezone

    from arena.bots.services import bot_versions_stale_for_qualification

    fresh = BotVersionFactory()
    lost = BotVersionFactory()
    dead_run = BotVersionFactory(
        status=BotVersion.Status.QUALIFYING,
        qualification_started_at=timezone.now() - timedelta(hours=1),
    )
    live_run = BotVersionFactory(
        status=BotVersion.Status.QUALIFYING, qualification_started_at=timezone.now()
    )
    BotVersion.objects.filter(pk__in=[lost.pk, dead_run.pk, live_run.pk]).update(
        created_at=timezone.now() - timedelta(hours=1)
    )
    assert bot_versions_stale_for_qualification() == [lost.pk, dead_run.pk]
    # The pending one is re-sent once per period; the dead run until it is retaken.
    assert bot_versions_stale_for_qualification() == [dead_run.pk]
    later = timezone.now() + timedelta(minutes=6)
    assert bot_versions_stale_for_qualification(now=later) == [fresh.pk, lost.pk, dead_run.pk]
    # A duplicate message for the live run is ignored; the dead run is taken again.
    assert bot_version_qualification_start(version_id=live_run.pk) is None
    assert bot_version_qualification_start(version_id=dead_run.pk) is not None


@pytest.mark.parametrize("example", ["random", "greedy", "heuristic"])
def test_the_example_bots_pass_and_the_report_shows_the_plan(example):
    source = (REPO_ROOT / "bots_examples" / f"{example}_bot.py").read_bytes()
    version = qualified(source, seed=11, name=f"my-{example}")

    report = version.qualification
    assert version.status == BotVersion.Status.ACTIVE, report
    assert report["faults"] == []
    assert report["seed"] == 11
    games = report["games"]
    assert [(game["players"], game["rules"]) for game in games[:4]] == [
        (2, ""),
        (2, ""),
        (2, f"turn limit {TURN_LIMIT}"),
        (2, f"turn limit {TURN_LIMIT}"),
    ]
    assert [game["seat"] for game in games[:4]] == [0, 1, 0, 1]
    met = report["situations"]["met"]
    assert sorted(met + report["situations"]["not_met"]) == sorted(SITUATIONS)
    assert {ATTACK, TURN_LIMIT_END} <= set(met)
    assert set(met) == {s for game in games for s in game["situations"]}


def test_a_bot_that_dies_when_attacked_fails_where_the_old_match_passed_it():
    # Seed 90: the first run, which is the whole match qualification used to play,
    # never has the random bot attack this bot, so it used to pass.
    attacked = 'message["type"] == "turn" and message["attack"]'
    version = qualified(heuristic_except(attacked), seed=90)

    games = version.qualification["games"]
    assert version.status == BotVersion.Status.FAILED
    assert [game["faults"] for game in games[:2]] == [[], []]
    assert all(ATTACK not in game["situations"] for game in games[:2])
    failed = [game for game in games if game["faults"]]
    assert failed
    assert failed[0]["faults"] == ["crash"]
    assert ATTACK in failed[0]["situations"]
    assert any("hostile: I die at this turn" in line for line in failed[0]["stderr"])
    assert "crash" in version.status_reason


@pytest.mark.parametrize(
    "condition",
    [
        pytest.param('message["type"] == "end" and message["adjudicated"]', id="at-the-end"),
        pytest.param(
            'message["type"] == "turn" and message["turn"] >= self.ruleset["turn_limit"] - 2',
            id="in-the-last-turns",
        ),
    ],
)
def test_a_bot_that_dies_at_the_turn_limit_fails(condition):
    version = qualified(heuristic_except(condition), seed=5)

    games = version.qualification["games"]
    assert version.status == BotVersion.Status.FAILED, version.qualification
    # The first run plays to the default limit (1000), which this bot never nears.
    assert [game["faults"] for game in games[:2]] == [[], []]
    failed = next(game for game in games if game["faults"])
    assert failed["rules"] == f"turn limit {TURN_LIMIT}"
    if "end" in condition:
        assert failed["faults"] == [EXIT_AT_END]
        assert TURN_LIMIT_END in failed["situations"]
        assert EXIT_AT_END in version.status_reason
    else:
        assert failed["faults"] == ["crash"]
    assert any("hostile: I die at this" in line for line in failed["stderr"])


def test_a_competition_of_more_seats_is_played_at_its_table_size():
    competition = default_competition()
    competition.seats = 4
    competition.save(update_fields=["seats"])
    source = (REPO_ROOT / "bots_examples" / "greedy_bot.py").read_bytes()
    version = qualified(source, seed=3)

    games = version.qualification["games"]
    assert version.status == BotVersion.Status.ACTIVE, version.qualification
    assert [(game["players"], game["seat"]) for game in games[2:4]] == [(4, 0), (4, 3)]


def test_a_version_qualifies_under_the_rules_of_every_ladder_it_will_play(settings):
    # The pesten ladder is on: its rules are played at its table size too.
    pesten = pesten_competition()
    source = (REPO_ROOT / "bots_examples" / "heuristic_bot.py").read_bytes()
    version = qualified(source, seed=4)

    assert version.status == BotVersion.Status.ACTIVE, version.qualification
    rules = [(game["players"], game["rules"]) for game in version.qualification["games"]]
    assert rules.count((2, f"{pesten.name} rules")) == 2


def test_a_bot_that_breaks_only_another_ladders_rules_fails():
    pesten_competition()
    # Plays korean well and dies as soon as a game is played under pesten's rules.
    hostile = heuristic_except(
        'message["type"] == "start" and message["ruleset"]["name"] == "pesten"'
    )
    version = qualified(hostile, seed=4)

    assert version.status == BotVersion.Status.FAILED
    assert "crash" in version.status_reason


def test_the_version_page_shows_each_game_table_and_situations(client):
    source = (REPO_ROOT / "bots_examples" / "random_bot.py").read_bytes()
    version = qualified(source, seed=2, name="shown")
    client.force_login(version.bot.owner)

    html = client.get(f"/my/versions/{version.pk}/").content.decode()

    report = version.qualification
    assert 'id="qualification-situations"' in html
    for situation in report["situations"]["met"]:
        assert f'<span class="badge badge--passed">{situation}</span>' in html
    rows = html.split("<tbody>")[1].split("</tbody>")[0].count("<tr>")
    assert rows == len(report["games"])
    assert "2 seats" in html
    assert f"turn limit {TURN_LIMIT}" in html
