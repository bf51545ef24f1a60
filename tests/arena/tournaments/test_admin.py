"""Admin pages of ratings and tournaments open for staff; the start action works."""

import pytest

from arena.matches.models import Match
from arena.ratings.models import Rating, RatingChange
from arena.tournaments.models import Tournament
from arena.tournaments.services import tournament_create
from tests.arena.factories import rate_game
from tests.arena.ratings.factories import (
    ActiveBotVersionFactory,
    CompetitionFactory,
    StaffFactory,
    finished_match,
)

pytestmark = pytest.mark.django_db


def test_admin_pages_render_and_ratings_are_read_only(client):
    staff = StaffFactory()
    client.force_login(staff)
    versions = [ActiveBotVersionFactory() for _ in range(2)]
    match = finished_match(versions=versions, game_ranks=[[1, 2]], competition=CompetitionFactory())
    rate_game(match.games.get())
    tournament = tournament_create(
        user=staff,
        name="Admin cup",
        format="round_robin",
        ruleset="korean",
        seats=2,
        games_per_match=2,
        bots=[v.bot for v in versions],
    )
    rating, change = Rating.objects.first(), RatingChange.objects.first()
    pages = [
        "/admin/ratings/rating/",
        f"/admin/ratings/rating/{rating.pk}/change/",
        "/admin/ratings/ratingchange/",
        f"/admin/ratings/ratingchange/{change.pk}/change/",
        "/admin/tournaments/tournament/",
        f"/admin/tournaments/tournament/{tournament.pk}/change/",
        "/admin/tournaments/tournament/add/",
        "/admin/tournaments/tournamententry/",
    ]
    for page in pages:
        assert client.get(page).status_code == 200, page
    assert client.get("/admin/ratings/rating/add/").status_code == 403
    response = client.post(f"/admin/ratings/rating/{rating.pk}/change/", {"elo": 9000, "games": 1})
    assert response.status_code == 403
    rating.refresh_from_db()
    assert rating.elo != 9000


def test_the_start_action_creates_the_schedule(client):
    staff = StaffFactory()
    client.force_login(staff)
    versions = [ActiveBotVersionFactory() for _ in range(3)]
    tournament = tournament_create(
        user=staff,
        name="Admin start",
        format="round_robin",
        ruleset=None,
        seats=2,
        games_per_match=2,
        bots=[v.bot for v in versions],
    )
    response = client.post(
        "/admin/tournaments/tournament/",
        {"action": "start", "_selected_action": [tournament.pk]},
        follow=True,
    )
    assert response.status_code == 200
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.RUNNING
    assert Match.objects.filter(tournament=tournament).count() == 3
