"""Each event tells the right users, in-site and by email, through the real services."""

from __future__ import annotations

import pytest
from django.urls import reverse

from arena.bots.models import BotVersion
from arena.bots.services import bot_version_qualification_finish, bot_versions_faults_record
from arena.matches.models import Match, Promotion
from arena.matches.promotions import promotion_start
from arena.matches.services import challenge_create
from arena.notifications.models import Delivery, Kind, Notification, Preference
from arena.tournaments.models import Tournament
from arena.tournaments.services import tournament_create, tournament_start
from tests.arena.factories import (
    ActiveBotVersionFactory,
    BotFactory,
    BotVersionFactory,
    StaffFactory,
    UserFactory,
    default_competition,
)
from tests.arena.tournaments.helpers import fail_match, record_match, strongest_wins

pytestmark = pytest.mark.django_db


def _only(user, kind) -> Notification:
    [notification] = Notification.objects.filter(user=user, kind=kind)
    return notification


def test_a_qualified_version_is_told_in_site_and_by_email(run_tasks, mailoutbox):
    version = BotVersionFactory(bot__name="alpha", status=BotVersion.Status.QUALIFYING)
    owner = version.bot.owner
    with run_tasks():
        bot_version_qualification_finish(version_id=version.pk, passed=True, reason="", report={})
    notification = _only(owner, Kind.VERSION_QUALIFIED)
    assert notification.title == "alpha v1 qualified"
    assert notification.body == "Now: Active."
    assert notification.url == reverse("web:version-detail", args=[version.pk])
    assert notification.read_at is None
    [mail] = mailoutbox
    assert mail.to == [owner.email]
    assert "alpha v1 qualified" in mail.subject
    assert "http://127.0.0.1:8000" + notification.url in mail.body
    assert Delivery.objects.get(notification=notification).state == "delivered"


def test_a_qualified_version_of_a_playing_bot_is_told_its_test_starts(run_tasks):
    active = ActiveBotVersionFactory()
    version = BotVersionFactory(bot=active.bot, status=BotVersion.Status.QUALIFYING)
    with run_tasks():
        bot_version_qualification_finish(version_id=version.pk, passed=True, reason="", report={})
    body = _only(active.bot.owner, Kind.VERSION_QUALIFIED).body
    assert body == "Now: Testing against the active version."


def test_a_failed_qualification_carries_the_fault_sentence_as_it_is(run_tasks, mailoutbox):
    version = BotVersionFactory(bot__name="beta", status=BotVersion.Status.QUALIFYING)
    reason = "Game 1: illegal move (played 7♠ on 3♥)."
    with run_tasks():
        bot_version_qualification_finish(
            version_id=version.pk, passed=False, reason=reason, report={}
        )
    notification = _only(version.bot.owner, Kind.VERSION_FAILED)
    assert notification.title == "beta v1 failed qualification"
    assert notification.body == reason
    assert notification.payload["status"] == "failed"
    [mail] = mailoutbox
    assert reason in mail.body


def test_a_user_who_turned_email_off_gets_no_email_but_the_bell(run_tasks, mailoutbox):
    version = BotVersionFactory(status=BotVersion.Status.QUALIFYING)
    owner = version.bot.owner
    Preference.objects.create(user=owner, kind=Kind.VERSION_FAILED, email=False)
    with run_tasks():
        bot_version_qualification_finish(
            version_id=version.pk, passed=False, reason="crashed", report={}
        )
    notification = _only(owner, Kind.VERSION_FAILED)
    assert notification.body == "crashed"
    assert mailoutbox == []
    assert not Delivery.objects.exists()


def test_a_decided_version_is_not_told_twice():
    version = BotVersionFactory(status=BotVersion.Status.QUALIFYING)
    for _ in range(2):  # a duplicate run finds the version decided
        bot_version_qualification_finish(version_id=version.pk, passed=True, reason="", report={})
    assert Notification.objects.count() == 1


def test_a_version_taken_off_the_ladder(run_tasks, settings, mailoutbox):
    settings.ARENA_FAULT_STREAK_LIMIT = 2
    version = ActiveBotVersionFactory(bot__name="gamma", consecutive_faulted_matches=1)
    healthy = ActiveBotVersionFactory()
    with run_tasks():
        removed = bot_versions_faults_record(
            faults_by_version={version.pk: ["timeout"], healthy.pk: []}
        )
    assert removed == [version.pk]
    version.refresh_from_db()
    notification = _only(version.bot.owner, Kind.VERSION_OFF_LADDER)
    assert notification.title == "gamma v1 was taken off the ladder"
    assert notification.body == version.status_reason
    assert "latest: timeout" in notification.body
    assert len(mailoutbox) == 1
    assert not Notification.objects.filter(user=healthy.bot.owner).exists()


def test_a_promotion_decided_tells_the_owner(run_tasks):
    from tests.arena.play.test_promotion import _play_next

    incumbent = ActiveBotVersionFactory(bot__name="delta")
    candidate = ActiveBotVersionFactory(bot=incumbent.bot, status=BotVersion.Status.TESTING)
    promotion_start(candidate=candidate, competition=default_competition())
    with run_tasks():
        for _ in range(10):
            _play_next(candidate_wins=True)
            if Promotion.objects.get(candidate=candidate).state != Promotion.State.RUNNING:
                break
    notification = _only(incumbent.bot.owner, Kind.PROMOTION_DECIDED)
    assert notification.title == "Promotion test of delta v2: promoted"
    assert notification.body.startswith("Promoted over v1 after")
    assert notification.payload == {"version_id": candidate.pk, "state": "promoted"}
    assert notification.url == reverse("web:version-detail", args=[candidate.pk])


def test_a_finished_tournament_tells_its_creator_and_every_entrant(run_tasks):
    staff, alice, bob = StaffFactory(), UserFactory(), UserFactory()
    bots = [ActiveBotVersionFactory(bot=BotFactory(owner=owner)).bot for owner in (alice, bob)]
    bots.append(ActiveBotVersionFactory(bot=BotFactory(owner=alice)).bot)
    tournament = tournament_create(
        user=staff,
        name="Spring cup",
        format="round_robin",
        ruleset="korean",
        seats=2,
        games_per_match=2,
        bots=bots,
    )
    tournament_start(tournament_id=tournament.pk)
    matches = list(Match.objects.filter(tournament=tournament).order_by("pk"))
    with run_tasks():
        fail_match(matches[0])
        for match in matches[1:]:
            assert not Notification.objects.exists()  # not before the end
            record_match(match, strongest_wins({bot.pk: bot.pk for bot in bots}))
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.DONE
    told = Notification.objects.filter(kind=Kind.TOURNAMENT_FINISHED)
    assert sorted(told.values_list("user_id", flat=True)) == sorted([staff.pk, alice.pk, bob.pk])
    notification = told.get(user=alice)
    assert notification.title == "Tournament Spring cup: done"
    assert "1 of 3 matches failed" in notification.body
    assert notification.url == reverse("web:tournament-detail", args=[tournament.pk])


def test_a_challenge_played_tells_the_challenger_and_the_challenged(run_tasks, mailoutbox):
    challenger, challenged, bystander = UserFactory(), UserFactory(), UserFactory()
    mine = ActiveBotVersionFactory(bot=BotFactory(owner=challenger, name="mine")).bot
    theirs = ActiveBotVersionFactory(bot=BotFactory(owner=challenged, name="theirs")).bot
    ActiveBotVersionFactory(bot=BotFactory(owner=bystander))
    match = challenge_create(user=challenger, bot=mine, opponent=theirs)
    with run_tasks():
        record_match(match, lambda bot_ids: [1, 2])
    told = Notification.objects.filter(kind=Kind.CHALLENGE_PLAYED)
    assert sorted(told.values_list("user_id", flat=True)) == sorted([challenger.pk, challenged.pk])
    notification = told.get(user=challenged)
    assert notification.title == "Challenge played: mine vs theirs"
    assert (
        notification.body
        == f"mine won {match.games_planned}, theirs won 0 of {match.games_planned} games."
    )
    assert notification.url == reverse("web:match-detail", args=[match.pk])
    assert mailoutbox == []  # challenges are not emailed unless asked for


def test_a_ladder_match_tells_nobody(run_tasks):
    from tests.arena.factories import match_with_seats

    match = match_with_seats([ActiveBotVersionFactory(), ActiveBotVersionFactory()])
    with run_tasks():
        record_match(match, lambda bot_ids: [1, 2])
    assert Match.objects.get(pk=match.pk).state == Match.State.DONE
    assert not Notification.objects.exists()


def test_accounts_nobody_logs_in_as_and_missing_users_are_not_told(run_tasks, mailoutbox):
    from arena.notifications.services import notification_send

    active, inactive = UserFactory(), UserFactory(is_active=False)  # e.g. "(deleted)"
    system = UserFactory(password=None)  # no usable password: the platform's own account
    with run_tasks():
        told = notification_send(
            user_ids=[inactive.pk, None, active.pk, active.pk, system.pk],
            kind=Kind.TOURNAMENT_FINISHED,
            title="Cup: done",
        )
    assert [row.user_id for row in told] == [active.pk]
    assert [mail.to for mail in mailoutbox] == [[active.email]]
