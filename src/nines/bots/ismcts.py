"""Information-set Monte Carlo tree search for the trick games (the published baseline).

SO-ISMCTS of Cowling, Powley and Whitehouse (2012, "Information Set Monte Carlo Tree
Search", IEEE TCIAIG 4(2)): one tree over the searching player's information set,
whose edges are cards; every iteration first *determinizes* (deals the unseen cards
consistently with what the player knows, voids included), then descends the tree
choosing among the children legal in that deal by UCB1 with availability counts,
adds one node, plays the rest of the deal out at random, and backs each node up with
the result of the player who moved into it.  The move played is the root's most
visited card.

The search runs on :mod:`nines.bots.tricksim` positions, not on engine states.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from .tricksim import TrickPosition, TrickRules

__all__ = ["Node", "SearchResult", "search"]

DEFAULT_ITERATIONS = 350
DEFAULT_EXPLORATION = 0.7


@dataclass(slots=True)
class Node:
    """A card played by ``player``; statistics are from that player's point of view."""

    player: int
    visits: int = 0
    reward: float = 0.0
    avail: int = 1
    children: dict[int, Node] = field(default_factory=dict)


@dataclass(frozen=True)
class SearchResult:
    card: int
    visits: dict[int, int]
    value: dict[int, float]  # mean result for the searching player, per root card


def search(
    determinize: Callable[[random.Random], TrickPosition],
    rules: TrickRules,
    result: Callable[[TrickPosition], list[float]],
    rng: random.Random,
    iterations: int = DEFAULT_ITERATIONS,
    exploration: float = DEFAULT_EXPLORATION,
    mover: Callable[[int], int] | None = None,
) -> SearchResult:
    """Run SO-ISMCTS and return the most visited card at the root.

    ``determinize`` deals one world; ``result`` gives every seat's result (0..1) at the
    end of a deal; ``mover`` maps the seat to play to the seat whose result it
    maximises (the declarer for the dummy), identity by default.
    """
    root = Node(player=-1)
    log = math.log
    sqrt = math.sqrt
    rand = rng.random
    for _ in range(iterations):
        pos = determinize(rng)
        node = root
        path: list[Node] = []
        while not pos.over:
            legal = rules.legal(pos)
            children = node.children
            untried = [c for c in legal if c not in children]
            if untried:
                card = untried[int(rand() * len(untried))]
                seat = pos.to_act
                child = Node(player=mover(seat) if mover is not None else seat)
                children[card] = child
                for c in legal:
                    if c != card and c in children:
                        children[c].avail += 1
                rules.play(pos, card)
                path.append(child)
                break
            best_card = legal[0]
            best_value = -1.0
            for c in legal:
                ch = children[c]
                ch.avail += 1
                value = ch.reward / ch.visits + exploration * sqrt(log(ch.avail) / ch.visits)
                if value > best_value:
                    best_value, best_card = value, c
            node = children[best_card]
            rules.play(pos, best_card)
            path.append(node)
        if not pos.over:
            rules.playout(pos, rng)
        outcome = result(pos)
        for node in path:
            node.visits += 1
            node.reward += outcome[node.player]
    visits = {card: ch.visits for card, ch in root.children.items()}
    means = {card: ch.reward / ch.visits for card, ch in root.children.items() if ch.visits}
    card = max(visits, key=lambda c: (visits[c], means.get(c, 0.0), -c))
    return SearchResult(card, visits, means)
