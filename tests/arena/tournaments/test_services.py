"""Creating, starting and finishing tournaments."""

import pytest
from django.core.exceptions import ValidationError

from arena.bots.models import BotVersion
from arena.matches.models import Match
from arena.tournaments.models import Tournament, TournamentEntry
from arena.tournaments.selectors import tournament_progress, tournament_standings
from arena.tournaments.services import tournament_create, tournament_start
from tests.arena.ratings.factories import (
    ActiveBotVersionFactory,
    BotFactory,
    StaffFactory,
    UserFactory,
)

from .helpers import fail_match, record_match, strongest_wins

pytestmark = pytest.mark.django_db


def bots_of(user, count):
    return [ActiveBotVersionFactory(bot=BotFactory(owner=user)).bot for _ in range(count)]


def create(user, bots, **overrides):
    fields = {
        "name": "Cup",
        "format": "round_robin",
        "ruleset": "korean",
        "seats": 2,
        "games_per_match": 2,
        "bots": bots,
    }
    fields.update(overrides)
    return tournament_create(user=user, **fields)


def test_create_freezes_active_versions_and_queues_the_start(django_capture_on_commit_callbacks):
    user = UserFactory()
    bots = bots_of(user, 3)
    with django_capture_on_commit_callbacks() as callbacks:
        tournament = create(user, bots)
    assert len(callbacks) == 1
    assert tournament.state == Tournament.State.PENDING
    assert tournament.ruleset["name"] == "korean"
    assert "attack_values" in tournament.ruleset  # every option spelled out
    entries = TournamentEntry.objects.filter(tournament=tournament)
    assert {(e.bot_id, e.bot_version.status) for e in entries} == {
        (b.pk, BotVersion.Status.ACTIVE) for b in bots
    }
    assert tournament_progress(tournament=tournament) == (0, 3)


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"name": "  "}, "name"),
        ({"format": "swiss"}, "format"),
        ({"seats": 3}, "format"),
        ({"format": "balanced"}, "format"),
        ({"seats": 9}, "seats"),
        ({"games_per_match": 3}, "games_per_match"),
        ({"games_per_match": 0}, "games_per_match"),
        ({"rounds": 0}, "rounds"),
        ({"rounds": 11}, "rounds"),
        ({"ruleset": {"name": "korean", "turn_limit": "lots"}}, "ruleset"),
        ({"ruleset": "no-such-preset"}, "ruleset"),
    ],
)
def test_bad_settings_are_refused_by_field_and_create_nothing(overrides, field):
    user = UserFactory()
    with pytest.raises(ValidationError) as raised:
        create(user, bots_of(user, 3), **overrides)
    assert field in raised.value.message_dict
    assert not Tournament.objects.exists()


def test_the_field_is_checked():
    user = UserFactory()
    bots = bots_of(user, 3)
    for bad, message in [
        ([bots[0]], "At least 2"),
        ([bots[0], bots[0]], "only once"),
    ]:
        with pytest.raises(ValidationError, match=message):
            create(user, bad)
    with pytest.raises(ValidationError, match="At least 4"):
        create(user, bots, format="balanced", seats=4, games_per_match=4)
    pending = BotFactory(owner=user)
    with pytest.raises(ValidationError, match=f"No active version: {pending.name}"):
        create(user, [*bots, pending])
    assert not Tournament.objects.exists()


def test_too_big_a_schedule_is_refused():
    staff = StaffFactory()
    with pytest.raises(ValidationError, match="at most 20000"):
        create(staff, bots_of(staff, 32), games_per_match=200, rounds=2)


def test_only_ones_own_bots_unless_staff():
    owner, stranger = UserFactory(), UserFactory()
    bots = bots_of(owner, 2)
    with pytest.raises(ValidationError, match="only enter your own bots"):
        create(stranger, [*bots, *bots_of(stranger, 1)])
    assert create(StaffFactory(), bots).entries.count() == 2


def test_start_creates_the_schedule_once_with_frozen_versions():
    user = UserFactory()
    bots = bots_of(user, 4)
    tournament = create(user, bots, rounds=2)
    frozen = {e.bot_id: e.bot_version_id for e in tournament.entries.all()}
    # A new upload after entry does not change what plays.
    old = BotVersion.objects.get(bot=bots[0], status=BotVersion.Status.ACTIVE)
    old.status = BotVersion.Status.RETIRED
    old.save()
    ActiveBotVersionFactory(bot=bots[0])
    tournament_start(tournament_id=tournament.pk)
    tournament_start(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.RUNNING
    matches = Match.objects.filter(tournament=tournament)
    assert matches.count() == 12
    assert set(matches.values_list("kind", "rated", "games_planned", "competition")) == {
        ("tournament", False, 2, None)
    }
    assert len(set(matches.values_list("seed", flat=True))) == 12
    for match in matches:
        for seat in match.seats.all():
            assert seat.bot_version_id == frozen[seat.bot_id]
    assert tournament_progress(tournament=tournament) == (0, 12)


def test_a_tournament_ends_done_when_every_match_has_finished():
    user = UserFactory()
    bots = bots_of(user, 3)
    tournament = create(user, bots)
    tournament_start(tournament_id=tournament.pk)
    ranks_of = strongest_wins({bots[0].pk: 3, bots[1].pk: 2, bots[2].pk: 1})
    matches = list(Match.objects.filter(tournament=tournament).order_by("pk"))
    record_match(matches[0], ranks_of)
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.RUNNING
    assert tournament_progress(tournament=tournament) == (1, 3)
    for match in matches[1:]:
        record_match(match, ranks_of)
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.DONE
    assert tournament.finished_at is not None
    assert tournament.error == ""
    assert tournament_progress(tournament=tournament) == (3, 3)
    assert [row.bot_id for row in tournament_standings(tournament=tournament)] == [
        b.pk for b in bots
    ]


def test_failed_matches_are_reported_and_all_failed_means_failed():
    user = UserFactory()
    bots = bots_of(user, 3)
    partly = create(user, bots)
    tournament_start(tournament_id=partly.pk)
    matches = list(Match.objects.filter(tournament=partly).order_by("pk"))
    fail_match(matches[0])
    for match in matches[1:]:
        record_match(match, strongest_wins({b.pk: b.pk for b in bots}))
    partly.refresh_from_db()
    assert partly.state == Tournament.State.DONE
    assert "1 of 3 matches failed" in partly.error

    lost = create(user, bots)
    tournament_start(tournament_id=lost.pk)
    for match in Match.objects.filter(tournament=lost):
        fail_match(match)
    lost.refresh_from_db()
    assert lost.state == Tournament.State.FAILED
    assert "none of the 3 matches" in lost.error


def test_a_tournament_that_cannot_be_scheduled_fails_with_the_reason():
    user = UserFactory()
    tournament = create(user, bots_of(user, 2))
    tournament.entries.first().delete()  # an admin removed an entrant meanwhile
    tournament_start(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.FAILED
    assert "Could not schedule" in tournament.error
    assert not Match.objects.filter(tournament=tournament).exists()
