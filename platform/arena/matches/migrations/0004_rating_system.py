from django.db import migrations, models


def plackett_luce_where_nothing_is_rated(apps, schema_editor):
    """A competition with no rated game yet starts on the new default; one with
    ratings keeps Elo until an operator switches it (`recompute_ratings --system`),
    which replays its games."""
    Competition = apps.get_model("matches", "Competition")
    Game = apps.get_model("matches", "Game")
    rated = Game.objects.filter(match__rated=True).values_list("match__competition_id", flat=True)
    Competition.objects.exclude(pk__in=rated).update(rating_system="plackett_luce")


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0003_drop_redundant_indexes"),
    ]

    operations = [
        # Existing ladders keep the system their ratings were computed with.
        migrations.AddField(
            model_name="competition",
            name="rating_system",
            field=models.CharField(
                choices=[("elo", "Elo (pairwise)"), ("plackett_luce", "Plackett-Luce (mu, sigma)")],
                default="elo",
                help_text="How the ladder rates its games (docs/ratings-and-tournaments.md).",
                max_length=16,
            ),
        ),
        migrations.AlterField(
            model_name="competition",
            name="rating_system",
            field=models.CharField(
                choices=[("elo", "Elo (pairwise)"), ("plackett_luce", "Plackett-Luce (mu, sigma)")],
                default="plackett_luce",
                help_text="How the ladder rates its games (docs/ratings-and-tournaments.md).",
                max_length=16,
            ),
        ),
        migrations.RunPython(plackett_luce_where_nothing_is_rated, migrations.RunPython.noop),
    ]
