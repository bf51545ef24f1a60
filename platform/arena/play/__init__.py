"""Playing matches: the one package that runs bots and records what they did.

It sits above the domain apps (bots, matches, ratings, tournaments) and is the
only code that writes across them: a match is claimed and leased (`leases`),
played in the sandbox (`sandboxing`, `runner`), and its result written in one
transaction with games, seats, fault streaks, ratings and tournament progress
(`results`, behind the play on `recorder`'s thread). Qualification is a match
too (`qualification`), and so is the ladder's schedule (`matchmaking`). The domain
apps never import this package; they queue its tasks by name
(`arena.core.queueing`).
"""
