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


def test_admin_actions_go_through_the_services(client):
    from arena.bots.models import BotVersion
    from tests.arena.factories import ActiveBotVersionFactory, BotVersionFactory

    client.force_login(StaffFactory())
    active = ActiveBotVersionFactory()
    older = ActiveBotVersionFactory(bot=active.bot, status=BotVersion.Status.RETIRED)
    failed = BotVersionFactory(status=BotVersion.Status.FAILED)
    response = client.post(
        "/admin/bots/botversion/",
        {"action": "activate", "_selected_action": [older.pk, failed.pk]},
        follow=True,
    )
    assert response.status_code == 200
    active.refresh_from_db()
    older.refresh_from_db()
    failed.refresh_from_db()
    assert (older.status, active.status) == ("active", "retired")
    assert failed.status == "failed"
    assert "passed qualification" in response.content.decode()
