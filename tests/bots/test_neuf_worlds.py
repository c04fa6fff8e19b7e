"""A Le Neuf seat's knowledge read from its view, and the deals sampled from it."""

import random

from nines.bots.neuf_worlds import EXTRA, NeufKnowledge, code
from nines.cards import parse_card
from nines.games.neuf import Exchange, Keep, NeufState
from nines.games.tricks import Play

from ..neuf.positions import SUITED, position


def _play(state, *cards):
    for text in cards:
        state.apply(Play(parse_card(text)))


def test_a_player_who_did_not_follow_is_void_and_never_dealt_that_suit():
    # S all spades, W all hearts, E all diamonds: after a spade lead W and E show out.
    state = position(**SUITED, dealer="E", exchange=False)
    _play(state, "2S", "2H", "2D")
    knowledge = NeufKnowledge.from_view(state.view("W"))
    spades = {code(f"{r}S") for r in "AKQJT98765432"}
    s_index = knowledge.holders.index("S")
    e_index = knowledge.holders.index("E")
    assert knowledge.forbidden[e_index] >= {c for c in knowledge.pool if c >> 4 == 0}
    assert not knowledge.forbidden[s_index]
    rng = random.Random(1)
    for _ in range(50):
        hands = knowledge.sample_hands(rng)
        assert not spades & set(hands["E"])
        assert len(hands["S"]) == 12 and len(hands["E"]) == 12 and len(hands[EXTRA]) == 13


def test_the_hand_left_in_the_exchange_is_known_where_it_went():
    state = position(**SUITED, dealer="E")
    state.apply(Exchange())  # S takes the clubs, leaves the spades
    state.apply(Exchange())  # W takes S's spades
    state.apply(Keep())
    knowledge = NeufKnowledge.from_view(state.view("S"))
    assert sorted(knowledge.hands_known["W"]) == sorted(code(f"{r}S") for r in "AKQJT98765432")
    assert "W" not in knowledge.holders
    hands = knowledge.sample_hands(random.Random(2))
    assert sorted(hands["W"]) == sorted(knowledge.hands_known["W"])


def test_sampled_worlds_agree_with_every_public_fact_over_random_matches():
    rng = random.Random(5)
    for seed in range(12):
        state = NeufState(seed=seed)
        while state.deal.phase == "exchange":
            state.apply(rng.choice(state.legal_actions()))
        for _ in range(rng.randrange(5, 30)):
            state.apply(rng.choice(state.legal_actions()))
        if state.deal.phase != "play":
            continue
        seat = state.to_act
        knowledge = NeufKnowledge.from_view(state.view(seat))
        truth = {s: sorted(code(c) for c in state.deal.hands[s]) for s in state.seats}
        # the true deal satisfies every constraint the knowledge holds
        for holder, banned in zip(knowledge.holders, knowledge.forbidden, strict=True):
            if holder != EXTRA:
                assert not banned & set(truth[holder])
        world = knowledge.sample_position(rng)
        assert sorted(world.hands[knowledge.me]) == truth[seat]
        assert [len(h) for h in world.hands] == [len(truth[s]) for s in state.seats]
        assert world.to_act == knowledge.me


def test_the_exchange_is_undone_backwards_in_a_world():
    state = position(**SUITED, dealer="E")
    state.apply(Keep())  # S keeps the spades
    state.apply(Exchange())  # W takes the clubs (the spare), leaves the hearts
    knowledge = NeufKnowledge.from_view(state.view("E"))
    hands = knowledge.sample_hands(random.Random(3))
    offered = knowledge.hands_at_exchange(hands)
    # W was offered the spare, which W now holds; S held what S holds
    assert sorted(offered["W"][1]) == sorted(hands["W"])
    assert sorted(offered["S"][0]) == sorted(hands["S"])
    assert sorted(offered["W"][0]) == sorted(hands[EXTRA])
