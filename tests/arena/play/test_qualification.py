"""Qualification: a short sandboxed match against the random bot decides a version."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from arena.bots.models import BotVersion
from arena.bots.services import (
    QUALIFICATION_MAX_ATTEMPTS,
    bot_version_qualification_start,
    bot_version_upload,
)
from arena.play.qualification import bot_version_qualify
from arena.settings.env import REPO_ROOT
from sandbox.errors import InfrastructureError
from tests.arena.factories import (
    DRAW_BOT_SOURCE,
    ActiveBotVersionFactory,
    BotVersionFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

CRASHING_BOT = b"""import sys
print("about to fail", file=sys.stderr, flush=True)
raise SystemExit("I give up")
"""


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
    user = UserFactory()
    old = ActiveBotVersionFactory(bot__owner=user, bot__name="greedy-copy")
    version = upload(user, "greedy-copy", source)
    assert version.number == 2

    bot_version_qualify(version_id=version.pk)

    version.refresh_from_db()
    old.refresh_from_db()
    assert version.status == BotVersion.Status.ACTIVE, version.qualification
    assert version.qualified_at is not None
    assert version.qualification["faults"] == []
    assert old.status == BotVersion.Status.RETIRED


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
