"""Never reads its input, and answers "draw" every few milliseconds anyway.

Either a line lands while nothing was asked (`illegal`), or its input pipe fills
up and the engine's write stalls until the deadline (`timeout`); never a hang.
"""

import sys
import time

while True:
    sys.stdout.write('{"action": "draw"}\n')
    sys.stdout.flush()
    time.sleep(0.005)
