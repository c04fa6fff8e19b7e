"""Every clause of the compulsory play rule, on hand-made tricks (seed 003, "Playing a card")."""

from __future__ import annotations

import pytest
from elyigit_helpers import card, cards, reference_allowed
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nines.cards import Suit, deck_36
from nines.games.elyigit import PRESETS, STRICT, PlayRules, legal_plays, trick_winner, why_not_playable

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS


def plays(hand: str, trick: str, trump: Suit | None, rules: PlayRules = STRICT) -> set[str]:
    return {c.code for c in legal_plays(cards(hand), cards(trick), trump, rules)}


# -- the lead --------------------------------------------------------------------------


def test_the_leader_may_lead_any_card():
    assert plays("9H 3H 5S AD", "", S) == {"9H", "3H", "5S", "AD"}


# -- clause 1: follow suit and beat the best card of the led suit ------------------------


def test_holding_the_led_suit_you_must_play_it_and_beat_it_when_you_can():
    assert plays("9H 3H 5S", "7H", S) == {"9H"}


def test_every_higher_card_of_the_led_suit_is_allowed_not_only_the_lowest():
    assert plays("9H 8H 3H", "7H", S) == {"9H", "8H"}


def test_holding_the_led_suit_but_nothing_higher_any_card_of_it():
    assert plays("3H 2H 9S", "7H", S) == {"3H", "2H"}


def test_the_ace_is_low():
    # the ace cannot beat a two; the three can and so must be played
    assert plays("AH 3H", "2H", None) == {"3H"}
    assert plays("AH", "2H", None) == {"AH"}
    assert trick_winner(cards("AH 2H"), None) == 1


def test_must_beat_the_best_card_of_the_led_suit_even_after_the_trick_is_trumped():
    # hearts led, spades trumps: the 2S has trumped, but holding a heart above the 7H
    # you must still play it (and it cannot win)
    assert plays("8H 3H", "7H 2S", S) == {"8H"}
    assert trick_winner(cards("7H 2S 8H"), S) == 1


def test_the_card_to_beat_is_the_best_of_the_led_suit_not_the_last_one():
    assert plays("8H 6H", "7H 5H", S) == {"8H"}


def test_no_exception_for_partner_you_take_the_trick_off_them():
    # partner led the 8H, the next opponent followed low; your 9H must overtake
    assert plays("9H 2H", "8H 4H", S) == {"9H"}


# -- clauses 2 to 4: trump, over-trump, under-trump -------------------------------------


def test_void_in_the_led_suit_you_must_trump():
    assert plays("2S 9D 9C", "7H", S) == {"2S"}


def test_any_trump_will_do_when_none_is_down():
    assert plays("2S 8S 9D", "7H", S) == {"2S", "8S"}


def test_a_trump_already_down_must_be_beaten_when_you_can():
    assert plays("8S 2S 9D", "7H 5S", S) == {"8S"}


def test_under_trump_when_you_cannot_beat_the_trump_down():
    assert plays("5S 2S 9D", "7H 8S", S) == {"5S", "2S"}


def test_over_trump_a_partners_trump_too():
    # partner trumped with the 5S; holding the 8S you must beat it
    assert plays("8S 9D", "7H 5S 6H", S) == {"8S"}


def test_trumps_led_are_followed_and_beaten_like_any_suit():
    assert plays("7S 3S 9H", "5S", S) == {"7S"}
    assert plays("3S 9H", "5S", S) == {"3S"}


def test_trumps_led_and_no_trump_in_hand_is_free():
    assert plays("9H 8D", "5S", S) == {"9H", "8D"}


# -- clause 5: free play, which cannot win ---------------------------------------------


def test_neither_led_suit_nor_trump_the_play_is_free_and_cannot_win():
    assert plays("9D 8C", "7H", S) == {"9D", "8C"}
    assert trick_winner(cards("7H 9D"), S) == 0
    assert trick_winner(cards("7H 3H 9D 8C"), S) == 0


def test_no_trumps_a_void_plays_freely():
    assert plays("9D 2S", "7H", None) == {"9D", "2S"}


def test_legal_plays_is_sorted_unique_and_never_empty():
    hand = cards("9H 3H 5S AD 3H")
    result = legal_plays(hand, cards("2H"), S)
    assert result == sorted(set(result))
    assert result


# -- the variants: relaxations other games of the family have -------------------------


def test_partner_exemption_following_suit_any_card_while_partner_wins():
    rules = PRESETS["partner-exemption"].play_rules
    # partner's 8H leads the trick: no need to overtake
    assert plays("9H 2H", "8H 4H", S, rules) == {"9H", "2H"}
    # partner's trump is winning (last to play): following the led suit, any heart
    assert plays("8H 3H", "7H 2S 4H", S, rules) == {"8H", "3H"}
    assert plays("8H 3H", "7H 2S 4H", S) == {"8H"}


def test_partner_exemption_void_plays_freely_while_partner_wins():
    rules = PRESETS["partner-exemption"].play_rules
    assert plays("2S 9D", "8H 4H", S, rules) == {"2S", "9D"}


def test_partner_exemption_does_not_apply_when_an_opponent_wins():
    rules = PRESETS["partner-exemption"].play_rules
    # the opponent's 9H beats partner's 8H: the full rule applies
    assert plays("2S 9D", "8H 9H", S, rules) == {"2S"}
    # second to play: nobody's partner has played yet
    assert plays("9H 2H", "8H", S, rules) == {"9H"}


def test_no_undertrump_variant_frees_a_player_who_cannot_overtrump():
    rules = PRESETS["no-undertrump"].play_rules
    assert plays("5S 2S 9D", "7H 8S", S, rules) == {"5S", "2S", "9D"}
    # but one who can over-trump still must
    assert plays("9S 2S 9D", "7H 8S", S, rules) == {"9S"}


def test_any_trump_variant():
    rules = PRESETS["any-trump"].play_rules
    assert plays("8S 2S 9D", "7H 5S", S, rules) == {"8S", "2S"}


def test_follow_suit_variant_is_whist():
    rules = PRESETS["follow-suit"].play_rules
    assert plays("9H 3H 5S", "7H", S, rules) == {"9H", "3H"}
    assert plays("2S 9D", "7H", S, rules) == {"2S", "9D"}


# -- the teaching messages ---------------------------------------------------------------


def why(c: str, hand: str, trick: str, trump: Suit | None, rules: PlayRules = STRICT) -> str | None:
    return why_not_playable(card(c), cards(hand), cards(trick), trump, rules)


def test_message_must_beat():
    assert why("3H", "9H 3H", "7H", S) == (
        "you hold a higher heart (9H) than the 7H on the table: you must beat it"
    )


def test_message_must_beat_even_when_trumped():
    assert why("3H", "8H 3H", "7H 2S", S).endswith("you must beat it even though the trick has been trumped")


def test_message_must_follow_suit():
    assert why("5S", "9H 3H 5S", "7H", S).startswith("hearts were led and you hold 9H 3H: you must follow suit")


def test_message_must_trump():
    assert why("9D", "2S 9D", "7H", S) == "you have no hearts, so you must trump: play one of your spades (2S)"


def test_message_must_overtrump():
    message = why("2S", "8S 2S", "7H 5S", S)
    assert message is not None and "the 5S has trumped: you hold a higher trump (8S), so you must beat it" in message


def test_message_must_undertrump():
    message = why("9D", "5S 9D", "7H 8S", S)
    assert message is not None and "cannot beat the 8S" in message and "under-trump" in message


def test_message_card_not_held():
    assert why("9C", "9H 3H", "7H", S) == "9C is not in the hand; playable: 9H"


def test_no_message_for_a_legal_card():
    assert why("9H", "9H 3H", "7H", S) is None


# -- the rule against an independent restatement, over many positions -----------------

DECK = deck_36()


@st.composite
def positions(draw):
    chosen = draw(st.lists(st.sampled_from(DECK), min_size=2, max_size=12, unique=True))
    trick_size = draw(st.integers(0, min(3, len(chosen) - 1)))
    trick, hand = chosen[:trick_size], chosen[trick_size:][:9]
    trump = draw(st.sampled_from([S, H, D, C, None]))
    return hand, trick, trump


@settings(max_examples=600, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_legal_plays_matches_the_seed_rule_restated(position):
    hand, trick, trump = position
    expected = {c for c in hand if reference_allowed(c, hand, trick, trump)}
    got = legal_plays(hand, trick, trump)
    assert set(got) == expected
    assert got, "some card is always playable"
    for c in hand:
        reason = why_not_playable(c, hand, trick, trump)
        assert (reason is None) == (c in expected)


@settings(max_examples=250, derandomize=True, deadline=None)
@given(positions(), st.sampled_from(sorted(PRESETS)))
def test_every_variant_only_relaxes_the_seed_rule(position, preset):
    hand, trick, trump = position
    strict = set(legal_plays(hand, trick, trump))
    relaxed = set(legal_plays(hand, trick, trump, PRESETS[preset].play_rules))
    assert strict <= relaxed
    # every variant still follows suit
    if trick and any(c.suit == trick[0].suit for c in hand):
        assert all(c.suit == trick[0].suit for c in relaxed)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_presets_build_their_play_rules(preset):
    assert isinstance(PRESETS[preset].play_rules, PlayRules)
