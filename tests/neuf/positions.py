"""Hand-made Le Neuf positions for the rule tests."""

from nines.cards import deck_52, parse_hand
from nines.games.neuf import NeufOptions, NeufState, PresetDeal


def three_hands(s: str, w: str, e: str, spare: str | None = None):
    """Three hands in notation; the spare hand gets the 13 cards nobody holds."""
    hands = {"S": parse_hand(s), "W": parse_hand(w), "E": parse_hand(e)}
    used = {c for h in hands.values() for c in h}
    rest = parse_hand(spare) if spare else [c for c in deck_52() if c not in used]
    return hands, rest


def position(s, w, e, *, dealer="E", spare=None, **options) -> NeufState:
    hands, rest = three_hands(s, w, e, spare)
    return NeufState(NeufOptions(**options), seed=1, preset_deal=PresetDeal(dealer, hands, rest))


# A full deal: S holds all spades, W all hearts, E all diamonds, the spare all clubs.
SUITED = {"s": "AKQJT98765432...", "w": ".AKQJT98765432..", "e": "..AKQJT98765432."}
