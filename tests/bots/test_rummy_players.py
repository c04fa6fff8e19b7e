"""The rummy expert: its hand plan, and the draws, set plays and discards it makes."""

import random
from collections import Counter

from nines.bots import make_player, play_match
from nines.bots.expert_rummy import RummyBudget, RummyExpert, RummyReading, _next_draws
from nines.bots.rummy_plan import TableRun, first_finish, plan
from nines.cards import Rank, parse_cards
from nines.games.rummy import Discard, Draw, Extend, Lay, RummyOptions, RummyState

from ..rummy.rummy_helpers import position


def _wild(rank):
    return lambda card: card.rank is None or card.rank is rank


def test_plan_fits_runs_with_wilds_and_needs_four_to_open():
    is_wild = _wild(Rank.FIVE)
    three = parse_cards("7H 8H 9H KS 2D")
    assert plan(three, is_wild, {}, opened=True).dead == 2
    unopened = plan(three, is_wild, {}, opened=False)
    assert not unopened.can_open and unopened.dead == 5
    with_wild = parse_cards("7H 8H 9H JK 2D")
    assert plan(with_wild, is_wild, {}, opened=False).can_open
    assert plan(with_wild, is_wild, {}, opened=False).dead == 1
    # a gap filled by a wild (the 5C is wild here), and the ace high above a king
    assert plan(parse_cards("JS QS 5C AS 3D"), is_wild, {}, opened=True).dead == 1


def test_plan_extends_table_runs_only_at_their_ends_and_one_run_per_suit():
    is_wild = _wild(Rank.FIVE)
    hearts_on_table = {1: TableRun(1, 6, 8)}  # 6H 7H 8H on the table
    hand = parse_cards("9H TH 2H 3H 4H")
    # 9H TH extend it; 2H 3H 4H cannot be a second heart run
    assert plan(hand, is_wild, hearts_on_table, opened=True).dead == 3
    assert plan(hand, is_wild, {}, opened=True).dead == 2  # without the table run: the best one run


def test_first_finish_is_the_draw_that_lets_the_hand_go_out():
    is_wild = _wild(Rank.FIVE)
    hearts_on_table = {1: TableRun(1, 6, 8)}
    hand = parse_cards("JS QS 2D")  # after this turn's discard: three cards to place, one to throw
    # KS makes JS QS KS; the 2D is thrown as the last card
    assert first_finish(hand, parse_cards("3C KS"), is_wild, hearts_on_table, opened=True) == 2
    # 9H extends the table's hearts but leaves 2D and one spade too many
    assert first_finish(hand, parse_cards("9H 4C"), is_wild, hearts_on_table, opened=True) is None
    # a wild (the 5C) fills the run at once
    assert first_finish(hand, parse_cards("5C"), is_wild, hearts_on_table, opened=True) == 1
    # before opening, the same cards must make a run of four first
    assert first_finish(hand, parse_cards("KS"), is_wild, {}, opened=False) is None
    assert first_finish(hand, parse_cards("KS AS"), is_wild, {}, opened=False) == 2


def test_expert_takes_a_wild_from_the_discard_pile():
    state = position(
        {"1": "2S 7D 9C KH QD 3C 8S", "2": "4H 4S 6C 9D TD JC AH"}, indicator="4C", pile="2C 5H", stock="KC KD QC",
    )
    decision = RummyExpert(random.Random(1)).decide(state.view("1"))
    assert decision.action == Draw("discard") and "wild" in decision.reason


def test_expert_opens_when_it_can_and_goes_out():
    state = position(
        {"1": "6H 7H 8H 9H KS", "2": "2S 3D 4H 9C TD JC AH"}, indicator="4C", pile="2C", stock="QD 5D 6D 7D 8D",
    )
    expert = RummyExpert(random.Random(1))
    state.apply(expert.decide(state.view("1")).action)  # draws
    decision = expert.decide(state.view("1"))
    assert isinstance(decision.action, Lay) and "open with" in decision.reason
    state.apply(decision.action)
    while state.to_act == "1" and not state.is_over:
        decision = expert.decide(state.view("1"))
        state.apply(decision.action)
    assert isinstance(decision.action, Discard)
    assert len(state.view("1").hand) <= 2


def test_expert_discards_the_card_that_fits_nothing():
    state = position(
        {"1": "6H 7H 8H 9H 3C 4C KS", "2": "2S 3D 4H 9C TD JC AH"}, opened=(), indicator="TS", pile="2C",
        stock="QD 5D 6D 7D 8D",
    )
    expert = RummyExpert(random.Random(2), RummyBudget(opponent_samples=4))
    state.apply(Draw("stock"))
    while True:
        decision = expert.decide(state.view("1"))
        if isinstance(decision.action, Discard):
            break
        state.apply(decision.action)
    assert decision.action.card.code not in ("3C", "4C")  # the makings of a club run are kept


def test_expert_extends_the_opponents_runs_once_opened():
    state = position(
        {"1": "TH 2S 2C 3C 4C 5C", "2": "2D 3D 9C TD JC AH KC"}, indicator="8S", pile="KD",
        table=(("2", "6H 7H 8H 9H"),), opened=("2",), stock="QD 5D 6D 7D 8D",
    )
    expert = RummyExpert(random.Random(3))
    state.apply(Draw("stock"))
    actions = []
    while state.to_act == "1" and not state.is_over:
        decision = expert.decide(state.view("1"))
        actions.append(decision.action)
        state.apply(decision.action)
    assert any(isinstance(a, Lay) for a in actions) and any(isinstance(a, Extend) and a.set_id == "H" for a in actions)


def test_expert_finishes_sessions_and_beats_random():
    state = RummyState(RummyOptions(players=2, hands=None), seed=6)  # one hand per player
    players = {"1": RummyExpert(random.Random(1)), "2": make_player("random", "rummy", random.Random(2))}
    play_match(state, players)
    points = [d["result"]["points"] for d in state.record()["deals"]]
    assert sum(p["1"] for p in points) < sum(p["2"] for p in points)


def test_plan_reads_aces_at_either_end_and_second_copies_as_dead():
    is_wild = _wild(Rank.FIVE)
    # the ace is high above a king and low below a two, never both in one run
    assert plan(parse_cards("QH KH AH"), is_wild, {}, opened=True).dead == 0
    assert plan(parse_cards("AH 2H 3H"), is_wild, {}, opened=True).dead == 0
    assert plan(parse_cards("KH AH 2H"), is_wild, {}, opened=True).dead == 3
    # a second copy of a card (two decks) cannot join the same run
    assert plan(parse_cards("7H 8H 9H 9H"), is_wild, {}, opened=True).dead == 1
    # the same shape asked twice (the answer is remembered) plans the same, whatever the card order
    first = plan(parse_cards("JK 2D 7H 8H"), is_wild, {1: TableRun(1, 9, 11)}, opened=True)
    again = plan(parse_cards("8H 7H 2D JK"), is_wild, {1: TableRun(1, 9, 11)}, opened=True)
    assert first == again and first.dead == 1


def _opponent_differs(opponent: str, stock: str):
    return position(
        {"1": "6H 7H 8H 9H 3C 4C KS", "2": opponent}, indicator="TS", pile="2C", stock=stock,
    )


def test_expert_decides_from_the_view_only():
    # the same view for seat 1, with the opponent's hand and the stock order changed
    first = _opponent_differs("2S 3D 4H 9C TD JC AH", "QD 5D 6D 7D 8D")
    second = _opponent_differs("5S 6S 7S 9D TD QC KC", "QD 8D 7D 6D 5D")
    for state in (first, second):
        state.apply(Draw("stock"))  # QD in both
    views = [state.view("1") for state in (first, second)]
    assert views[0] == views[1]
    decisions = [RummyExpert(random.Random(9)).decide(view) for view in views]
    assert decisions[0] == decisions[1]


def test_seeded_expert_replays_a_match_exactly():
    records = []
    for _ in range(2):
        state = RummyState(RummyOptions(players=2, hands=None), seed=21)  # one hand per player
        players = {"1": RummyExpert(random.Random(4)), "2": make_player("basic", "rummy", random.Random(5))}
        play_match(state, players)
        records.append(state.record())
    assert records[0] == records[1]


def test_discard_look_ahead_uses_the_pile_when_every_unseen_card_is_known():
    state = position({"1": "6H 7H 8H 9H 3C 4C KS", "2": "2S 3D 4H 9C TD JC AH"}, indicator="TS", pile="2C QD")
    reading = RummyReading(state.view("1"))
    assert sum(reading.unseen.values()) > 0 and _next_draws(reading) == reading.unseen
    reading.unseen = Counter()
    # the stock will be rebuilt from the discard pile: the next draw comes from there
    assert _next_draws(reading) == Counter(parse_cards("2C QD"))
