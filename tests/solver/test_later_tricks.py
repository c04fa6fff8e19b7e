"""DDS's later tricks with the third-best trump (bounds.c, third_trump_trick), against the brute force.

In bridge card play, when the side holding the top trump is on lead and needs every trick, and
the other side holds the second-best trump with another trump and the third-best in the partner's
hand, the top trump's holder playing just after the second-best's, that side takes a trick.  The
endings here are drawn around the rule: with and without the guard, the third-best trump in either
opponent's hand, either order of the two top trumps' holders, either side on lead.
"""

from __future__ import annotations

import random

from nines.cards import SUITS, Card
from nines.solver import Solver, make_position, position_from_deal

from .reference import NEUF_PARTNERS, brute_value

SEATS = NEUF_PARTNERS.seats


def ending_around_the_rule(rng: random.Random, tricks: int) -> tuple[dict[str, list[Card]], Card, str, bool]:
    """Hands, trump suit's top card, leader, and whether the rule's conditions hold."""
    trump = rng.choice(SUITS)
    trumps = sorted((c for c in NEUF_PARTNERS.deck if c.suit == trump), key=NEUF_PARTNERS.number, reverse=True)
    second = rng.randrange(4)
    after = rng.random() < 0.75  # the top trump's holder plays just after the second-best's
    top = (second + 1) % 4 if after else (second + 3) % 4
    partner = rng.random() < 0.75  # the third-best trump in the second-best's partner's hand
    third = (second + 2) % 4 if partner else top
    guarded = rng.random() < 0.6
    hands: dict[str, list[Card]] = {seat: [] for seat in SEATS}
    hands[SEATS[top]].append(trumps[0])
    hands[SEATS[second]].append(trumps[1])
    hands[SEATS[third]].append(trumps[2])
    low_trumps = trumps[3:]
    rng.shuffle(low_trumps)
    if guarded:
        hands[SEATS[second]].append(low_trumps.pop())
    others = [c for c in NEUF_PARTNERS.deck if c.suit != trump]
    pool = low_trumps + rng.sample(others, 4 * tricks)
    rng.shuffle(pool)
    for seat in SEATS:
        while len(hands[seat]) < tricks:
            card = pool.pop()
            if not guarded and seat == SEATS[second] and card.suit == trump:
                continue
            hands[seat].append(card)
    top_side_leads = rng.random() < 0.75
    lead_side = top % 2 if top_side_leads else 1 - top % 2
    leader = SEATS[rng.choice((lead_side, lead_side + 2))]
    return hands, trumps[0], leader, after and partner and guarded and top_side_leads


def test_the_third_best_trump_takes_a_trick_against_a_side_that_needs_every_trick() -> None:
    rng = random.Random("third-best trump")
    solver = Solver(table_mb=8)
    ruled = 0
    for i in range(300):
        tricks = 2 + i % 3
        hands, top_trump, leader, rule_holds = ending_around_the_rule(rng, tricks)
        assert top_trump.suit is not None
        top_side = "NS" if next(s for s in SEATS if top_trump in hands[s]) in "NS" else "EW"
        position = make_position("neuf", hands, top_trump.suit, leader, form="partners")
        expected = brute_value(NEUF_PARTNERS, position.hands, top_trump.suit, leader, [], frozenset(top_side))
        if rule_holds:
            ruled += 1
            assert expected < tricks, str(position)  # the rule itself
        solver.clear()
        assert solver.value(position, top_side) == expected, str(position)
        # the same question from the other side, and with a target right at every trick
        assert solver.value(position, "EW" if top_side == "NS" else "NS") == tricks - expected, str(position)
    assert ruled > 60


def test_a_bare_second_best_trump_is_no_trick() -> None:
    # without its guard the second-best trump can be made to fall under the top one with the
    # third-best: N-S take both tricks (the rule must ask for the guard)
    position = position_from_deal("neuf", "N:Q.-.-.8 -.A.K.- K.2.-.- A.-.-.9", "S", "W")
    assert Solver().value(position, "EW") == 2
