"""Faults in sentences, in the browser: the match page and the version page say what
went wrong, and their links open the replay at the fault, which says it again."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from arena.bots.services import bot_version_upload
from arena.play.qualification import bot_version_qualify
from tests.arena.factories import UserFactory
from tests.arena.web.test_fault_notes import KINDS, faulted_match
from tests.sandbox.harness import HOSTILE

pytestmark = pytest.mark.browser


def log_in(page, site_url: str, user) -> None:
    page.goto(site_url + reverse("web:login"))
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill("correct-horse-battery")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"/my/bots/"))


def opens_at_the_fault(page, sentence: str) -> None:
    """The replay shows the frame after the fault event, and tells it in the sentence."""
    frame = page.evaluate("location.hash.match(/frame=(\\d+)/)[1]")
    page.wait_for_function(f"document.getElementById('table').dataset.frame === '{frame}'")
    current = page.locator('#events li[aria-current="step"]')
    assert sentence in current.inner_text()
    assert current.locator(".ev-fault").count() == 1


@pytest.mark.parametrize("kind", ["illegal", "crash"])
def test_the_match_page_links_each_fault_to_its_moment(kind, site_url, page):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    match = faulted_match(alice, bob, HOSTILE / KINDS[kind][0])
    sentence = match.games.get().faults[0]["owner_sentence"]
    log_in(page, site_url, alice)
    page.goto(site_url + reverse("web:match-detail", args=[match.pk]))
    note = page.locator(".fault-note")
    assert sentence in note.inner_text()
    note.locator("a", has_text="See it in the replay").click()
    opens_at_the_fault(page, sentence)


def test_the_version_page_links_a_failed_qualification_to_its_moment(site_url, page):
    owner = UserFactory(username="carol")
    version = bot_version_upload(
        user=owner,
        name="illegal",
        upload=SimpleUploadedFile("bot.py", (HOSTILE / "illegal_card.py").read_bytes()),
    )
    bot_version_qualify(version_id=version.pk, seed=5)
    version.refresh_from_db()
    note = next(n for g in version.qualification["games"] for n in g["fault_notes"])
    log_in(page, site_url, owner)
    page.goto(site_url + reverse("web:version-detail", args=[version.pk]))
    assert note["sentence"] in page.locator("#qualification").inner_text()
    page.locator(".fault-note a", has_text="See it in the replay").first.click()
    opens_at_the_fault(page, note["sentence"])
