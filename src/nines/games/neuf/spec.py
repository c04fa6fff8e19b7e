"""Le Neuf's entry in the game registry."""

from .. import GameSpec
from .options import PRESETS, NeufOptions
from .state import NeufState

SPEC = GameSpec(
    id="neuf",
    title="Le Neuf",
    summary="Begin at nine; reach zero by taking more than your quota of tricks.",
    state_type=NeufState,
    options_type=NeufOptions,
    presets=PRESETS,
)
