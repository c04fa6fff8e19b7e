"""Planning a Nines rummy hand: which cards can end up in runs, and which are dead weight.

The ``expert`` rummy player has no exact solver to lean on; it judges a hand by how
many of its cards cannot be fitted into runs with the wilds it holds ("dead" cards:
each must eventually be discarded, one a turn, and each costs points if someone goes
out first), and looks one draw ahead by averaging that judgement over the unseen cards.

The plan follows the rules of runs (RULES.md, "Nines rummy"):

* a run is a stretch of consecutive positions in one suit (1 is the low ace, 14 the high
  ace), and only one run of each suit may exist on the table, so each suit holds at
  most one new run, and a suit already run on the table takes cards only at its ends;
* a player's first set must hold four cards, later new runs three; table runs can be
  extended only after opening;
* a wild (printed joker or a card of the wild rank) stands in for any missing card,
  and once a run exists a spare wild can always extend one.

Monkeys (two-deck games only) are not planned for: the plan is then pessimistic about
cards of one rank, never wrong about what may be laid (the engine decides that).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..cards import Card, Rank

LOW_ACE, HIGH_ACE = 1, 14
OPENING_MIN = 4
RUN_MIN = 3


def positions(rank: Rank) -> tuple[int, ...]:
    """Run positions of a rank: the ace is 1 or 14."""
    return (LOW_ACE, HIGH_ACE) if rank is Rank.ACE else (rank.value,)


@dataclass(frozen=True)
class TableRun:
    """A run on the table, by the positions it covers."""

    suit: int
    low: int
    high: int


def _best_free_run(points: Sequence[int], wilds: int, min_len: int) -> int:
    """Most naturals (positions, sorted, distinct) one new run can hold with at most ``wilds`` wilds."""
    best = 0
    n = len(points)
    for i in range(n):
        for j in range(i, n):
            span = points[j] - points[i] + 1
            count = j - i + 1
            gaps = span - count  # wilds filling the missing ranks inside
            if gaps > wilds:
                break
            if gaps + max(0, min_len - span) <= wilds:  # and padding the ends to the minimum length
                best = max(best, count)
    return best


def _best_extension(points: Sequence[int], run: TableRun, wilds: int) -> int:
    """Most naturals that can extend a table run at its two ends with at most ``wilds`` wilds."""
    above = [p for p in points if p > run.high]
    below = sorted((p for p in points if p < run.low), reverse=True)
    best = 0
    for up in range(len(above) + 1):
        need_up = (above[up - 1] - run.high - up) if up else 0
        if need_up > wilds:
            break
        for down in range(len(below) + 1):
            need_down = (run.low - below[down - 1] - down) if down else 0
            if need_up + need_down > wilds:
                break
            best = max(best, up + down)
    return best


def _suit_points(mask: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A suit's positions (bit ``p`` of ``mask`` for position ``p``, the ace as 1) with the ace low, and high."""
    low = tuple(p for p in range(LOW_ACE, 14) if mask >> p & 1)
    if low and low[0] == LOW_ACE:
        return low, low[1:] + (HIGH_ACE,)
    return low, low


@dataclass(frozen=True)
class Plan:
    melded: int
    """Cards of the hand that can end up in runs (wilds included)."""
    dead: int
    """Cards that cannot: each needs a discard."""
    can_open: bool


def plan(
    hand: Sequence[Card],
    is_wild: Callable[[Card], bool],
    table: Mapping[int, TableRun],
    opened: bool,
) -> Plan:
    """How much of ``hand`` can be fitted into runs (new ones, or the ends of ``table`` runs)."""
    wilds = 0
    masks = [0, 0, 0, 0]
    for card in hand:
        if is_wild(card):
            wilds += 1
        else:
            assert card.suit is not None and card.rank is not None
            # a second copy of a card (two decks) can never join the same run: it stays dead
            masks[card.suit.index] |= 1 << (LOW_ACE if card.rank is Rank.ACE else card.rank.value)
    melded, can_open = plan_shape(wilds, tuple(masks), table_key(table), opened)
    return Plan(melded=melded, dead=len(hand) - melded, can_open=can_open)


def table_key(table: Mapping[int, TableRun]) -> tuple[tuple[int, int, int], ...]:
    """The table's runs as (suit, low, high), the form :func:`plan_shape` takes."""
    return tuple((suit, run.low, run.high) for suit, run in sorted(table.items()))


def _free_rows(points: Sequence[int], wilds: int, min_len: int = RUN_MIN) -> list[int]:
    """:func:`_best_free_run` for every number of wilds from 0 to ``wilds`` at once (one pass over the windows)."""
    best = [0] * (wilds + 1)
    n = len(points)
    for i in range(n):
        for j in range(i, n):
            span = points[j] - points[i] + 1
            count = j - i + 1
            gaps = span - count  # wilds filling the missing ranks inside
            if gaps > wilds:
                break
            need = gaps + (min_len - span if span < min_len else 0)  # and padding the ends to the minimum length
            if need <= wilds and best[need] < count:
                best[need] = count
    for k in range(1, wilds + 1):  # a window possible with fewer wilds is possible with more
        best[k] = max(best[k], best[k - 1])
    return best


@lru_cache(maxsize=1 << 18)
def _suit_rows(mask: int, run: tuple[int, int] | None, wilds: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For one suit, the most naturals melded with k = 0..wilds wilds: as a plain run, and as the opening run.

    A claimed suit (``run`` on the table) only takes cards at the run's ends and can
    never hold the opening (-1).
    """
    low, high = _suit_points(mask)
    if run is not None:
        table_run = TableRun(-1, run[0], run[1])
        row = [max(_best_extension(low, table_run, k), _best_extension(high, table_run, k)) for k in range(wilds + 1)]
        opening_row = [-1] * (wilds + 1)
    else:
        row, opening_row = _free_rows(low, wilds), _free_rows(high, wilds, OPENING_MIN)
        if high != low:
            row = [max(a, b) for a, b in zip(row, _free_rows(high, wilds), strict=True)]
            opening_row = [max(a, b) for a, b in zip(_free_rows(low, wilds, OPENING_MIN), opening_row, strict=True)]
    return tuple(row), tuple(opening_row)


@lru_cache(maxsize=1 << 20)
def plan_shape(wilds: int, masks: tuple[int, int, int, int], runs: tuple[tuple[int, int, int], ...], opened: bool) -> tuple[int, bool]:
    """(cards melded, can open) for a hand given by its wilds and each suit's positions as a bit mask.

    Every hand with the same shape on the same table plans alike, so the answer is
    remembered: the look-ahead asks about the same few shapes again and again.  Each
    suit's part is worked out once per suit mask (:func:`_suit_rows`), and how the wilds
    are shared between the suits once per combination of those parts (:func:`_combine`),
    which many different hands have in common.
    """
    claimed = {suit: (low, high) for suit, low, high in runs}
    rows = (
        _suit_rows(masks[0], claimed.get(0), wilds),
        _suit_rows(masks[1], claimed.get(1), wilds),
        _suit_rows(masks[2], claimed.get(2), wilds),
        _suit_rows(masks[3], claimed.get(3), wilds),
    )
    return _combine(rows, wilds, bool(runs), opened)


Rows = tuple[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, ...], tuple[int, ...]],
             tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, ...], tuple[int, ...]]]


@lru_cache(maxsize=1 << 20)
def _combine(rows: Rows, wilds: int, table_has_runs: bool, opened: bool) -> tuple[int, bool]:
    """(cards melded, can open) from each suit's rows: the wilds shared out where they meld most."""

    def allocate(opening_suit: int | None) -> tuple[int, int]:
        """Best (naturals melded, wilds spent) with ``opening_suit`` holding a run of four or more."""
        best = [0] + [-1] * wilds  # wilds spent -> naturals melded (-1: not reachable)
        for suit in range(4):
            if suit == opening_suit:
                row = rows[suit][1]
                # the opening run itself must reach four cards: naturals plus the wilds it uses
                allowed = [k for k in range(wilds + 1) if row[k] > 0 or (row[k] == 0 and k >= OPENING_MIN)]
            else:
                row = rows[suit][0]
                allowed = list(range(wilds + 1))
            nxt = [-1] * (wilds + 1)
            for spent in range(wilds + 1):
                total = best[spent]
                if total < 0:
                    continue
                for k in allowed:
                    if spent + k > wilds:
                        break
                    value = total + row[k]
                    nxt[spent + k] = max(nxt[spent + k], value)
            best = nxt
        top = max(best)
        if top < 0:
            return -1, 0
        return top, best.index(top)

    if opened:
        naturals, spent = allocate(None)
        can_open = True
    else:
        naturals, spent, can_open = 0, 0, False
        for suit in range(4):
            if rows[suit][1][wilds] < 0:
                continue
            # the opening run itself must reach four cards: naturals plus the wilds it uses
            got, used = allocate(suit)
            if got > naturals or (got == naturals and used < spent):
                naturals, spent, can_open = got, used, True
        if not can_open:
            return 0, False
    # spare wilds extend any run, as long as one exists (the table's or a new one of ours)
    has_run = table_has_runs or naturals > 0 or spent > 0
    return naturals + (wilds if has_run else spent), can_open


def first_finish(
    hand: Sequence[Card],
    draws: Sequence[Card],
    is_wild: Callable[[Card], bool],
    table: Mapping[int, TableRun],
    opened: bool,
) -> int | None:
    """The first of the coming ``draws`` (1 for the first) with which ``hand`` can go out.

    A player goes out by placing every card but one and discarding that one, so with
    ``hand`` (after this turn's discard) and the first ``t`` draws it can go out on that
    turn when the plan places ``len(hand)`` of those cards.  Which cards it throws on the
    turns between is chosen with hindsight: any card the plan leaves out can go.  (Before
    opening the plan places nothing unless the cards hold an opening.)  ``None`` when the
    draws given are not enough.
    """
    pool = list(hand)
    for turn, card in enumerate(draws, start=1):
        pool.append(card)
        if plan(pool, is_wild, table, opened).melded >= len(hand):
            return turn
    return None


__all__ = ["Plan", "TableRun", "first_finish", "plan", "plan_shape", "positions", "table_key"]
