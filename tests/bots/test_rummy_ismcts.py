"""The rummy ``ismcts`` player, its race through imagined deals, and its reading of the opponents."""

import random
from collections import Counter

from nines.bots import make_player, play_match
from nines.bots.expert_rummy import RummyReading
from nines.bots.ismcts_rummy import RaceBudget, RummyIsmcts
from nines.bots.rummy_race import UNOPENED_POINTS, Progress, Runner, race, shape_of
from nines.bots.rummy_reading import FITS_TABLE, PASSED_NEXT, OpponentReading, neighbours
from nines.bots.rummy_worlds import sample_world
from nines.cards import Rank, parse_card, parse_cards
from nines.games.rummy import Discard, Draw, RummyOptions, RummyState, parse_rummy_action
from nines.games.rummy.deal import pack

from ..rummy.rummy_helpers import position


def _wild(rank):
    return lambda card: card.rank is None or card.rank is rank


def _c(code):
    return parse_card(code)


def test_neighbours_follow_the_suit_with_the_ace_at_both_ends():
    assert {c.code for c in neighbours(_c("7H"), 1)} == {"6H", "8H"}
    assert {c.code for c in neighbours(_c("7H"), 2)} == {"5H", "9H"}
    assert {c.code for c in neighbours(_c("AS"), 1)} == {"2S", "KS"}
    assert {c.code for c in neighbours(_c("KS"), 1)} == {"QS", "AS"}


def test_the_race_is_won_by_the_first_hand_that_can_go_out():
    is_wild = _wild(Rank.FIVE)
    runs = ()
    # player 0 needs the 9H (on its second draw); player 1 is hopeless and has not opened
    p0 = Runner(shape_of(parse_cards("6H 7H 8H TH KC"), is_wild), 5, False, parse_cards("2S 9H 3S"))
    p1 = Runner(shape_of(parse_cards("2D 4C 9S JD QC"), is_wild), 5, False, parse_cards("3D 4S 6S"))
    result = race([Progress(p0, runs, is_wild), Progress(p1, runs, is_wild)])
    assert result == [0.0, UNOPENED_POINTS]
    # with the 9H one draw later than player 1 could finish, player 1 wins instead
    p1_fast = Runner(shape_of(parse_cards("2D 3D 4D 6D QC"), is_wild), 5, False, parse_cards("KS 5S"))
    p0_slow = Runner(shape_of(parse_cards("6H 7H 8H TH KC"), is_wild), 5, False, parse_cards("2S 3S 9H"))
    result = race([Progress(p1_fast, runs, is_wild), Progress(p0_slow, runs, is_wild)])
    assert result[0] == 0.0 and result[1] == UNOPENED_POINTS


def _after_moves(dealt, moves, **kwargs):
    """A position, then the given moves (text) played by whoever is to act."""
    state = position(dealt, **kwargs)
    for text in moves:
        state.apply(state.parse_action(text))
    return state


def test_reading_a_pass_over_and_a_pick_up():
    # seat 2 passes over the 8H (draws from the stock), throws the KC; then seat 1 throws the 4S, and seat 2 takes it
    state = _after_moves(
        {"1": "2C 3C 9D TD QS 4S KD", "2": "6C 7C JS JH 2D 3D KH"},
        ["draw stock", "discard KC", "draw stock", "discard 4S", "draw discard", "discard JH", "draw stock", "discard QS"],
        pile="8H", stock="KC 5S 9C 8C", to_act="2", starter="2",
    )
    reading = OpponentReading(state.view("1"))
    seat = reading.seats["2"]
    assert seat.weight(_c("9H")) < seat.weight(_c("9S")) < seat.weight(_c("3S"))  # passed over; took the 4S
    assert seat.weight(_c("7H")) < 1 and seat.weight(_c("3S")) > 1
    assert any("passed over 8H" in note for note in seat.notes) and any("took 4S" in note for note in seat.notes)


def test_a_suit_they_keep_discarding_and_a_suit_they_stopped_discarding():
    moves = [
        "draw stock", "discard KC",  # seat 2 throws clubs...
        "draw stock", "discard QS",
        "draw stock", "discard 9C",
        "draw stock", "discard QD",
        "draw stock", "discard 2D",  # ...then diamonds and a spade, and no more clubs
        "draw stock", "discard KD",
        "draw stock", "discard JS",
        "draw stock", "discard 9S",
        "draw stock", "discard 3D",
    ]
    state = _after_moves(
        {"1": "2C 3C 9S TS QS QD KD", "2": "KC 9C 2D 3D 7H 8H JS"},
        moves, pile="4H", stock="5S 6S 7S 8S 4S 3S 2S 5H 6H 2H", to_act="2", starter="2",
    )
    seat = OpponentReading(state.view("1")).seats["2"]
    # diamonds: still discarding, the whole suit is marked; clubs: no longer marked
    assert seat.weight(_c("9D")) < 1 and seat.weight(_c("5C")) == 1
    # and what the 9C said about its neighbours has faded with the five stock cards drawn since
    assert 1 - PASSED_NEXT > 1 - seat.weight(_c("8C")) > 0
    assert any("keeps discarding diamonds" in note for note in seat.notes)
    assert not any("clubs" in note for note in seat.notes)


def test_an_opened_opponent_does_not_sit_on_cards_that_fit_the_table():
    state = position(
        {"1": "2C 3C 9S TS QS QD KD", "2": "2D 3D 7H"}, table=(("2", "4S 5S 6S 7S"),), opened=("2",),
        pile="4H", stock="5D 6D 7D",
    )
    seat = OpponentReading(state.view("1")).seats["2"]
    assert seat.weight(_c("8S")) == FITS_TABLE and seat.weight(_c("3S")) == FITS_TABLE
    assert seat.weight(_c("9S")) == 1.0


def test_worlds_keep_the_known_cards_and_weight_the_rest():
    state = _after_moves(
        {"1": "2C 3C 9D TD QS 4S KD", "2": "6C 7C JS JH 2D 3D KH"},
        ["draw stock", "discard KC", "draw stock", "discard 4S", "draw discard", "discard JH", "draw stock", "discard QS"],
        pile="8H", stock="KC 5S 9C 8C", to_act="2", starter="2",
    )
    view = state.view("1")
    reading = RummyReading(view)
    opponents = OpponentReading(view)
    rng = random.Random(4)
    counts = Counter()
    for _ in range(400):
        world = sample_world(reading, opponents, rng)
        hand = world.hands["2"]
        assert len(hand) == view.hand_sizes["2"] and _c("4S") in hand
        # the stock (here all the cards the hand-made position left unused), then the pile to rebuild it from
        dealt = len(world.stock) - (len(view.discard_pile) - 1)
        assert Counter(hand) + Counter(world.stock[:dealt]) == reading.unseen + reading.known["2"]
        assert Counter(world.stock[dealt:]) == Counter(view.discard_pile[:-1])
        counts.update(hand)
    assert counts[_c("3S")] > counts[_c("9S")] > counts[_c("9H")]  # next to the card they took, against next to the one passed over


def _feeding_position(passed: str, buried: str):
    """Seat 1 lays its clubs and must throw a seven, 7H or 7S (both dead to it): then it holds one card.

    Seven cards are unseen to seat 1: 6H 8H 6S 8S and three clubs; seat 2 (opened) holds four
    of them.  The 7H feeds seat 2 a run if it holds 6H and 8H, the 7S if it holds 6S and 8S.
    Seat 2 drew from the stock with ``passed`` on top of the pile; ``buried`` lies under it
    with every other card of the pack.
    """
    used = parse_cards("2C 3C 4C 5C 6C 7H 7S 6H 8H 6S 8S KC QC JC TC 4D 5D 6D 7D 8D KS") + [_c(passed)]
    rest = [c for c in pack(1) if c not in used and c != _c(buried)]
    state = _after_moves(
        {"1": "2C 3C 4C 5C 6C 7H", "2": "6H 8H KC QC"},
        ["draw stock", "discard QC", "draw stock"],
        indicator="KS", pile=" ".join(c.code for c in rest + [_c(buried), _c(passed)]), stock="JC 7S 6S 8S TC",
        table=(("2", "4D 5D 6D 7D 8D"),), opened=("2",), to_act="2", starter="2",
    )
    player = RummyIsmcts(random.Random(5), RaceBudget(worlds=200))
    while True:
        decision = player.decide(state.view("1"))
        if isinstance(decision.action, Discard):
            return decision, player.last_discards
        state.apply(decision.action)


def test_the_discard_keeps_away_from_the_suit_the_next_player_passed_over():
    # the pile shows both nines either way; only the pass-over tells the suits apart: after
    # passing over the 9H, seat 2 is unlikely to hold the 8H that the 7H would join
    hearts, seen = _feeding_position(passed="9H", buried="9S")
    assert hearts.action == Discard(_c("7H")), hearts.reason
    assert seen[_c("7H")][2] < seen[_c("7S")][2]  # fed to seat 2 in fewer imagined deals
    spades, seen = _feeding_position(passed="9S", buried="9H")
    assert spades.action == Discard(_c("7S")), spades.reason
    assert seen[_c("7S")][2] < seen[_c("7H")][2]


def _pick_up_position(taken: str, buried: str):
    """Seat 1 lays its clubs and must throw 7H or 7S; seat 2 (opened) took ``taken`` from the pile.

    Unseen to seat 1: 6H 9H 6S 9S and three clubs; seat 2 holds the card it took and three of
    them.  ``buried`` (the other eight) lies in the pile with every other card of the pack.
    """
    used = parse_cards("2C 3C 4C 5C 6C 7H 7S 6H 9H 6S 9S KC QC JC TC 4D 5D 6D 7D 8D KS") + [_c(taken)]
    rest = [c for c in pack(1) if c not in used and c != _c(buried)]
    state = _after_moves(
        {"1": "2C 3C 4C 5C 6C 7H", "2": "6H 9H KC QC"},
        ["draw discard", "discard QC", "draw stock"],
        indicator="KS", pile=" ".join(c.code for c in rest + [_c(buried), _c(taken)]), stock="7S 6S 9S JC TC",
        table=(("2", "4D 5D 6D 7D 8D"),), opened=("2",), to_act="2", starter="2",
    )
    player = RummyIsmcts(random.Random(6), RaceBudget(worlds=100, reading="none"))
    while True:
        decision = player.decide(state.view("1"))
        if isinstance(decision.action, Discard):
            return decision
        state.apply(decision.action)


def test_the_discard_keeps_away_from_a_card_the_next_player_picked_up():
    # seat 2 took the 8H: the 7H would join it (with the 6H or the 9H it may hold); the 7S is safe
    assert _pick_up_position(taken="8H", buried="8S").action == Discard(_c("7S"))
    assert _pick_up_position(taken="8S", buried="8H").action == Discard(_c("7H"))


def test_ismcts_takes_the_top_discard_that_completes_an_opening():
    state = position(
        {"1": "6H 7H 8H KS 2D 3C JC", "2": "2S 3D 4H 9C TD QC AH"}, indicator="4C", pile="9H", stock="QD 5D 6D 7D 8D",
    )
    decision = RummyIsmcts(random.Random(1)).decide(state.view("1"))
    assert decision.action == Draw("discard") and decision.reason.startswith("take 9H: I go out first in")


def test_ismcts_plays_whole_sessions_legally_at_four_and_six_players():
    for players, seed in ((4, 3), (6, 4)):
        state = RummyState(RummyOptions(players=players, hands=1), seed=seed)
        seats = {s: (make_player("ismcts", "rummy", random.Random(i)) if i == 0 else make_player("basic", "rummy"))
                 for i, s in enumerate(state.seats)}
        play_match(state, seats)  # raises on an illegal move
        assert state.is_over and len(state.score_sheet()) == 1


def test_the_rummy_players_by_name():
    expert = make_player("expert", "rummy", random.Random(1))
    ismcts = make_player("ismcts", "rummy", random.Random(1))
    planner = make_player("planner", "rummy", random.Random(1))
    assert (expert.name, ismcts.name, planner.name) == ("expert", "ismcts", "planner")
    state = position(
        {"1": "6H 7H 8H KS 2D 3C JC", "2": "2S 3D 4H 9C TD QC AH"}, indicator="4C", pile="9H", stock="QD 5D 6D 7D 8D",
    )
    for player in (expert, ismcts, planner):
        decision = player.decide(state.view("1"))
        assert decision.action == Draw("discard") and decision.reason and "\n" not in decision.reason


def test_the_race_players_end_a_hand_without_caps():
    # the seed's rules: the stock rebuilt as often as it runs out, no turn limit; a hand ends only when someone goes out
    state = RummyState(RummyOptions(players=2, hands=1, reshuffles=None, turns_per_player=None), seed=1)
    seats = {s: make_player(name, "rummy", random.Random(i)) for i, (s, name) in enumerate(zip(state.seats, ("expert", "ismcts"), strict=True))}
    play_match(state, seats, max_actions=5000)
    assert state.deals[-1].result["ended_by"] == "out"


def swap_position(opened: tuple[str, ...]) -> RummyState:
    """The 5D on the pile is the card the joker in seat 2's diamond run stands for."""
    return position(
        {"1": "7H 8H 9H 2S 5S KC QC JS", "2": "2H 3H QS KS AS"}, indicator="JC",
        pile="9C 5D", stock="QD 3C 4H JH 8C 6S TH 2D AC",
        table=(("2", "4D JK=5D 6D 7D"),), opened=opened,
    )


def test_a_card_a_table_wild_stands_for_counts_as_a_wild_in_the_race():
    # seat 1 has opened; the 5D on the pile is the card the joker on the table stands for, so
    # taking it and swapping gives seat 1 a wild: the race sees it only when it counts swaps
    state = swap_position(opened=("1", "2"))
    view = state.view("1")
    blind = RummyIsmcts(random.Random(3), RaceBudget(worlds=48)).decide(view)
    seeing = RummyIsmcts(random.Random(3), RaceBudget(worlds=48, swaps=True)).decide(view)
    assert blind.action == Draw("stock"), blind.reason
    assert seeing.action == Draw("discard"), seeing.reason
    # before opening no swap is allowed: the 5D is no wild to a player who has not opened
    closed = swap_position(opened=("2",))
    player = RummyIsmcts(random.Random(3), RaceBudget(worlds=48, swaps=True))
    assert player._racing_wild(RummyReading(closed.view("1")))(False)(_c("5D")) is False
    assert player._racing_wild(RummyReading(closed.view("1")))(True)(_c("5D")) is True


def test_the_expert_counts_swaps_and_ismcts_does_not():
    state = swap_position(opened=("1", "2"))
    view = state.view("1")
    assert make_player("expert", "rummy", random.Random(3)).decide(view).action == Draw("discard")
    assert make_player("ismcts", "rummy", random.Random(3)).decide(view).action == Draw("stock")


def _hold_back_position(taken: str, opponent_opened: bool = True) -> RummyState:
    """Seat 1 (opened, clubs on the table) has drawn the 2D and could lay 5H 6H 7H; JS QS wait for a spade.

    Seat 2 holds two cards: ``taken``, which it took from the pile in view of seat 1, and one unseen;
    it opened with the diamonds (unless ``opponent_opened`` is false: then seat 1 laid both runs).
    Laid, the hearts run would take an 8H at its end; kept in hand, it claims nothing yet.
    """
    used = parse_cards("5H 6H 7H JS QS 2D KS QC 2C 3C 4C 5C 4D 5D 6D 7D 8D KD") + [_c(taken)]
    rest = [c for c in pack(1) if c not in used]
    random.Random(0).shuffle(rest)
    state = _after_moves(
        {"1": "5H 6H 7H JS QS", "2": "KS QC"},
        ["draw discard", "discard QC", "draw stock"],
        indicator="KD", table=(("1", "2C 3C 4C 5C"), ("2" if opponent_opened else "1", "4D 5D 6D 7D 8D")),
        opened=("1", "2") if opponent_opened else ("1",),
        pile=" ".join(c.code for c in rest[:10] + [_c(taken)]), stock=" ".join(["2D"] + [c.code for c in rest[10:]]),
        to_act="2", starter="2",
    )
    assert state.view("1").legal[0] == "lay 5H 6H 7H"
    return state


def test_hold_back_keeps_a_run_that_would_give_the_opened_opponent_its_card():
    # seat 2 took the 8H: laying the hearts run lets it extend the 8H and go out; kept back, the run
    # costs 18 points if seat 2 goes out first, and seat 1 goes out itself with a spade
    view = _hold_back_position(taken="8H").view("1")
    for seed in range(3):
        holding = RummyIsmcts(random.Random(seed), RaceBudget(worlds=96, swaps=True, hold_back=True)).decide(view)
        assert isinstance(holding.action, Discard), holding.reason
    # the planner's rule, which the expert follows without hold_back, lays every run it can
    laying = RummyIsmcts(random.Random(1), RaceBudget(swaps=True)).decide(view)
    assert laying.action == parse_rummy_action("lay 5H 6H 7H"), laying.reason


def test_hold_back_lays_a_run_the_opponent_cannot_use():
    # seat 2 took the 8S instead: nothing it is known to hold fits the hearts run's ends
    view = _hold_back_position(taken="8S").view("1")
    for seed in range(3):
        decision = RummyIsmcts(random.Random(seed), RaceBudget(worlds=96, swaps=True, hold_back=True)).decide(view)
        assert decision.action == parse_rummy_action("lay 5H 6H 7H"), decision.reason
    # and while no opponent has opened, no run is held back: an opponent who has not opened cannot use the table
    view = _hold_back_position(taken="8H", opponent_opened=False).view("1")
    assert view.opened == ("1",)
    decision = RummyIsmcts(random.Random(1), RaceBudget(swaps=True, hold_back=True)).decide(view)
    assert decision.action == parse_rummy_action("lay 5H 6H 7H"), decision.reason
