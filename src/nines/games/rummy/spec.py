"""Nines rummy's entry in the game registry."""

from .. import GameSpec
from .options import PRESETS, RummyOptions
from .state import RummyState

SPEC = GameSpec(
    id="rummy",
    title="Nines rummy",
    summary="Nine cards each, the indicator picks the wilds; lay runs and monkeys and be first to go out.",
    state_type=RummyState,
    options_type=RummyOptions,
    presets=PRESETS,
)
