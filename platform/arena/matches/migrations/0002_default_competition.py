"""The default competition: the `korean` ruleset at 2 seats.

The ruleset is written out literally (not read from the engine) so that this
migration means the same thing forever, whatever the engine's defaults become.
"""

from django.db import migrations

KOREAN_RULESET = {
    "name": "korean",
    "attack_values": {"2": 2, "A": 3, "AS": 5, "BJ": 7, "CJ": 10},
    "taker_continues": False,
    "multi_play": False,
    "max_penalty": None,
    "mirror_three": False,
    "suited_jokers": False,
    "turn_limit": 1000,
}


def create_default(apps, schema_editor):
    Competition = apps.get_model("matches", "Competition")
    Competition.objects.get_or_create(
        slug="korean-2",
        defaults={
            "name": "Korean, 2 seats",
            "ruleset": KOREAN_RULESET,
            "seats": 2,
            "games_per_match": 4,
            "is_default": True,
            "ladder_enabled": True,
        },
    )


def remove_default(apps, schema_editor):
    Competition = apps.get_model("matches", "Competition")
    Competition.objects.filter(slug="korean-2", matches__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [("matches", "0001_initial")]

    operations = [migrations.RunPython(create_default, remove_default)]
