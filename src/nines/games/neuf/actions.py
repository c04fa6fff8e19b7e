"""Le Neuf actions: ``exchange`` or ``keep`` during the exchange, then ``play <card>``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..contract import Action, IllegalAction
from ..tricks import parse_play


@dataclass(frozen=True, slots=True, order=True)
class Exchange:
    """Take the whole hand lying in the centre and leave one's own there."""

    kind: str = field(default="exchange", init=False, repr=False)

    def __str__(self) -> str:
        return "exchange"

    def to_record(self) -> dict[str, Any]:
        return {"action": "exchange"}


@dataclass(frozen=True, slots=True, order=True)
class Keep:
    """Keep one's own hand; the next player is offered the centre hand."""

    kind: str = field(default="keep", init=False, repr=False)

    def __str__(self) -> str:
        return "keep"

    def to_record(self) -> dict[str, Any]:
        return {"action": "keep"}


def parse_neuf_action(text: str) -> Action:
    """Read ``exchange``, ``keep`` or ``play 9H`` (a bare card such as ``9H`` also means play)."""
    words = str(text).split()
    if not words:
        raise IllegalAction.of("syntax.neuf", "an empty move: write 'exchange', 'keep' or 'play' and a card (e.g. 'play 9H')", text="")
    verb = words[0].lower()
    if verb in ("exchange", "swap", "take") and len(words) == 1:
        return Exchange()
    if verb in ("keep", "stay") and len(words) == 1:
        return Keep()
    if verb == "play":
        return parse_play(words[1:])
    if len(words) == 1:
        try:
            return parse_play(words)
        except IllegalAction:
            pass
    raise IllegalAction.of(
        "syntax.neuf", f"{text!r} is not a Le Neuf move: write 'exchange', 'keep' or 'play' and a card (e.g. 'play 9H')",
        text=str(text),
    )
