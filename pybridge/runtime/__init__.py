"""The pure targeting runtime: standard library only, no I/O, no module-level state.

>>> from pybridge.runtime import load_battle, play, targets
"""

from .context import Context, Event
from .cut import activate, pass_priority, play, preview, resolve_all
from .definitions import LIBRARY_FORMAT, load_library
from .document import BATTLE_FORMAT, canonical_json, dump_battle, load_battle
from .errors import FormatError, PlayError, TargetingError
from .graph import Behavior, Kind, Node
from .model import Battle, CardDef, CardInstance, Pile, Team, Unit
from .modes import TargetMode, affected_range, candidates, is_valid_target
from .play import TargetInfo, check_play, targets
from .rng import Pcg32

__all__ = [
    "BATTLE_FORMAT",
    "LIBRARY_FORMAT",
    "Battle",
    "Behavior",
    "CardDef",
    "CardInstance",
    "Context",
    "Event",
    "FormatError",
    "Kind",
    "Node",
    "Pcg32",
    "Pile",
    "PlayError",
    "TargetInfo",
    "TargetMode",
    "TargetingError",
    "Team",
    "Unit",
    "activate",
    "affected_range",
    "candidates",
    "canonical_json",
    "check_play",
    "dump_battle",
    "is_valid_target",
    "load_battle",
    "load_library",
    "pass_priority",
    "play",
    "preview",
    "resolve_all",
    "targets",
]
