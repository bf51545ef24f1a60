"""``python3 -m onecard match my_bot.py heuristic --games 100``."""

import sys

from sandbox.cli import main

if __name__ == "__main__":
    sys.exit(main())
