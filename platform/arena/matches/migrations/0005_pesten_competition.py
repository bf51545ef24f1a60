"""A second ladder: the `pesten` ruleset (the Dutch game) at 2 seats.

The ruleset is the engine's `pesten` preset written out literally (not read from
the engine) so that this migration means the same thing forever, whatever the
engine's presets become; a test holds it equal to the preset.
"""

from django.db import migrations

PESTEN_SLUG = "pesten-2"

PESTEN_RULESET = {
    "name": "pesten",
    "attack_values": {"2": 2, "A": 0, "AS": 0, "BJ": 5, "CJ": 5},
    "taker_continues": False,
    "multi_play": False,
    "max_penalty": None,
    "mirror_three": False,
    "suited_jokers": False,
    "turn_limit": 1000,
    "roles": {"wild": "J", "skip": "8", "reverse": "A", "again": "7", "shield": None},
    "start_direction": 1,
}


def create_pesten(apps, schema_editor):
    Competition = apps.get_model("matches", "Competition")
    Competition.objects.get_or_create(
        slug=PESTEN_SLUG,
        defaults={
            "name": "Pesten, 2 seats",
            "ruleset": PESTEN_RULESET,
            "seats": 2,
            "games_per_match": 4,
            "is_default": False,
            "ladder_enabled": True,
            "rating_system": "plackett_luce",
        },
    )


def remove_pesten(apps, schema_editor):
    Competition = apps.get_model("matches", "Competition")
    Competition.objects.filter(slug=PESTEN_SLUG, matches__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [("matches", "0004_rating_system")]

    operations = [migrations.RunPython(create_pesten, remove_pesten)]
