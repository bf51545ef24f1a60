"""Every admin page of the core apps opens for staff (and shows no code link)."""

from __future__ import annotations

import pytest

from tests.arena.factories import GameFactory, StaffFactory, match_with_seats

pytestmark = pytest.mark.django_db


def test_admin_pages_render(client):
    client.force_login(StaffFactory())
    match = match_with_seats()
    game = GameFactory(match=match)
    version = match.seats.first().bot_version
    pages = [
        "/admin/bots/bot/",
        f"/admin/bots/bot/{version.bot_id}/change/",
        "/admin/bots/botversion/",
        f"/admin/bots/botversion/{version.pk}/change/",
        "/admin/matches/competition/",
        "/admin/matches/competition/add/",
        "/admin/matches/match/",
        f"/admin/matches/match/{match.pk}/change/",
        "/admin/matches/game/",
        f"/admin/matches/game/{game.pk}/change/",
    ]
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200, page
    detail = client.get(f"/admin/bots/botversion/{version.pk}/change/").content.decode()
    assert version.code.name in detail
    assert "/media/" not in detail
