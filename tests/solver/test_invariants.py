"""Properties every solve must have, on random full deals and endings of every form."""

from __future__ import annotations

import random

import pytest

from nines.cards import SUITS, deck_36, deck_52
from nines.solver import Position, Solver, make_position, position_from_deal, solve_many

from .reference import ALL_GAMES, ELYIGIT, NEUF3, NEUF_PARTNERS, Game, random_ending


def full_deal(game: Game, rng: random.Random, size: int | None = None) -> Position:
    size = size or {"elyigit": 9, "neuf": 13}[game.name]
    deck = deck_36() if game.name == "elyigit" else deck_52()
    cards = rng.sample(deck, size * len(game.seats))
    hands = {seat: cards[i * size : (i + 1) * size] for i, seat in enumerate(game.seats)}
    return make_position(game.name, hands, rng.choice([None, *SUITS]), rng.choice(game.seats), form=game.form)


def ending(game: Game, rng: random.Random, tricks: int) -> Position:
    hands, trump, leader, played = random_ending(game, rng, tricks, rng.randrange(len(game.seats)))
    return make_position(game.name, hands, trump, leader, played, form=game.form)


@pytest.mark.parametrize("game", [ELYIGIT, NEUF_PARTNERS], ids=["elyigit", "neuf-partners"])
def test_the_sides_share_the_tricks_left(game: Game) -> None:
    rng = random.Random(f"sum/{game.name}")
    solver = Solver(table_mb=16)
    for i in range(40):
        position = full_deal(game, rng, size=9 if game is ELYIGIT else 7) if i % 2 else ending(game, rng, 1 + i % 6)
        result = solver.solve(position)
        assert result.tricks["NS"] + result.tricks["EW"] == position.tricks_left
        assert 0 <= result.tricks["NS"] <= position.tricks_left


@pytest.mark.parametrize("game", ALL_GAMES, ids=lambda g: f"{g.name}-{g.form}")
def test_card_scores_agree_with_the_value(game: Game) -> None:
    """No card scores above the position's value for the side to play; the best card equals it."""
    rng = random.Random(f"scores/{game.name}/{game.form}")
    solver = Solver(table_mb=16)
    for i in range(25):
        position = ending(game, rng, 2 + i % 5)
        mover = position.to_play
        value = solver.value(position, position.side_of(mover))
        scores = solver.score_cards(position)
        assert scores, "the seat to play always has a legal card"
        assert max(scores.values()) == value, str(position)
        assert all(0 <= v <= value for v in scores.values())
        assert set(scores) <= set(position.hands[mover])


def test_paranoid_values_of_three_players_leave_at_least_the_tricks() -> None:
    """Each player's paranoid value is a guarantee, so the three together cannot exceed the tricks."""
    rng = random.Random("paranoid sum")
    solver = Solver(table_mb=16)
    for i in range(20):
        position = ending(NEUF3, rng, 2 + i % 6)
        result = solver.solve(position)
        assert sum(result.tricks.values()) <= position.tricks_left
        assert set(result.tricks) == {"S", "W", "E"}


@pytest.mark.parametrize("game", ALL_GAMES, ids=lambda g: f"{g.name}-{g.form}")
def test_a_position_gives_the_same_result_whatever_the_table_held(game: Game) -> None:
    """Solve A, then B, then A again in one solver; a tiny table (constant replacement),
    a fresh solver and a solver keying its table on every card all agree."""
    rng = random.Random(f"history/{game.name}/{game.form}")
    shared = Solver(table_mb=16)
    tiny = Solver(table_mb=0.01)
    for _ in range(6):
        a = ending(game, rng, 6 if game.name == "neuf" and game.form != "three" else 7)
        b = ending(game, rng, 6)
        first = shared.solve(a, scores=True)
        shared.solve(b, scores=True)
        again = shared.solve(a, scores=True)
        fresh = Solver(table_mb=16).solve(a, scores=True)
        small = tiny.solve(a, scores=True)
        exact_keys = Solver(table_mb=16, partition=False).solve(a)
        no_bounds = Solver(table_mb=16, bounds=False).solve(a)
        assert first.tricks == again.tricks == fresh.tricks == small.tricks == exact_keys.tricks == no_bounds.tricks, str(a)
        assert first.scores == again.scores == fresh.scores == small.scores


def test_the_table_never_grows_past_its_limit() -> None:
    rng = random.Random("memory")
    solver = Solver(table_mb=1)
    for _ in range(5):
        solver.solve(full_deal(NEUF_PARTNERS, rng, size=8))
        info = solver.info()
        assert info.table_bytes <= info.limit_bytes == 1024 * 1024
        assert info.active_bytes <= info.table_bytes
        assert info.entries > 0


@pytest.mark.parametrize(
    ("deal", "trump", "leader", "form", "side", "tricks"),
    [
        # the second-best trump (8 clubs, W) sits guarded just after the top one (10, S), but W is on
        # lead with nothing but trumps: it leads the 3, S wins with the 5, then the 10 drops the 8
        ("S:-.-.-.T5 -.-.-.83 95.-.-.-", "C", "W", None, "S", 2),
        ("S:94.-.-.- -.-.K7.- Q8.-.-.-", "S", "S", None, "S", 0),
        ("N:-.8.J93.- -.6.Q.KT -.-.7.J76 T.7.4.8", "C", "S", None, "NS", 1),
        ("N:-.8.J93.- -.6.Q.KT -.-.7.J76 T.7.4.8", "C", "S", "individual", "S", 1),
    ],
)
def test_a_guarded_second_trump_on_lead_is_no_sure_trick(
    deal: str, trump: str, leader: str, form: str | None, side: str, tricks: int
) -> None:
    # the bound "a guarded second-best trump behind the top one takes a trick" holds only while
    # its holder is not on lead (these positions were answered wrongly when it did not ask)
    position = position_from_deal("neuf", deal, trump, leader, form=form)
    assert Solver().value(position, side) == tricks


def test_the_tricks_a_search_completes_are_counted() -> None:
    # the count DDS reports as its search effort (benchmarks/dds_compare.py compares the two):
    # each completed trick is a card tried, beside the leads and the cards before the last
    position = position_from_deal("neuf", "N:A7.-.Q.A 62.-.-.95 J3.-.75.- K4.9.-.4", "S", "W")
    solver = Solver()
    assert solver.value(position, "NS") == 4
    info = solver.info()
    assert 0 < info.last_tricks < info.last_nodes


def test_an_unrelated_deal_starts_from_an_empty_table() -> None:
    rng = random.Random("clearing")
    solver = Solver(table_mb=8)
    first = full_deal(ELYIGIT, rng)
    solver.solve(first)
    assert solver.info().entries > 0
    solver.clear()
    assert solver.info().entries == 0
    # a continuation of the deal keeps the table; another deal empties it before solving
    solver.solve(first)
    kept = solver.info().entries
    solver.solve(first)
    assert solver.info().entries >= kept
    other = full_deal(ELYIGIT, rng, size=2)
    solver.solve(other)
    assert solver.info().entries < kept


def test_solve_many_matches_one_by_one_in_order() -> None:
    rng = random.Random("batch")
    positions = [full_deal(ELYIGIT, rng) for _ in range(24)] + [ending(NEUF3, rng, 5) for _ in range(6)]
    one = Solver()
    expected = [one.solve(p).tricks for p in positions]
    results = solve_many(positions, workers=2, progress=False)
    assert [r.tricks for r in results] == expected
    assert [r.position for r in results] == positions
    single = solve_many(positions[:3], workers=1, progress=True)
    assert [r.tricks for r in single] == expected[:3]


@pytest.mark.parametrize("game", ALL_GAMES, ids=lambda g: f"{g.name}-{g.form}")
def test_cutoffs_change_nothing_when_one_side_holds_the_cards(game: Game) -> None:
    """Where a side holds most top cards, without trumps, the sure-trick and later-trick
    cutoffs decide much of the search: they must give the answer of a search without them."""
    rng = random.Random(f"cutoffs/{game.name}/{game.form}")
    fast, plain = Solver(table_mb=8), Solver(table_mb=8, bounds=False)
    for _ in range(60):
        tricks = rng.randrange(3, 7)
        n = len(game.seats)
        # deal the highest cards of a random set to one seat and its partner first
        cards = sorted(rng.sample(game.deck, n * tricks), key=lambda c: -(game.number(c) % 13) + rng.random() * 6)
        strong = [s for s in game.seats if s in ("N", "S")] if game.form == "partners" else [rng.choice(game.seats)]
        order = strong + [s for s in game.seats if s not in strong]
        hands = {seat: cards[i * tricks : (i + 1) * tricks] for i, seat in enumerate(order)}
        trump = rng.choice([None, None, *SUITS])
        position = make_position(game.name, hands, trump, rng.choice(game.seats), form=game.form)
        side = position.side_of(strong[0])
        assert fast.value(position, side) == plain.value(position, side), str(position)


@pytest.mark.parametrize("game", ALL_GAMES, ids=lambda g: f"{g.name}-{g.form}")
def test_cutoffs_agree_with_a_plain_search_on_many_endings(game: Game) -> None:
    """The bounds are where a subtle mistake would hide (a bound that holds but is stored
    in the table for positions it does not hold in): compare with a search without them
    on endings of 2 to 7 tricks, from every place in the trick, all trump choices."""
    rng = random.Random(f"plain/{game.name}/{game.form}")
    fast, plain = Solver(table_mb=8), Solver(table_mb=8, bounds=False)
    for i in range(1500):
        hands, trump, leader, played = random_ending(game, rng, 2 + i % 6, i % len(game.seats))
        position = make_position(game.name, hands, trump, leader, played, form=game.form)
        side = position.sides[i % len(position.sides)]
        assert fast.value(position, side) == plain.value(position, side), f"{position} for {side}"


def test_a_partner_unblocks_a_long_suit_without_a_search() -> None:
    """N cashes six spades only if S plays the J, 9, 7, 3 and 2 under N's winners (keeping
    the lowest would block the suit): the sure-trick count knows that a partner follows
    with its highest card below the leader's, so the answer needs no search."""
    position = position_from_deal("neuf", "N:AKQT86... 5.AKQJT.. J9732.2.. 4..AKQJT.", "NT", "N", form="partners")
    solver = Solver(table_mb=8)
    assert solver.value(position, "NS") == 6
    assert solver.info().last_nodes <= 6  # a full search visits about 70 nodes
    assert Solver(table_mb=8, bounds=False).value(position, "NS") == 6


def test_the_last_search_s_nodes_are_read_without_walking_the_table() -> None:
    """``last_nodes`` is ``info().last_nodes`` (the reviews read it after every search; ``info`` counts the
    whole table's entries to say how full it is)."""
    position = position_from_deal("neuf", "N:AKQT86... 5.AKQJT.. J9732.2.. 4..AKQJT.", "NT", "N", form="partners")
    for bounds in (True, False):
        solver = Solver(table_mb=8, bounds=bounds)
        solver.value(position, "NS")
        assert solver.last_nodes == solver.info().last_nodes > 0
        solver.score_cards(position)
        assert solver.last_nodes == solver.info().last_nodes > 0
