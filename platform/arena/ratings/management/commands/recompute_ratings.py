"""`manage.py recompute_ratings`: rebuild every ladder's ratings from its games."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from arena.matches.models import Competition
from arena.ratings.recompute import ratings_recompute, ratings_switch_system


class Command(BaseCommand):
    help = (
        "Replay every rated game in the order it was applied and rebuild the ratings "
        "and their history. The result must equal what the incremental updates stored; "
        "any difference is listed. With --check nothing is written and a difference "
        "makes the command fail."
    )

    def add_arguments(self, parser):
        parser.add_argument("--competition", help="slug of one competition (default: all)")
        parser.add_argument(
            "--check", action="store_true", help="compare only; exit non-zero on a difference"
        )
        parser.add_argument(
            "--system",
            choices=Competition.RatingSystem.values,
            help="switch --competition to this rating system, replaying its games in it",
        )

    def handle(self, *args, competition: str | None, check: bool, system: str | None, **options):
        competitions = Competition.objects.order_by("pk")
        if competition:
            competitions = competitions.filter(slug=competition)
            if not competitions.exists():
                raise CommandError(f"no competition with slug {competition!r}")
        if system:
            if not competition or check:
                raise CommandError("--system needs --competition, and writes: no --check")
            ratings_switch_system(competition=competitions.get(), system=system)
            self.stdout.write(f"{competition}: now rated with {system}")
        differing = []
        for item in competitions:
            report = ratings_recompute(competition=item, write=not check)
            verdict = "identical" if report.matches_stored else "DIFFERENT"
            self.stdout.write(
                f"{report.competition}: {report.games} rated games replayed, "
                f"{len(report.differences)} ratings differ, history "
                f"{'differs' if report.history_differs else 'identical'} -> {verdict}"
            )
            for bot_id, stored, replayed in report.differences[:20]:
                stored_elo = f"{stored.elo!r}" if stored else "no rating"
                replayed_elo = f"{replayed.elo!r}" if replayed else "no games"
                self.stdout.write(f"  bot {bot_id}: stored {stored_elo}, replayed {replayed_elo}")
            if not report.matches_stored:
                differing.append(report.competition)
        if differing and check:
            raise CommandError(f"stored ratings differ from the replay in: {', '.join(differing)}")
        if differing:
            self.stdout.write(self.style.WARNING(f"rewrote the ratings of {', '.join(differing)}"))
