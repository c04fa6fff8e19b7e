"""Le Neuf (Nines, Chômeur): three players, a spare hand, a quota of four, nine down to zero."""

from .actions import Exchange, Keep, parse_neuf_action
from .options import PRESETS, NeufOptions
from .state import SPARE, NeufState, PresetDeal
from .view import NeufView, RememberedHand

__all__ = [
    "Exchange",
    "Keep",
    "NeufOptions",
    "NeufState",
    "NeufView",
    "PRESETS",
    "PresetDeal",
    "RememberedHand",
    "SPARE",
    "parse_neuf_action",
]
