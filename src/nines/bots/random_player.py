"""The random player: uniformly among the legal actions, for every game."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..games.contract import Action
from .base import Decision, Reason


class RandomPlayer:
    name = "random"

    def __init__(self, parse_action: Callable[[str], Action], rng: random.Random) -> None:
        self._parse = parse_action
        self._rng = rng

    def decide(self, view: Any) -> Decision:
        choice = self._rng.choice(list(view.legal))
        return Decision(self._parse(choice), Reason("hint.random", "picked at random among the legal moves"))
