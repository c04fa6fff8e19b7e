"""How many legal moves a rummy seat is shown, and what listing them costs.

Plays seeded sessions of ``basic`` computer players (the way a table of people hoarding nothing
plays) at each table size and, at every position where a seat may lay, lists its legal moves
as the server does for that seat's view: the count, the CPU time of listing them (a fresh state,
nothing cached) and the bytes of the view's ``legal`` list. Then the hand-made worst cases: one
deck with six wilds among ten cards, two decks with eight and with twelve.

    PYTHONPATH=src python benchmarks/rummy_legal.py --sessions 20

Under ``wild_places=player`` a lay is listed once per set of places (its wilds in rule order); any
other order of the same wilds is checked by reading the lay itself, not by a list.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from nines.bots import make_player
from nines.cards import parse_cards
from nines.games.rummy import PresetHand, RummyOptions, RummyState
from nines.games.rummy.actions import Draw


def listing(state: RummyState) -> tuple[int, float, int]:
    """Legal moves of the seat to act in a fresh copy (no cache): count, CPU seconds, bytes in the view."""
    fresh = state.clone()
    fresh._legal = None
    start = time.thread_time()
    moves = fresh.legal_actions()
    spent = time.thread_time() - start
    size = len(json.dumps([str(a) for a in moves]))
    return len(moves), spent, size


def sessions(players: int, count: int, seed: int) -> tuple[int, float, int, int]:
    """The largest listing over ``count`` one-hand sessions, and the number of positions looked at."""
    most = (0, 0.0, 0)
    positions = 0
    for n in range(count):
        state = RummyState(RummyOptions(players=players, hands=1), seed=seed + n)
        bots = {seat: make_player("basic", "rummy", random.Random(seed + n)) for seat in state.seats}
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            if state.deal.phase == "play" and not state.first_round:
                positions += 1
                found = listing(state)
                most = max(most, found)
            state.apply(bots[seat].decide(state.view(seat)).action)
    return most[0], most[1], most[2], positions


def worst_case(decks: int, hand: str, other: str, stock: str) -> tuple[int, float, int]:
    options = RummyOptions(players=2, decks=decks) if decks == 2 else RummyOptions(players=2)
    preset = PresetHand(
        starter="1", hands={"1": parse_cards(hand), "2": parse_cards(other)}, indicator="4C",
        discard_pile=parse_cards("2C"), stock=parse_cards(stock), turn=2,
    )
    state = RummyState(options, seed=1, preset=preset)
    state.apply(Draw("stock"))
    return listing(state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=20, help="one-hand sessions per table size")
    parser.add_argument("--seats", default="2,4,6,8")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    print(f"{'case':34} {'moves':>7} {'list ms':>8} {'view kB':>8} {'positions':>9}")
    for players in (int(s) for s in args.seats.split(",")):
        moves, spent, size, positions = sessions(players, args.sessions, args.seed)
        print(f"{f'basic players, {players} seats (largest)':34} {moves:>7} {1000 * spent:>8.1f} {size / 1000:>8.1f} {positions:>9}")
    cases = [
        ("one deck, 6 wilds in 10 cards", 1, "5H 5S 5D 5C JK JK 7H 8H TS JS", "2H 3H 4H KC QC", "6D 7D 8D 9D"),
        ("two decks, 8 wilds in 12 cards", 2, "5H 5S 5D 5C 5H 5S JK JK 7H 8H TS JS", "2H 3H 4H KC QC", "6D 7D 8D 9D"),
        ("two decks, 12 wilds in 14 cards", 2, "5H 5S 5D 5C 5H 5S 5D 5C JK JK JK JK 7H 8H", "2H 3H 4H KC QC", "6D 7D 8D 9D"),
    ]
    for name, decks, hand, other, stock in cases:
        moves, spent, size = worst_case(decks, hand, other, stock)
        print(f"{name:34} {moves:>7} {1000 * spent:>8.1f} {size / 1000:>8.1f} {'':>9}")


if __name__ == "__main__":
    main()
