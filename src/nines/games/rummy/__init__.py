"""Nines rummy: 2 to 8 players, nine cards each, an indicator wild, runs and monkeys (seed 002)."""

from .actions import Discard, Draw, EndSession, Extend, Lay, RummyAction, Swap, action_from_record, parse_rummy_action
from .indicator import Wilds
from .melds import MeldError, MonkeyShape, Placement, RunShape, read_set
from .options import PRESETS, RummyOptions
from .state import PresetHand, RummyState, rummy_sorted
from .table import Table, TableSet
from .view import Move, PlacedCard, RummyView, TableSetView

__all__ = [
    "Discard",
    "Draw",
    "EndSession",
    "Extend",
    "Lay",
    "MeldError",
    "MonkeyShape",
    "Move",
    "PRESETS",
    "PlacedCard",
    "Placement",
    "PresetHand",
    "RummyAction",
    "RummyOptions",
    "RummyState",
    "RummyView",
    "RunShape",
    "Swap",
    "Table",
    "TableSet",
    "TableSetView",
    "Wilds",
    "action_from_record",
    "parse_rummy_action",
    "read_set",
    "rummy_sorted",
]
