"""A session of Nines rummy: hands of nine cards, an indicator wild, runs and monkeys.

Rules applied here are specified in RULES.md, chapter "Nines rummy"; the comments name
them.  Set validation and enumeration live in :mod:`.melds`, the table in :mod:`.table`,
the set-up in :mod:`.deal`, the scores in :mod:`.scoring`.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ...cards import SUITS, Card, parse_card
from ...randomness import DealSource
from ..contract import (
    RECORD_FORMAT,
    Action,
    GameState,
    IllegalAction,
    MatchOver,
    OptionsError,
    OutOfTurn,
    Reason,
    options_to_dict,
)
from . import deal as dealing
from .actions import (
    Discard,
    Draw,
    EndSession,
    Extend,
    Lay,
    RummyAction,
    Swap,
    action_from_record,
    parse_rummy_action,
    sort_actions,
)
from .indicator import Wilds
from .melds import (
    RUN_MIN,
    MeldError,
    MonkeyShape,
    Placement,
    Pool,
    canonical_order,
    enumerate_monkeys,
    enumerate_runs,
    fillers,
    read_set,
)
from .options import RummyOptions
from .scoring import score_hand, session_winners
from .table import Table, TableSet
from .view import Move, PlacedCard, RummyView, TableSetView

OPENING_MIN = 4
"""Seed 002: a player's first set must contain at least four cards."""

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


@dataclass
class PresetHand:
    """A hand laid out by hand instead of shuffled: for hand-made positions in tests and analysis.

    Cards may be given as :class:`Card` or as codes.  ``turn`` is how many turns have
    already been played (the number of players or more: the first round is over);
    ``table`` lists ``(owner, "7H 8H JK=9H TH")`` sets already laid (their owners have
    opened); ``held`` lists wilds each seat is holding after a swap.  The record of a match
    begun from a preset says so (``"preset": true``); it cannot be replayed from its seed.
    """

    starter: str
    hands: Mapping[str, Sequence[Card | str]]
    indicator: Card | str
    discard_pile: Sequence[Card | str]
    stock: Sequence[Card | str]
    table: Sequence[tuple[str, str]] = ()
    opened: Iterable[str] = ()
    turn: int = 0
    to_act: str | None = None
    held: Mapping[str, Sequence[Card | str]] = field(default_factory=dict)


def _cards(items: Iterable[Card | str]) -> list[Card]:
    return [item if isinstance(item, Card) else parse_card(item) for item in items]


@dataclass
class Deal:
    """Everything about the hand in progress (and, once closed, its history).

    Called a deal in code and records (as in the other games); the seed calls it a hand.
    """

    number: int
    starter: str
    wilds: Wilds
    indicator_turned: tuple[Card, ...]
    dealt: dict[str, list[Card]]
    first_discard: Card
    stock_dealt: list[Card]  # the stock as set up, top first
    hands: dict[str, list[Card]]
    stock: list[Card]  # top first
    discard_pile: list[Card]  # bottom first, top last
    table: Table
    to_act: str
    turn: int = 0  # turns completed; the starter's first turn is turn 0
    opened: list[str] = field(default_factory=list)
    held: dict[str, Counter[Card]] = field(default_factory=dict)
    phase: str = "draw"  # draw -> play -> (next turn) ... -> done
    drawn: tuple[str, Card] | None = None
    reshuffles: list[dict[str, Any]] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)
    public: list[Move] = field(default_factory=list)  # the moves as everyone saw them
    preset: bool = False
    result: dict[str, Any] | None = None
    scores_after: dict[str, int] | None = None

    @property
    def indicator(self) -> Card:
        return self.wilds.indicator

    def copy(self) -> Deal:
        """An independent copy of a hand in progress (cards and entries are never changed in place)."""
        return Deal(
            number=self.number,
            starter=self.starter,
            wilds=self.wilds,
            indicator_turned=self.indicator_turned,
            dealt=self.dealt,  # as dealt: never changed
            first_discard=self.first_discard,
            stock_dealt=self.stock_dealt,  # as set up: never changed
            hands={seat: list(cards) for seat, cards in self.hands.items()},
            stock=list(self.stock),
            discard_pile=list(self.discard_pile),
            table=self.table.copy(),
            to_act=self.to_act,
            turn=self.turn,
            opened=list(self.opened),
            held={seat: Counter(cards) for seat, cards in self.held.items()},
            phase=self.phase,
            drawn=self.drawn,
            reshuffles=list(self.reshuffles),
            actions=list(self.actions),
            public=list(self.public),
            preset=self.preset,
            result=self.result,
            scores_after=self.scores_after,
        )


class RummyState(GameState):
    """A whole session of Nines rummy under the given options."""

    game_id: ClassVar[str] = "rummy"
    options: RummyOptions
    deals: list[Deal]  # the deals of the match so far, the last one in progress

    def __init__(self, options: RummyOptions | None = None, seed: DealSource = 0, *, preset: PresetHand | None = None) -> None:
        super().__init__(options or RummyOptions(), seed)
        opts = self.options
        self._seats = opts.seats
        self.totals: dict[str, int] = dict.fromkeys(opts.seats, 0)
        # an open session: the table has asked to end it after the hand in progress
        self.session_ending = False
        # the legal actions and the playable cards of the position, worked out once per position
        self._legal: list[RummyAction] | None = None
        self._available: Counter[Card] | None = None
        if preset is not None:
            self._start_preset(preset)
        else:
            # The first starter is chosen at random (from the seed) unless an option names one.
            self._start_deal(opts.first_starter or self.rng.choice(opts.seats))

    def clone(self) -> RummyState:
        """An independent copy; a closed hand never changes, so clones share it."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.rng = copy.copy(self.rng)  # the same stream, whether from a seed or a secret
        twin.log = list(self.log)
        twin.totals = dict(self.totals)
        twin.deals = [deal if deal.phase == "done" else deal.copy() for deal in self.deals]
        twin._winners = list(self._winners)
        # the position's legal actions are immutable values: the twin may share them
        return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> RummyState:
        return self.clone()

    # -- seats and turn ---------------------------------------------------------------

    @property
    def seats(self) -> tuple[str, ...]:
        return self._seats

    @property
    def deal(self) -> Deal:
        return self.deals[-1]

    @property
    def to_act(self) -> str | None:
        return None if self._over else self.deal.to_act

    @property
    def first_round(self) -> bool:
        """Seed 002: draw and discard only until play comes back to the starter's second turn."""
        return self.deal.turn < len(self.seats)

    # -- setting up a hand ------------------------------------------------------------

    def _start_deal(self, starter: str) -> None:
        opts = self.options
        layout = dealing.deal(self.seats, starter, opts.deck_count, self.rng)
        self._begin(
            starter=starter,
            indicator_turned=layout.indicator_turned,
            dealt=layout.hands,
            first_discard=layout.first_discard,
            stock=layout.stock,
        )

    def _begin(
        self,
        starter: str,
        indicator_turned: Sequence[Card],
        dealt: Mapping[str, Sequence[Card]],
        first_discard: Card,
        stock: Sequence[Card],
        discard_pile: Sequence[Card] | None = None,
    ) -> Deal:
        deal = Deal(
            number=len(self.deals) + 1,
            starter=starter,
            wilds=Wilds(indicator_turned[-1]),
            indicator_turned=tuple(indicator_turned),
            dealt={seat: list(dealt[seat]) for seat in self.seats},
            first_discard=first_discard,
            stock_dealt=list(stock),
            hands={seat: list(dealt[seat]) for seat in self.seats},
            stock=list(stock),
            discard_pile=list(discard_pile) if discard_pile is not None else [first_discard],
            table=Table(),
            to_act=starter,
            held={seat: Counter() for seat in self.seats},
        )
        self.deals.append(deal)
        self._legal = None
        self._available = None
        return deal

    def _start_preset(self, preset: PresetHand) -> None:
        seats = self.seats
        if preset.starter not in seats:
            raise OptionsError.of(
                "preset.starter", f"preset starter {preset.starter!r} is not a seat ({' '.join(seats)})",
                value=repr(preset.starter), seats=list(seats),
            )
        missing = [s for s in seats if s not in preset.hands]
        if missing:
            raise OptionsError.of("preset.hands", f"the preset hand gives no cards to {' '.join(missing)}", seats=missing)
        indicator = preset.indicator if isinstance(preset.indicator, Card) else parse_card(preset.indicator)
        pile = _cards(preset.discard_pile)
        if not pile:
            raise OptionsError.of("preset.pile", "a preset hand needs at least one card on the discard pile")
        hands = {seat: _cards(preset.hands[seat]) for seat in seats}
        deal = self._begin(preset.starter, (indicator,), hands, pile[0], _cards(preset.stock), pile)
        deal.preset = True
        for owner, text in preset.table:
            shape = read_set([Placement.parse(w) for w in text.split()], deal.wilds, as_declared=self._player_places_wilds)
            deal.table.place(shape, owner)
            if owner not in deal.opened:
                deal.opened.append(owner)
        for seat in preset.opened:
            if seat not in deal.opened:
                deal.opened.append(seat)
        for seat, cards in preset.held.items():
            deal.held[seat] = Counter(_cards(cards))
        deal.turn = preset.turn
        deal.to_act = preset.to_act or preset.starter
        # Every card must come from the pack (a preset may leave cards out).
        used = Counter(c for cards in hands.values() for c in cards)
        used.update(pile)
        used.update(deal.stock)
        used.update(deal.table.cards())
        used[indicator] += 1
        pack = Counter(dealing.pack(self.options.deck_count))
        extra = sorted(f"{card.code} x{n - pack[card]}" for card, n in used.items() if n > pack[card])
        if extra:
            raise OptionsError.of(
                "preset.pack", f"the preset hand uses more cards than the pack holds: {', '.join(extra)}", text=", ".join(extra)
            )
        for seat, held in deal.held.items():
            if held - Counter(hands[seat]):
                raise OptionsError.of("preset.held", f"seat {seat} holds wilds after a swap that are not in their hand", seat=seat)

    # -- what a seat may do -----------------------------------------------------------

    def available(self, seat: str) -> Counter[Card]:
        """The cards ``seat`` may play or discard: its hand less the wilds held after a swap."""
        deal = self.deal
        if seat != deal.to_act:
            return Counter(deal.hands[seat]) - deal.held[seat]
        if self._available is None:
            self._available = Counter(deal.hands[seat]) - deal.held[seat]
        return Counter(self._available)

    def legal_actions(self) -> list[Action]:
        """Every legal move of the seat to act, sorted; a lay once per set of places, its wilds in rule order.

        Under ``wild_places=player`` any other order of the same wild cards over the same places is legal
        too (:func:`~nines.games.rummy.melds.declared_variants` lists them; :meth:`check` accepts them).
        """
        return list(self._legal_cache())

    def _legal_cache(self) -> list[RummyAction]:
        if self._legal is None:
            self._legal = self._enumerate()
        return self._legal

    def _enumerate(self) -> list[RummyAction]:
        if self._over:
            return []
        deal = self.deal
        seat = deal.to_act
        if deal.phase == "draw":
            # Draw exactly one card, from the stock or the top of the discard pile.
            sources: list[RummyAction] = []
            if deal.stock:
                sources.append(Draw("stock"))
            if deal.discard_pile:
                sources.append(Draw("discard"))
            return sources
        available = self.available(seat)
        actions: set[RummyAction] = {Discard(card) for card in available}
        if not self.first_round:
            actions.update(self._set_plays(seat, available))
        return sort_actions(actions)

    def _set_plays(self, seat: str, available: Counter[Card]) -> set[RummyAction]:
        """Every legal lay, extension and swap for ``seat`` (the first round is over)."""
        deal = self.deal
        wilds = deal.wilds
        table = deal.table
        plays: set[RummyAction] = set()
        count = sum(available.values())
        opened = seat in deal.opened
        # Every turn ends with a discard: a set play must leave a card that may be discarded.
        most = count - 1
        # The first set must have at least four cards; after opening, three will do.
        least = RUN_MIN if opened else OPENING_MIN
        pool = Pool(available, wilds)
        if most >= least:
            sets = list(enumerate_runs(pool, wilds, table.open_suits(), least, most))
            if self._monkeys_allowed():
                sets += enumerate_monkeys(pool, wilds, table.open_ranks(), least, most, self.options.natural_in_monkey)
            # Seed 002: the player says what each wild stands for, so under wild_places=player every order
            # of a lay's wild cards over its places is a legal lay too (check reads the lay itself). The list
            # names each set of places once, its wilds in rule order: listing every order would be n! lays
            # for n wilds (six wilds in a hand of ten: 72,016 moves instead of 1,776).
            plays.update(Lay.canonical(placements) for placements in sets)
        if opened and most >= 1:
            for table_set in table:
                for want in table_set.wants():
                    for placement in fillers(want, pool, wilds):
                        plays.add(Extend(table_set.id, placement))
                for placement in table_set.placements:
                    if not placement.is_natural and available[placement.stands_for] > 0:
                        plays.add(Swap(table_set.id, placement.stands_for))
        return plays

    @property
    def _player_places_wilds(self) -> bool:
        return self.options.wild_places == "player"

    def _as_played(self, action: Action) -> Action:
        """Under ``wild_places=rule`` a lay's wilds go where the rule puts them, however it was written."""
        if isinstance(action, Lay) and not self._player_places_wilds:
            return Lay.canonical(canonical_order(action.placements))
        return action

    def _monkeys_allowed(self) -> bool:
        """Monkeys only in two-deck games, and only once all four suit runs are on the table."""
        return self.options.two_decks and self.deal.table.all_four_runs

    def check(self, action: Action, by: str | None = None) -> None:
        """Raise the error ``apply`` would raise, without changing anything."""
        if self._over:
            raise MatchOver.of("match.over", "the session is over; no more moves can be made")
        if isinstance(action, EndSession):
            self._check_end_session(by)
            return
        to_act = self.deal.to_act
        if by is not None and by != to_act:
            raise OutOfTurn.of("turn.not_yours", f"it is not {by}'s turn: {to_act} is to act", by_seat=by, seat=to_act)
        if not isinstance(action, (Draw, Lay, Extend, Swap, Discard)):
            raise IllegalAction.of("action.foreign", f"{action!r} is not a Nines rummy move", action=repr(action))
        action = self._as_played(action)
        # The rules read the move itself (a lay's cards, places and set): no list of every move is made, so a
        # hand full of wilds costs no more to check than any other (the property tests hold this reading to
        # the enumeration, move for move).
        reason = self._reason(action)
        if reason is not None:
            raise IllegalAction(self._refusal(action, reason))

    def _check_end_session(self, by: str | None) -> None:
        """Seed 002: "when the group ends the session": anyone at the table, at any time, in an open session."""
        if by is not None and by not in self.seats:
            raise OutOfTurn.of(
                "rummy.end_session_seat", f"only a player at the table may end the session ({by!r} is not a seat)", name=by
            )
        if not self.options.open_session:
            raise IllegalAction.of(
                "rummy.end_session_fixed",
                f"this session has a fixed number of hands ({self.options.session_hands}); "
                "'end session' is for an open session (hands=open)",
                count=self.options.session_hands,
            )
        if self.session_ending:
            raise IllegalAction.of(
                "rummy.end_session_again", f"the session already ends after this hand (hand {self.deal.number})", count=self.deal.number
            )

    def why_illegal(self, action: Action) -> Reason:
        """Why ``action`` is not legal now, and what is."""
        reason = self._reason(action)
        if reason is None:  # pragma: no cover - only reached for an action that is legal
            return Reason("illegal", f"'{action}' is legal now")
        return self._refusal(action, reason)

    def _refusal(self, action: Action, reason: Reason) -> Reason:
        """The refusal of ``action`` for ``reason`` (the rule it breaks), said of the seat to act."""
        seat = self.deal.to_act
        return Reason(reason.key, f"{seat} cannot '{action}': {reason}", **reason.params, seat=seat)

    def _reason(self, action: Action) -> Reason | None:
        deal = self.deal
        seat = deal.to_act
        if deal.phase == "draw":
            if not isinstance(action, Draw):
                return Reason("rummy.draw_first", "draw first: 'draw stock' or 'draw discard'")
            if action.source == "stock" and not deal.stock:
                return Reason("rummy.stock_empty", "the stock is empty: 'draw discard'")
            return None if action in self._legal_cache() else Reason("rummy.draw_first", "draw stock or draw discard")
        if isinstance(action, Draw):
            if deal.drawn:
                return Reason(
                    "rummy.drawn_already",
                    f"you have drawn this turn ({deal.drawn[1].code} from the {deal.drawn[0]}); now lay, extend, swap or discard",
                    card=deal.drawn[1].code,
                )
            return Reason("rummy.drawn_already_plain", "you have drawn this turn; now lay, extend, swap or discard")
        available = self.available(seat)
        held = deal.held[seat]
        if isinstance(action, Discard):
            return self._card_problem([action.card], seat, available)
        if self.first_round:
            starter = deal.starter
            return Reason(
                "rummy.first_round",
                f"nobody may lay, fill or swap until play comes back to the starter ({starter}) for their second turn; discard a card",
                starter_seat=starter,
            )
        opened = seat in deal.opened
        count = sum(available.values())
        if isinstance(action, Lay):
            problem = self._card_problem([p.card for p in action.placements], seat, available)
            if problem:
                return problem
            least = RUN_MIN if opened else OPENING_MIN
            if not opened and len(action.placements) < OPENING_MIN:
                return Reason(
                    "rummy.opening_size",
                    f"your first set must have at least {OPENING_MIN} cards (several smaller sets do not add up); "
                    f"'{action}' has {len(action.placements)}",
                    least=OPENING_MIN, count=len(action.placements),
                )
            try:
                shape = read_set(
                    action.placements, deal.wilds, least, self.options.natural_in_monkey, self._player_places_wilds
                )
            except MeldError as error:
                return Reason(error.key, str(error), **error.params)
            if len(action.placements) >= count:
                return Reason(
                    "rummy.keep_discard_lay",
                    f"every turn ends with a discard: laying {len(action.placements)} of your {count} playable cards "
                    "would leave none to discard",
                    laid=len(action.placements), count=count,
                )
            if isinstance(shape, MonkeyShape):
                if not self.options.two_decks:
                    return Reason(
                        "rummy.monkey_two_decks", "monkeys are played only in two-deck games (5 to 8 players, or the decks=2 option)"
                    )
                if not deal.table.all_four_runs:
                    open_suits = [s.value for s in deal.table.open_suits()]
                    missing = ", ".join(SUIT_NAMES[s] for s in open_suits)
                    return Reason(
                        "rummy.monkey_after_runs",
                        f"nobody may lay a monkey until all four suit runs are on the table (no run yet in {missing})",
                        suits=open_suits,
                    )
                existing = deal.table.get(shape.rank.char)
                if existing is not None:
                    return self._only_one(existing)
                return None
            existing = deal.table.get(shape.suit.value)
            if existing is not None:
                return self._only_one(existing)
            return None
        if isinstance(action, (Extend, Swap)):
            if not opened:
                verb = "extend a set" if isinstance(action, Extend) else "swap for a wild"
                return Reason(
                    "rummy.open_first_extend" if isinstance(action, Extend) else "rummy.open_first_swap",
                    f"you must open before you {verb}: your first set is a new set of at least {OPENING_MIN} cards",
                    least=OPENING_MIN,
                )
            table_set = deal.table.get(action.set_id)
            if table_set is None:
                names = " ".join(s.id for s in deal.table) or "none yet"
                return Reason(
                    "rummy.no_such_set", f"there is no set {action.set_id} on the table (the sets are: {names})",
                    set=action.set_id, sets=[s.id for s in deal.table],
                )
            if isinstance(action, Extend):
                problem = self._card_problem([action.placement.card], seat, available)
                if problem:
                    return problem
                wants = table_set.wants()
                if action.placement.stands_for not in wants:
                    takes = " or ".join(c.code for c in wants) or "nothing more"
                    return Reason(
                        "rummy.set_takes" if wants else "rummy.set_full",
                        f"set {table_set.id} ({table_set.text()}) takes {takes}, not {action.placement.stands_for.code}",
                        set=table_set.id, takes_cards=[c.code for c in wants], card=action.placement.stands_for.code,
                    )
                try:
                    read_set([action.placement], deal.wilds, 1)
                except MeldError as error:
                    return Reason(error.key, str(error), **error.params)
                if count < 2:
                    return Reason("rummy.keep_discard", "every turn ends with a discard: keep a card you can discard")
                return None
            assert isinstance(action, Swap)
            if table_set.wild_for(action.card) is None:
                standing = [p for p in table_set.placements if not p.is_natural]
                listed = ", ".join(f"{p.card.code} for {p.stands_for.code}" for p in standing) or "no wilds"
                return Reason(
                    "rummy.no_wild_for", f"no wild in set {table_set.id} stands for {action.card.code} (it has {listed})",
                    set=table_set.id, card=action.card.code,
                )
            if available[action.card] == 0:
                if held[action.card]:
                    return Reason(
                        "rummy.held_after_swap", f"{action.card.code} is held after a swap until the start of your next turn",
                        card=action.card.code,
                    )
                return Reason("rummy.none_to_swap", f"you have no {action.card.code} to put in its place", card=action.card.code)
            if count < 2:
                return Reason("rummy.keep_discard", "every turn ends with a discard: keep a card you can discard")
            return None
        return Reason("action.foreign", f"{action} is not a Nines rummy move", action=str(action))  # pragma: no cover

    def _card_problem(self, cards: list[Card], seat: str, available: Counter[Card]) -> Reason | None:
        """Which cards the seat cannot use (not in hand, or held after a swap); ``None`` if none."""
        hand = Counter(self.deal.hands[seat])
        held = self.deal.held[seat]
        for card, n in Counter(cards).items():
            if hand[card] < n:
                if hand[card]:
                    return Reason("rummy.not_that_many", f"you do not have that many {card.code} in your hand", card=card.code)
                return Reason("rummy.not_in_hand", f"you do not have {card.code} in your hand", card=card.code)
            if available[card] < n:
                if held[card]:
                    return Reason(
                        "rummy.wild_held",
                        f"{card.code} is a wild held after a swap: it cannot be played or discarded until the start of your next turn",
                        card=card.code,
                    )
                return Reason("rummy.card_not_now", f"{card.code} cannot be played now", card=card.code)
        return None

    def _only_one(self, existing: TableSet) -> Reason:
        if existing.kind == "run":
            assert existing.suit is not None
            name = f"a run of {SUIT_NAMES[existing.suit.value]}"
        else:
            name = f"a monkey of {existing.id}s"
        return Reason(
            "rummy.only_one_run" if existing.kind == "run" else "rummy.only_one_monkey",
            f"there is already {name} on the table ({existing.id}: {existing.text()}, laid by {existing.owner}); "
            f"only one may exist: extend it instead, e.g. 'extend {existing.id} ...'",
            set=existing.id, owner_seat=existing.owner,
        )

    # -- applying --------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        deal = self.deal
        seat = deal.to_act
        action = self._as_played(action)
        if isinstance(action, EndSession):
            # not a move: the turn stays where it is; the record keeps when it was asked
            self.session_ending = True
            deal.actions.append({"seat": seat, **action.to_record()})
            deal.public.append(Move(seat=seat, action=str(action)))
            return
        self._legal = None
        self._available = None
        entry: dict[str, Any] = {"seat": seat, **action.to_record()}
        if isinstance(action, Draw):
            entry["card"] = self._draw(seat, action.source).code
        elif isinstance(action, Lay):
            entry["set"] = self._lay(seat, action)
        elif isinstance(action, Extend):
            self._extend(seat, action)
        elif isinstance(action, Swap):
            entry["wild"] = self._swap(seat, action).code
        else:
            assert isinstance(action, Discard)
        deal.actions.append(entry)
        # A card drawn from the stock is seen only by the player who drew it.
        deal.public.append(Move(
            seat=seat,
            action=str(action),
            drew=deal.drawn[1] if isinstance(action, Draw) and action.source == "discard" and deal.drawn else None,
            set=entry.get("set"),
            took=parse_card(entry["wild"]) if "wild" in entry else None,
        ))
        if isinstance(action, Discard):
            self._discard(seat, action.card)

    def _draw(self, seat: str, source: str) -> Card:
        deal = self.deal
        card = deal.stock.pop(0) if source == "stock" else deal.discard_pile.pop()
        deal.hands[seat].append(card)
        deal.drawn = (source, card)
        deal.phase = "play"
        return card

    def _take(self, seat: str, cards: Iterable[Card]) -> None:
        hand = self.deal.hands[seat]
        for card in cards:
            hand.remove(card)

    def _lay(self, seat: str, action: Lay) -> str:
        deal = self.deal
        shape = read_set(action.placements, deal.wilds, RUN_MIN, as_declared=self._player_places_wilds)
        self._take(seat, action.cards)
        table_set = deal.table.place(shape, seat)
        # The first set a player lays is their opening.
        if seat not in deal.opened:
            deal.opened.append(seat)
        return table_set.id

    def _extend(self, seat: str, action: Extend) -> None:
        deal = self.deal
        self._take(seat, [action.placement.card])
        table_set = deal.table.get(action.set_id)
        assert table_set is not None
        table_set.add(action.placement)

    def _swap(self, seat: str, action: Swap) -> Card:
        deal = self.deal
        table_set = deal.table.get(action.set_id)
        assert table_set is not None
        self._take(seat, [action.card])
        wild = table_set.swap(action.card)
        # The wild taken is held until the start of this player's next turn.
        deal.hands[seat].append(wild)
        deal.held[seat][wild] += 1
        return wild

    def _discard(self, seat: str, card: Card) -> None:
        deal = self.deal
        self._take(seat, [card])
        deal.discard_pile.append(card)
        # The hand closes when somebody discards their final card.
        if not deal.hands[seat]:
            self._close_hand(went_out=seat)
            return
        self._next_turn()

    def _next_turn(self) -> None:
        deal = self.deal
        deal.turn += 1
        deal.to_act = self.left_of(deal.to_act)
        deal.phase = "draw"
        deal.drawn = None
        # A wild taken in a swap is held until the start of its holder's next turn.
        deal.held[deal.to_act] = Counter()
        turns = self.options.turns_per_player
        if turns is not None and deal.turn >= turns * len(self.seats):
            # Every player has had the agreed number of turns: score the hand as it stands.
            self._close_hand(went_out=None, ended_by="turns")
            return
        if not deal.stock:
            reshuffles = self.options.reshuffles
            if reshuffles is not None and len(deal.reshuffles) >= reshuffles:
                # The stock has run out once more than the option allows: score the hand as it stands.
                self._close_hand(went_out=None, ended_by="stock")
                return
            # The stock ran out: the top discard stays, the rest is shuffled into a new stock.
            deal.discard_pile, deal.stock = dealing.rebuild_stock(deal.discard_pile, self.rng)
            deal.reshuffles.append({"after_actions": len(deal.actions), "stock": [c.code for c in deal.stock]})

    def _close_hand(self, went_out: str | None, ended_by: str = "out") -> None:
        deal = self.deal
        opts = self.options
        deal.phase = "done"
        points = score_hand(deal.hands, deal.opened, deal.wilds, opts)
        for seat, n in points.items():
            self.totals[seat] += n
        deal.result = {
            "went_out": went_out,
            "ended_by": ended_by,
            "points": dict(points),
            "left": {seat: [c.code for c in deal.hands[seat]] for seat in self.seats},
            "opened": [s for s in self.seats if s in deal.opened],
            # turns played: the closing discard's turn is not yet counted in deal.turn
            # when somebody goes out; a cap closes the hand after the count moved on
            "turns": deal.turn + 1 if went_out is not None else deal.turn,
        }
        deal.scores_after = dict(self.totals)
        # The session ends after the agreed number of hands, or (an open session) after the
        # hand in which the table asked for it: lowest total wins, ties share.
        hands = opts.session_hands
        if self.session_ending if hands is None else deal.number >= hands:
            self._end_match(session_winners(self.totals))
        else:
            # The starter moves one seat clockwise for the next hand.
            self._start_deal(self.left_of(deal.starter))

    # -- views -----------------------------------------------------------------------

    def view(self, seat: str | None) -> RummyView:
        """What ``seat`` may know now (``None``: a spectator)."""
        self._check_seat(seat)
        deal = self.deal
        to_act = self.to_act
        finished = [d for d in self.deals if d.phase == "done"]
        mine = seat is not None and seat == deal.to_act and not self._over
        table = tuple(
            TableSetView(
                id=s.id,
                kind=s.kind,
                owner=s.owner,
                cards=tuple(PlacedCard(p.card, p.stands_for, not p.is_natural) for p in s.placements),
                text=s.text(),
                wants=tuple(s.wants()),
            )
            for s in deal.table
        )
        return RummyView(
            seat=seat,
            seats=self.seats,
            decks=self.options.deck_count,
            deal_number=deal.number,
            hands_in_session=self.options.session_hands,
            session_ending=self.session_ending,
            starter=deal.starter,
            turn=deal.turn,
            first_round=self.first_round,
            phase="over" if self._over else deal.phase,
            to_act=to_act,
            indicator=deal.indicator,
            wild_rank=deal.wilds.rank.char,
            hand=tuple(rummy_sorted(deal.hands[seat])) if seat is not None else (),
            drawn=deal.drawn[1] if mine and deal.drawn else None,
            drawn_from=deal.drawn[0] if mine and deal.drawn else None,
            hand_sizes={s: len(deal.hands[s]) for s in self.seats},
            held={s: tuple(rummy_sorted(deal.held[s].elements())) for s in self.seats if deal.held[s]},
            opened=tuple(s for s in self.seats if s in deal.opened),
            table=table,
            discard_pile=tuple(deal.discard_pile),
            top_discard=deal.discard_pile[-1] if deal.discard_pile else None,
            stock_size=len(deal.stock),
            reshuffles=len(deal.reshuffles),
            moves=tuple(deal.public),
            scores=dict(self.totals),
            score_sheet=tuple(self.score_sheet()),
            legal=tuple(str(a) for a in self.legal_actions()) if mine else (),
            winners=tuple(self._winners),
            previous_hand=self._previous_hand(finished[-1]) if finished else None,
        )

    @staticmethod
    def _previous_hand(deal: Deal) -> dict[str, Any]:
        assert deal.result is not None
        return {
            "number": deal.number,
            "starter": deal.starter,
            "indicator": deal.indicator.code,
            **deal.result,
            "scores": dict(deal.scores_after or {}),
        }

    # -- score sheet and records -----------------------------------------------------

    def score_sheet(self) -> list[dict[str, Any]]:
        """Each closed hand: who started, who went out, the points and the running totals."""
        rows = []
        for deal in self.deals:
            if deal.result is None:
                continue
            rows.append({
                "hand": deal.number,
                "starter": deal.starter,
                "went_out": deal.result["went_out"],
                "points": dict(deal.result["points"]),
                "totals": dict(deal.scores_after or {}),
            })
        return rows

    def _deal_record(self, deal: Deal) -> dict[str, Any]:
        record: dict[str, Any] = {
            "number": deal.number,
            "starter": deal.starter,
            "indicator": deal.indicator.code,
            "wild_rank": deal.wilds.rank.char,
            "indicator_turned": [c.code for c in deal.indicator_turned],
            "first_discard": deal.first_discard.code,
            "hands": {seat: [c.code for c in cards] for seat, cards in deal.dealt.items()},
            "stock": [c.code for c in deal.stock_dealt],
            "actions": [dict(a) for a in deal.actions],
            "reshuffles": [dict(r) for r in deal.reshuffles],
            "table": [s.to_dict() for s in deal.table],
            "result": deal.result,
            "scores": deal.scores_after,
        }
        if deal.preset:
            record["preset"] = True
        return record

    def record(self, players: Mapping[str, str] | None = None) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "game": self.game_id,
            "options": options_to_dict(self.options),
            **self.source_record(),
            "seats": list(self.seats),
            "players": dict(players or {}),
            "deals": [self._deal_record(d) for d in self.deals],
            "score_sheet": self.score_sheet(),
            "final_scores": dict(self.totals),
            "winners": list(self._winners),
        }

    @classmethod
    def parse_action(cls, text: str) -> Action:
        return parse_rummy_action(text)

    @classmethod
    def action_from_record(cls, entry: Mapping[str, Any]) -> Action:
        try:
            return action_from_record(entry)
        except KeyError as error:
            raise IllegalAction.of("record.entry", f"the record entry {dict(entry)} lacks {error}", text=str(error)) from None


def rummy_sorted(cards: Iterable[Card]) -> list[Card]:
    """A hand as a rummy player holds it: by suit (S H D C), low to high, jokers last."""

    def key(card: Card) -> tuple[int, int]:
        if card.is_joker:
            return (len(SUITS), 0)
        return (card.suit.index, card.rank.value)  # type: ignore[union-attr]

    return sorted(cards, key=key)


__all__ = ["Deal", "OPENING_MIN", "PresetHand", "RummyState", "rummy_sorted"]
