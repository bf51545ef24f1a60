"""Forms of the site. Validation that belongs to the domain (bot uploads, tournament
entries) stays in the services; these forms only shape the input for them."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError
from django.db.models import QuerySet

import engine
from arena.bots.models import Bot
from arena.matches.tables import MAX_TABLE_GAMES
from arena.tournaments.models import Tournament


class SignUpForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username",)


class ServiceErrorsMixin:
    """Put a service's ValidationError next to the fields it names (the services
    raise `{"field": [...]}`), and the rest above the form."""

    fields: dict[str, forms.Field]

    def add_service_errors(self, error: ValidationError) -> None:
        if not hasattr(error, "error_dict"):
            self.add_error(None, error)  # type: ignore[attr-defined]
            return
        for field, errors in error.error_dict.items():
            self.add_error(field if field in self.fields else None, errors)  # type: ignore[attr-defined]


class BotUploadForm(ServiceErrorsMixin, forms.Form):
    name = forms.CharField(
        max_length=40,
        help_text="Your bot's name: a new name creates a bot, one of your bots' names "
        "adds a version to it.",
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    upload = forms.FileField(
        label="Code",
        help_text="A single <code>.py</code> file, or a <code>.zip</code> with a "
        "<code>main.py</code> at its top.",
        widget=forms.ClearableFileInput(attrs={"accept": ".py,.zip"}),
    )
    description = forms.CharField(
        max_length=500,
        required=False,
        help_text="Optional: a line about how it plays, shown on the bot's page.",
        widget=forms.TextInput(),
    )


def ruleset_choices() -> list[tuple[str, str]]:
    return [(name, name.replace("_", " ")) for name in engine.PRESET_NAMES]


class TournamentForm(ServiceErrorsMixin, forms.Form):
    name = forms.CharField(max_length=100)
    format = forms.ChoiceField(choices=Tournament.Format.choices)
    ruleset = forms.ChoiceField(
        choices=ruleset_choices,
        initial="korean",
        help_text="The rules every game uses; <em>korean</em> is the standard one.",
    )
    seats = forms.IntegerField(
        label="Table size",
        min_value=engine.MIN_PLAYERS,
        max_value=engine.MAX_PLAYERS,
        initial=2,
        help_text="Players per game.",
    )
    games_per_match = forms.IntegerField(
        min_value=1,
        max_value=50,
        initial=2,
        help_text="Seats rotate over the same deals, so an even number is fairest.",
    )
    rounds = forms.IntegerField(
        min_value=1,
        max_value=10,
        initial=1,
        help_text="Balanced format: how many times each bot sits down per round.",
    )
    bots = forms.ModelMultipleChoiceField(
        label="Entrants",
        queryset=Bot.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        help_text="Bots with an active version; you may enter only your own.",
    )

    def __init__(self, *args: object, entrants: QuerySet[Bot], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["bots"].queryset = entrants  # type: ignore[attr-defined]


class ChallengeForm(ServiceErrorsMixin, forms.Form):
    bot = forms.ModelChoiceField(
        label="Challenge with", queryset=Bot.objects.none(), empty_label=None
    )

    def __init__(self, *args: object, challengers: QuerySet[Bot], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["bot"].queryset = challengers  # type: ignore[attr-defined]


class TableForm(ServiceErrorsMixin, forms.Form):
    """A table against bots: one to seven opponents (a bot may fill several seats),
    the rules, the games."""

    preset = forms.ChoiceField(
        label="Rules",
        choices=ruleset_choices,
        initial="korean",
        help_text="<em>korean</em> is the standard game; the others are its variants.",
    )
    games = forms.IntegerField(
        min_value=1, max_value=MAX_TABLE_GAMES, initial=1, help_text="Games to play at this table."
    )

    def __init__(self, *args: object, bots: QuerySet[Bot], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        for number in range(1, engine.MAX_PLAYERS):
            self.fields[f"opponent_{number}"] = forms.ModelChoiceField(
                label=f"Opponent {number}",
                queryset=bots,
                required=number == 1,
                empty_label="— choose a bot —" if number == 1 else "— empty seat —",
                to_field_name="name",
            )

    def opponent_fields(self) -> list[forms.BoundField]:
        return [self[f"opponent_{n}"] for n in range(1, engine.MAX_PLAYERS)]

    def opponents(self) -> list[Bot]:
        chosen = (self.cleaned_data.get(f"opponent_{n}") for n in range(1, engine.MAX_PLAYERS))
        return [bot for bot in chosen if bot is not None]
