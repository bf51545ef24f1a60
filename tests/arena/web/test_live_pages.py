"""The live table's page, and the pulse that refreshes the lists of matches."""

from __future__ import annotations

import pytest
from django.urls import reverse

from arena.matches.live import live_pulse_touch
from arena.matches.models import Match
from arena.web.views import live
from tests.arena.factories import match_with_seats
from tests.support.live import live_store_clear

pytestmark = pytest.mark.django_db


def test_a_running_match_has_a_live_table_and_a_finished_one_goes_to_its_page(client):
    running = match_with_seats(state=Match.State.RUNNING)
    page = client.get(reverse("web:match-live", args=[running.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert f'data-stream="{reverse("api-match-events", args=[running.pk])}?game=0"' in html
    assert 'id="jump-live"' in html
    detail = client.get(reverse("web:match-detail", args=[running.pk])).content.decode()
    assert reverse("web:match-live", args=[running.pk]) in detail

    done = match_with_seats(state=Match.State.DONE)
    response = client.get(reverse("web:match-live", args=[done.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("web:match-detail", args=[done.pk])


def test_the_lists_of_matches_are_live_regions(client):
    html = client.get(reverse("web:home")).content.decode()
    for region in ("home-leaders", "home-live", "home-recent"):
        assert f'id="{region}" data-live-region' in html
    assert "live_regions.js" in html
    assert (
        'id="leaderboard-rows" data-live-region'
        in client.get(reverse("web:leaderboard")).content.decode()
    )


def test_the_pulse_says_changed_when_a_match_starts_or_ends(monkeypatch):
    live_store_clear()
    monkeypatch.setattr(live, "PULSE_POLL_SECONDS", 0.01)
    monkeypatch.setattr(live, "PULSE_MIN_GAP_SECONDS", 0)
    stream = live._pulse_events(seconds=5)
    assert next(stream).startswith("retry:")
    live_pulse_touch()
    assert next(stream).startswith("event: changed")
    stream.close()
