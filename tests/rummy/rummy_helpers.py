"""Hand-made Nines rummy positions and the invariants every position must keep."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from operator import attrgetter

from nines.cards import Card, parse_cards
from nines.games.rummy import PresetHand, RummyOptions, RummyState
from nines.games.rummy.deal import pack
from nines.games.rummy.melds import HIGH_ACE, LOW_ACE, card_at, read_monkey

DEFAULT_STOCK = "5D 6D 7D 8D"


def position(
    dealt: dict[str, str],
    *,
    indicator: str = "4C",
    pile: str = "2C",
    stock: str = DEFAULT_STOCK,
    table: tuple[tuple[str, str], ...] = (),
    opened: tuple[str, ...] = (),
    turn: int | None = None,
    to_act: str | None = None,
    held: dict[str, str] | None = None,
    starter: str = "1",
    **options: object,
) -> RummyState:
    """A state with the given hands (seats ``"1"``...), past the first round unless ``turn`` says otherwise."""
    players = len(dealt)
    opts = RummyOptions(players=players, **options)  # type: ignore[arg-type]
    preset = PresetHand(
        starter=starter,
        hands={seat: parse_cards(text) for seat, text in dealt.items()},
        indicator=indicator,
        discard_pile=parse_cards(pile),
        stock=parse_cards(stock),
        table=table,
        opened=opened,
        turn=players if turn is None else turn,
        to_act=to_act,
        held={seat: parse_cards(text) for seat, text in (held or {}).items()},
    )
    return RummyState(opts, seed=1, preset=preset)


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def _keys(cards: list[Card]) -> Iterator[tuple[int, int]]:
    # a card as the identities of its (singleton) rank and suit members: counted without a
    # single Python-level call per card, so the check can run at every step
    return zip(map(id, map(_RANK, cards)), map(id, map(_SUIT, cards)), strict=True)


_RANK, _SUIT = attrgetter("rank"), attrgetter("suit")
_PACKS = {decks: Counter(_keys(pack(decks))) for decks in (1, 2)}


def accounted(state: RummyState) -> Counter[tuple[int, int]]:
    """Every card of the hand in progress: hands, table, stock, discard pile and the indicator."""
    deal = state.deal
    everything = [card for hand in deal.hands.values() for card in hand]
    everything += deal.table.cards() + deal.stock + deal.discard_pile + [deal.indicator]
    return Counter(_keys(everything))


def check_cards(state: RummyState) -> None:
    """Hands + table + stock + discards + indicator are exactly the pack."""
    # (plain dict equality: no card is ever counted zero times here)
    assert dict.__eq__(accounted(state), _PACKS[state.options.deck_count]), "cards lost or made"


def check_table(state: RummyState) -> None:
    """Every set on the table is a legal run or monkey, and at most one per suit or rank."""
    deal = state.deal
    wilds = deal.wilds
    runs, monkeys = [], []
    for table_set in deal.table:
        for p in table_set.placements:
            assert not p.stands_for.is_joker
            assert p.is_natural or wilds.is_wild(p.card), (table_set.id, p.text)
        if table_set.kind == "run":
            runs.append(table_set.suit)
            assert table_set.suit is not None and table_set.id == table_set.suit.value
            assert LOW_ACE <= table_set.low <= table_set.high <= HIGH_ACE
            assert table_set.high - table_set.low + 1 == len(table_set.placements) >= 3
            expected = [card_at(table_set.suit, pos) for pos in range(table_set.low, table_set.high + 1)]
            assert [p.stands_for for p in table_set.placements] == expected
        else:
            monkeys.append(table_set.rank)
            assert state.options.two_decks
            shape = read_monkey(table_set.placements)
            assert shape.rank is table_set.rank and table_set.id == shape.rank.char
    assert len(runs) == len(set(runs)) <= 4
    assert len(monkeys) == len(set(monkeys))
    if monkeys:
        assert len(runs) == 4
