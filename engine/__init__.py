"""One-card: the rules engine (RULES.md), the bot protocol (PROTOCOL.md) and the
game log (REPLAY.md). Standard library only, importable by a bare ``python3 -I -S``.

>>> import engine
>>> drawer = lambda message: {"action": "draw"}
>>> engine.play_game([drawer, drawer], seed=1, ruleset={"turn_limit": 4})["result"]["winner"]
0
>>> engine.MIN_PLAYERS, engine.MAX_PLAYERS, engine.PRESET_NAMES[0]
(2, 8, 'korean')
"""

from engine.errors import BotFault, IllegalAction, ReplayError, RoleConflictError, RulesetError
from engine.game import event_view, play_game
from engine.replay import replay, replay_frames
from engine.ruleset import MAX_PLAYERS, MIN_PLAYERS, PRESET_NAMES, PRESETS, Ruleset
from engine.sampling import sample_state
from engine.seats import SeatExchange, seat_messages
from engine.state import GameState
from engine.tables import CALL, CATCH, DRAW, PASS, play_action

__all__ = [
    "CALL",
    "CATCH",
    "DRAW",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PASS",
    "PRESETS",
    "PRESET_NAMES",
    "BotFault",
    "GameState",
    "IllegalAction",
    "ReplayError",
    "RoleConflictError",
    "Ruleset",
    "RulesetError",
    "SeatExchange",
    "event_view",
    "play_action",
    "play_game",
    "replay",
    "replay_frames",
    "sample_state",
    "seat_messages",
]
