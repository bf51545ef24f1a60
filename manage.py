#!/usr/bin/env python3
"""Django's command-line utility for OneCard Arena."""

import os
import sys
from pathlib import Path


def main() -> None:
    # platform/ is a source root, not a package: put it after the repo root so that
    # `import platform` keeps resolving to the standard library (see docs/layout.md).
    sys.path.insert(1, str(Path(__file__).resolve().parent / "platform"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings.base")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
