"""The example bots people may download from the home page (bots_examples/).

Every single-file download runs on a bare Python. An example that needs the rules
engine (the search bot simulates games with it) is offered inside the starter
kit only, where the engine is beside it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

EXAMPLES_DIR = Path(settings.BASE_DIR) / "bots_examples"
# Simplest first; an example not named here comes after these.
ORDER = ("random_bot", "greedy_bot", "heuristic_bot")
# Examples that import `engine`: in the starter kit, never a single download.
KIT_ONLY = frozenset({"search_bot"})


@dataclass(frozen=True)
class ExampleBot:
    name: str  # file stem, e.g. "random_bot"
    path: Path
    blurb: str  # the first paragraph of the module's docstring

    @property
    def filename(self) -> str:
        return f"{self.name}.py"


def _blurb(path: Path) -> str:
    # The example's own docstring describes it, so the home page never goes stale.
    try:
        docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    except (SyntaxError, UnicodeDecodeError, OSError):
        return ""
    return " ".join(docstring.split("\n\n")[0].split())


def _examples(*, kit_only: bool) -> list[ExampleBot]:
    if not EXAMPLES_DIR.is_dir():
        return []
    found = [
        ExampleBot(name=path.stem, path=path, blurb=_blurb(path))
        for path in EXAMPLES_DIR.glob("*_bot.py")
        if path.is_file() and (path.stem in KIT_ONLY) == kit_only
    ]
    return sorted(
        found, key=lambda e: (ORDER.index(e.name) if e.name in ORDER else len(ORDER), e.name)
    )


def example_bots() -> list[ExampleBot]:
    """The examples offered as single files: each runs on a bare Python."""
    return _examples(kit_only=False)


def kit_only_examples() -> list[ExampleBot]:
    """The examples that need the engine beside them: in the starter kit only."""
    return _examples(kit_only=True)


def example_bot_get(*, name: str) -> ExampleBot | None:
    # A lookup in the listing, never a path built from the URL.
    return next((example for example in example_bots() if example.name == name), None)
