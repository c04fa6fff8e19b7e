"""Elyigit's Nines' entry in the game registry."""

from .. import GameSpec
from .options import PRESETS, ElyigitOptions
from .state import ElyigitState

SPEC = GameSpec(
    id="elyigit",
    title="Elyigit's Nines",
    summary=(
        "36 cards, ace low, partners: bid for tricks, name trumps, play the dummy; "
        "you must beat the led suit, and trump when void."
    ),
    state_type=ElyigitState,
    options_type=ElyigitOptions,
    presets=PRESETS,
)
