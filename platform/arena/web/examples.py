"""The example bots people may download from the home page (bots_examples/)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

EXAMPLES_DIR = Path(settings.BASE_DIR) / "bots_examples"

# What each example teaches; an example without a line here is still offered.
BLURBS = {
    "random_bot": "plays a random legal card, or draws: the smallest complete bot.",
    "greedy_bot": "sheds its biggest attack cards first and counters whenever it can.",
    "heuristic_bot": "weighs suits, keeps shields for attacks and calls One Card.",
}


@dataclass(frozen=True)
class ExampleBot:
    name: str  # file stem, e.g. "random_bot"
    path: Path
    blurb: str

    @property
    def filename(self) -> str:
        return f"{self.name}.py"


def example_bots() -> list[ExampleBot]:
    """Every stand-alone example, simplest first."""
    if not EXAMPLES_DIR.is_dir():
        return []
    order = list(BLURBS)
    found = [
        ExampleBot(name=path.stem, path=path, blurb=BLURBS.get(path.stem, ""))
        for path in EXAMPLES_DIR.glob("*_bot.py")
        if path.is_file()
    ]
    return sorted(found, key=lambda e: (order.index(e.name) if e.name in order else 99, e.name))


def example_bot_get(*, name: str) -> ExampleBot | None:
    # A lookup in the listing, never a path built from the URL.
    return next((example for example in example_bots() if example.name == name), None)
