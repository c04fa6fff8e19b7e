"""Where the rummy oracle's edge comes from: the expert's own search, given one piece of hidden knowledge (issue 20).

The ``oracle`` sees everything: the opponents' hands and the order of the stock.  To
tell which of the two its edge over ``basic`` comes from, this script plays two
measuring players that are the ``expert`` (the same race over imagined deals,
:class:`nines.bots.ismcts_rummy.RummyIsmcts` with :data:`EXPERT_BUDGET`) except for
the deals they imagine:

* ``sees-hands``: every imagined deal gives the opponents their actual hands; the stock
  holds its actual cards, in an order shuffled afresh for each imagined deal.  It knows
  everything but the order of the stock.
* ``sees-next``: the imagined deals are the expert's (sampled from the view), except
  that the stock's actual next card is put on top of the stock.  It knows one card more
  than the view shows: the one a stock draw would turn up now.

Like the oracle they are for measuring only: they are registered here, in this script,
as players that see the whole state, and nothing else offers them.  They go through the
same loop guard as every computer player.  The matches are ``rummy_share.py``'s (the
tournament's): the same seed, seatings, player seeds and saved files, so
``rummy_share.py report`` compares them with the expert's and the oracle's runs.

    PYTHONPATH=src python benchmarks/rummy_knowledge.py play sees-hands --seats 2 --seed 41 --deals 300 --save /tmp/h2.pkl
    PYTHONPATH=src python benchmarks/rummy_share.py report /tmp/h2.pkl /tmp/o2.pkl
"""

from __future__ import annotations

import argparse
import random
import sys
from abc import abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import Any

from nines.bots.base import Decision
from nines.bots.expert_rummy import RummyReading
from nines.bots.ismcts_rummy import EXPERT_BUDGET, RummyIsmcts
from nines.bots.loop_guard import LoopGuard
from nines.bots.rummy_worlds import World
from nines.games.contract import GameState
from nines.games.rummy import RummyState
from nines.tournament.oracle import ORACLE_FACTORIES

sys.path.insert(0, str(Path(__file__).parent))
from rummy_share import play  # the script next to this one


class _Knowing(RummyIsmcts):
    """The expert, deciding from the whole state: its imagined deals are told one hidden thing."""

    sees_all_cards = True

    def __init__(self, rng: random.Random, name: str) -> None:
        super().__init__(rng, EXPERT_BUDGET, name=name)
        self.guarded = LoopGuard(self)
        self.state: RummyState | None = None

    def decide_state(self, state: GameState, seat: str) -> Decision:
        assert isinstance(state, RummyState)
        self.state = state
        return self.guarded.decide(state.view(seat))

    def _worlds(self, reading: RummyReading) -> list[World]:
        assert self.state is not None
        return [self._told(reading, world) for world in super()._worlds(reading)]

    @abstractmethod
    def _told(self, reading: RummyReading, world: World) -> World:
        """The imagined ``world`` with the hidden thing this player is told put in."""


class SeesHands(_Knowing):
    """Every imagined deal has the opponents' actual hands and the stock's actual cards, in a random order."""

    def _told(self, reading: RummyReading, world: World) -> World:
        assert self.state is not None
        deal = self.state.deal
        hands = {seat: list(deal.hands[seat]) for seat in reading.opponents}
        stock = list(deal.stock)
        self.rng.shuffle(stock)
        rebuilt = list(reading.view.discard_pile[:-1])
        self.rng.shuffle(rebuilt)
        return World(hands, stock + rebuilt)


class SeesNext(_Knowing):
    """The expert's imagined deals with the stock's actual next card put on top of the stock."""

    def _told(self, reading: RummyReading, world: World) -> World:
        assert self.state is not None
        if not self.state.deal.stock:
            return world
        card = self.state.deal.stock[0]
        stock = list(world.stock)
        hands = {seat: list(cards) for seat, cards in world.hands.items()}
        if card in stock[: len(stock) - len(reading.view.discard_pile) + 1]:
            stock.remove(card)
            stock.insert(0, card)
            return World(hands, stock)
        # the card was dealt to an imagined opponent: it swaps places with the stock's top card
        for cards in hands.values():
            if card in cards:
                cards[cards.index(card)] = stock[0]
                stock[0] = card
                return World(hands, stock)
        return world


def _factory(kind: Callable[[random.Random, str], _Knowing], name: str) -> Any:
    def make(game_id: str, rng: random.Random) -> _Knowing:
        if game_id != "rummy":
            raise ValueError(f"{name} plays Nines rummy only, not {game_id}")
        return kind(rng, name)

    return make


PLAYERS: dict[str, Callable[[random.Random, str], _Knowing]] = {"sees-hands": SeesHands, "sees-next": SeesNext}


def main() -> None:
    for name, kind in PLAYERS.items():
        ORACLE_FACTORIES[name] = _factory(kind, name)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    play_args = commands.add_parser("play", help="play (or go on playing) one measuring player against basics")
    play_args.add_argument("player", choices=sorted(PLAYERS))
    play_args.add_argument("--seats", type=int, default=2)
    play_args.add_argument("--seed", type=int, default=41)
    play_args.add_argument("--deals", type=int, default=300)
    play_args.add_argument("--save", type=Path, required=True)
    args = parser.parse_args()
    play(args.player, args.seats, args.seed, args.deals, args.save)


if __name__ == "__main__":
    main()
