"""A match of Le Neuf: deal, exchange with the spare hand, thirteen tricks, quota scoring.

Rules applied here are specified in RULES.md, chapter "Le Neuf"; the comments name them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from ...cards import Card, Suit, ace_high, card_order, deck_52, format_cards, shuffled, sort_hand
from ...randomness import DealSource
from ..contract import RECORD_FORMAT, Action, GameState, Reason, copy_record, options_to_dict
from ..tricks import Play, Trick, TrickView, follow_suit, parse_play, parse_trump, trump_code
from .actions import Exchange, Keep, parse_neuf_action
from .options import NeufOptions
from .view import NeufView, RememberedHand

SPARE = "spare"

T = TypeVar("T")


@dataclass
class PresetDeal:
    """A deal given instead of shuffled: for hand-made positions in tests and analysis."""

    dealer: str
    hands: Mapping[str, Sequence[Card]]
    spare: Sequence[Card] = ()


@dataclass
class Deal:
    """Everything about the deal in progress (and, once finished, its history)."""

    number: int
    dealer: str
    trump: Suit | None
    dealt: dict[str, list[Card]]  # as dealt, before any exchange; "spare" included
    hands: dict[str, list[Card]]  # what each seat holds now
    centre: list[Card]  # the hand lying in the centre during the exchange
    cut: dict[str, Any]
    exchange_order: list[str]
    phase: str = "exchange"  # exchange -> play -> done
    decisions: dict[str, str] = field(default_factory=dict)  # seat -> keep/exchange
    centre_from: str = SPARE  # whose hand lies in the centre (the spare, or a seat that left it)
    left_behind: dict[str, list[Card]] = field(default_factory=dict)  # what an exchanger left
    set_aside: list[Card] = field(default_factory=list)
    tricks: list[Trick] = field(default_factory=list)  # completed
    trick: Trick | None = None
    won: dict[str, int] = field(default_factory=dict)
    actions: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    scores_after: dict[str, int] | None = None
    finished_record: dict[str, Any] | None = None  # a finished deal never changes: its record is kept
    trick_views: tuple[TrickView, ...] = ()  # views of the completed tricks, each made once
    shown_hands: dict[str, tuple[tuple[Card, ...], tuple[Card, ...]]] = field(default_factory=dict, compare=False, repr=False)
    """seat -> (its hand as held, in the order shown), sorted again only when the hand changes."""
    played: set[str] = field(default_factory=set, compare=False, repr=False)
    """The codes of the cards played so far in this deal (one deck: a code is one card)."""
    shown: dict[Any, tuple[Any, Any]] = field(default_factory=dict, compare=False, repr=False)
    """What views show of this deal (see :meth:`same`): name -> (what it was made from, the object shown)."""

    def same(self, name: Any, source: Any, make: Callable[[Any], T]) -> T:
        """The object views show for ``name``, made from ``source`` (a value compared by equality): the one
        made last time while ``source`` is unchanged.  Every view until then holds the very same object, so
        the server passes over it without converting or comparing it again (each view of each seat after
        every move once made its own copies of the same counts and scores)."""
        kept = self.shown.get(name)
        if kept is None or kept[0] != source:
            kept = self.shown[name] = (source, make(source))
        return kept[1]

    def shown_hand(self, seat: str) -> tuple[Card, ...]:
        """The seat's hand as views show it (by suit, strongest first).  Sorted only when it changed
        since the last view: the same tuple serves every view until then (and the server passes over
        an unchanged hand without converting or comparing it again)."""
        held = tuple(self.hands[seat])
        kept = self.shown_hands.get(seat)
        if kept is None or kept[0] != held:
            kept = self.shown_hands[seat] = (held, tuple(sort_hand(held)))
        return kept[1]

    def completed_trick_views(self) -> tuple[TrickView, ...]:
        """The completed tricks as everyone sees them, with their winners (a completed trick never
        changes, so each view is made once, not at every view of every seat after every move; the
        same tuple serves until the next trick is completed)."""
        if len(self.trick_views) < len(self.tricks):
            made = [TrickView.of(t, self.trump, ace_high) for t in self.tricks[len(self.trick_views):]]
            self.trick_views = (*self.trick_views, *made)
        return self.trick_views


class NeufState(GameState):
    """A whole match of Le Neuf under the given options."""

    game_id: ClassVar[str] = "neuf"
    options: NeufOptions
    deals: list[Deal]  # the deals of the match so far, the last one in progress

    def __init__(self, options: NeufOptions | None = None, seed: DealSource = 0, *, preset_deal: PresetDeal | None = None) -> None:
        super().__init__(options or NeufOptions(), seed)
        opts = self.options
        self._legal: tuple[list[Action], tuple[str, ...]] | None = None  # this position's, see _legal_now
        self._public: dict[str, Any] | None = None  # what every seat's view shows alike at this position
        self.scores: dict[str, int] = dict.fromkeys(opts.sides, opts.start_score)
        first_dealer = opts.first_dealer or (preset_deal.dealer if preset_deal else self.rng.choice(opts.seats))
        self._start_deal(first_dealer, preset_deal)

    # -- seats and turn ---------------------------------------------------------------

    @property
    def seats(self) -> tuple[str, ...]:
        return self.options.seats

    @property
    def deal(self) -> Deal:
        return self.deals[-1]

    @property
    def to_act(self) -> str | None:
        if self._over:
            return None
        deal = self.deal
        if deal.phase == "exchange":
            return deal.exchange_order[len(deal.decisions)]
        assert deal.trick is not None
        if not deal.trick.plays:
            return deal.trick.leader
        return self.left_of(deal.trick.plays[-1][0])

    # -- dealing ---------------------------------------------------------------------

    def _start_deal(self, dealer: str, preset: PresetDeal | None = None) -> None:
        opts = self.options
        number = len(self.deals) + 1
        trump = parse_trump(opts.trump_cycle[(number - 1) % len(opts.trump_cycle)])
        seats = self.seats
        # Deal one card at a time clockwise from the dealer's left; in the three-player
        # game the spare hand takes a card at the end of each round.
        receivers = [self.left_of(dealer)]
        while len(receivers) < len(seats):
            receivers.append(self.left_of(receivers[-1]))
        if opts.form == "three":
            receivers.append(SPARE)
        cut: dict[str, Any]
        if preset is not None:
            dealt = {seat: list(preset.hands[seat]) for seat in seats}
            if opts.form == "three":
                dealt[SPARE] = list(preset.spare)
            cut = {"by": self.right_of(dealer), "at": None}
        else:
            deck = shuffled(deck_52(), self.rng)
            # The player on the dealer's right cuts the pack.
            at = self.rng.randint(4, 48)
            deck = deck[at:] + deck[:at]
            cut = {"by": self.right_of(dealer), "at": at}
            dealt = {r: [] for r in receivers}
            for i, card in enumerate(deck):
                dealt[receivers[i % len(receivers)]].append(card)
        hands = {seat: list(dealt[seat]) for seat in seats}
        if opts.has_exchange:
            first = dealer if opts.dealer_exchanges_first else self.left_of(dealer)
            order = [first]
            while len(order) < len(seats):
                order.append(self.left_of(order[-1]))
        else:
            order = []
        deal = Deal(
            number=number,
            dealer=dealer,
            trump=trump,
            dealt=dealt,
            hands=hands,
            centre=list(dealt.get(SPARE, [])),
            cut=cut,
            exchange_order=order,
            won=dict.fromkeys(seats, 0),
        )
        self.deals.append(deal)
        if not order:
            self._start_play()

    def _start_play(self) -> None:
        deal = self.deal
        deal.phase = "play"
        # The last hand in the centre is set aside unseen until the deal is over.
        deal.set_aside = list(deal.centre)
        deal.centre = []
        # The player on the dealer's left leads to the first trick.
        deal.trick = Trick(self.left_of(deal.dealer))

    # -- legal actions ---------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        return list(self._legal_now()[0])

    def _legal_now(self) -> tuple[list[Action], tuple[str, ...]]:
        """This position's legal actions and their texts, worked out once: the server's check of a move,
        the check again when it is applied, and the view of the seat to act each asked for them (the
        list is kept: never hand it out to be changed; the next action forgets it)."""
        if self._legal is None:
            actions = self._enumerate_legal()
            self._legal = (actions, tuple(str(a) for a in actions))
        return self._legal

    def _enumerate_legal(self) -> list[Action]:
        if self._over:
            return []
        deal = self.deal
        if deal.phase == "exchange":
            return [Exchange(), Keep()]
        seat = self.to_act
        assert seat is not None and deal.trick is not None
        # Follow suit if you can; otherwise any card.
        # in the cards' own order (the order of Play), sorted by key: no comparison in Python per pair
        return [Play(card) for card in sorted(follow_suit(deal.hands[seat], deal.trick), key=card_order)]

    def why_illegal(self, action: Action) -> str:
        deal = self.deal
        seat = self.to_act
        if deal.phase == "exchange":
            return Reason(
                "neuf.exchange_now", f"{seat} is deciding on the exchange: 'exchange' to take the hand in the centre or 'keep'",
                seat=seat,
            )
        playable = self._legal_cards()
        if not isinstance(action, Play):
            return Reason(
                "play.card_now", f"it is time to play a card: {seat} plays one of {' '.join(playable)}",
                seat=seat, cards=playable,
            )
        assert seat is not None and deal.trick is not None
        if action.card not in deal.hands[seat]:
            return Reason(
                "play.not_in_hand", f"{action.card.code} is not in {seat}'s hand; playable: {' '.join(playable)}",
                card=action.card.code, seat=seat, cards=playable,
            )
        led = deal.trick.led_suit
        assert led is not None
        held = [c for c in deal.hands[seat] if c.suit == led]
        # Follow suit if you can.
        return Reason(
            "play.follow_suit",
            f"{seat} must follow suit: {led.name.lower()} were led and {seat} holds {format_cards(held)}",
            seat=seat, suit=led.value, held_cards=[c.code for c in held],
        )

    def _legal_cards(self) -> list[str]:
        return [a.card.code for a in self._legal_now()[0] if isinstance(a, Play)]

    def _is_legal(self, action: Action) -> bool:
        return action in self._legal_now()[0]

    # -- applying --------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        self._legal = self._public = None  # a new position from here on
        deal = self.deal
        seat = self.to_act
        assert seat is not None
        deal.actions.append({"seat": seat, **action.to_record()})
        if isinstance(action, (Exchange, Keep)):
            self._exchange(seat, isinstance(action, Exchange))
        else:
            assert isinstance(action, Play)
            self._play(seat, action.card)

    def _exchange(self, seat: str, take: bool) -> None:
        deal = self.deal
        if take:
            # Take the whole hand lying in the centre; leave one's own in its place.
            own = deal.hands[seat]
            deal.hands[seat] = deal.centre
            deal.centre = own
            deal.left_behind[seat] = list(own)
            deal.centre_from = seat
        deal.decisions[seat] = "exchange" if take else "keep"
        if len(deal.decisions) == len(deal.exchange_order):
            self._start_play()

    def _play(self, seat: str, card: Card) -> None:
        deal = self.deal
        trick = deal.trick
        assert trick is not None
        deal.hands[seat].remove(card)
        trick.plays.append((seat, card))
        deal.played.add(card.code)
        if len(trick.plays) < len(self.seats):
            return
        # Highest trump wins, or the highest card of the suit led; the winner leads next.
        winner = trick.winner(deal.trump, ace_high)
        deal.won[winner] += 1
        deal.tricks.append(trick)
        if self.options.instant_win and self._instant_winner(winner):
            return
        if len(deal.tricks) == 13:
            self._finish_deal()
        else:
            deal.trick = Trick(winner)

    def _side_tricks(self) -> dict[str, int]:
        opts = self.options
        totals = dict.fromkeys(opts.sides, 0)
        for seat, n in self.deal.won.items():
            totals[opts.side_of(seat)] += n
        return totals

    def _instant_winner(self, winner: str) -> bool:
        """House rule: reaching zero during play wins the match on the spot."""
        opts = self.options
        side = opts.side_of(winner)
        tricks = self._side_tricks()[side]
        if tricks > opts.side_quota and self.scores[side] - (tricks - opts.side_quota) <= 0:
            deal = self.deal
            deal.trick = None
            deal.phase = "done"
            self.scores[side] -= tricks - opts.side_quota
            deal.result = {
                "tricks": dict(deal.won),
                "side_tricks": self._side_tricks(),
                "score_change": {s: (opts.side_quota - tricks if s == side else 0) for s in opts.sides},
                "set_aside": [c.code for c in deal.set_aside],
                "instant_win": side,
            }
            deal.scores_after = dict(self.scores)
            self._end_match([side])
            return True
        return False

    def _finish_deal(self) -> None:
        opts = self.options
        deal = self.deal
        deal.trick = None
        deal.phase = "done"
        side_tricks = self._side_tricks()
        # Quota scoring: one point off per trick over the quota, one on per trick short.
        change = {side: opts.side_quota - side_tricks[side] for side in opts.sides}
        for side, delta in change.items():
            self.scores[side] += delta
        deal.result = {
            "tricks": dict(deal.won),
            "side_tricks": side_tricks,
            "score_change": change,
            "set_aside": [c.code for c in deal.set_aside],
        }
        deal.scores_after = dict(self.scores)
        # The match ends when anyone reaches zero or less; the lowest score wins and
        # equal lowest scores are joint winners.
        if min(self.scores.values()) <= 0:
            low = min(self.scores.values())
            self._end_match([side for side in opts.sides if self.scores[side] == low])
        else:
            self._start_deal(self.left_of(deal.dealer))

    # -- views -----------------------------------------------------------------------

    def view(self, seat: str | None) -> NeufView:
        """What ``seat`` may know now (``None``: a spectator)."""
        self._check_seat(seat)
        public = self._public
        if public is None:  # worked out once per position, for every seat's view
            public = self._public = self._public_view()
        deal = self.deal
        return NeufView(
            seat=seat,
            hand=deal.shown_hand(seat) if seat is not None else (),
            # A player who exchanged knows the hand they left, and sees where it went.
            remembered=self._remembered(deal, seat) if seat is not None and seat in deal.left_behind else None,
            legal=self._legal_now()[1] if seat is not None and seat == public["to_act"] else (),
            **public,
        )

    def _public_view(self) -> dict[str, Any]:
        """The fields of a view that every seat sees alike.  What did not change since the last position is
        the same object as there (:meth:`Deal.same`)."""
        deal = self.deal
        opts = self.options
        finished = next((d for d in reversed(self.deals) if d.phase == "done"), None)  # the last deal played out
        tricks_played = deal.completed_trick_views()
        seats = self.seats
        trick = deal.trick
        return {
            "seats": seats,
            "form": opts.form,
            "deal_number": deal.number,
            "dealer": deal.dealer,
            "trump": trump_code(deal.trump),
            "phase": "over" if self._over else deal.phase,
            "hand_sizes": deal.same("hand_sizes", tuple([len(deal.hands[s]) for s in seats]), lambda n: dict(zip(seats, n, strict=True))),
            "exchange_order": deal.same("exchange_order", tuple(deal.exchange_order), tuple),
            "exchanges": deal.same("exchanges", tuple(deal.decisions.items()), dict),
            "centre_from": deal.centre_from if deal.phase == "exchange" else None,
            "trick": None if trick is None else deal.same("trick", (trick.leader, tuple(trick.plays)), lambda _: TrickView.of(trick)),
            "tricks_played": tricks_played,
            "last_trick": tricks_played[-1] if tricks_played else None,
            "tricks_won": deal.same("tricks_won", tuple(deal.won.items()), dict),
            "quota": opts.side_quota,
            "sides": opts.sides,
            "scores": deal.same("scores", tuple(self.scores.items()), dict),
            "score_sheet": self._shown_score_sheet(),
            "to_act": self.to_act,
            "winners": deal.same("winners", tuple(self._winners), tuple),
            "previous_deal": self._deal_record(finished, shared=True) if finished else None,
        }

    def _remembered(self, deal: Deal, seat: str) -> RememberedHand:
        """The hand ``seat`` left in the centre at the exchange: where it is now, what of it is unplayed (the
        same object while neither changes)."""
        where = deal.same(("where", seat), (deal.phase, tuple(deal.decisions.items())), lambda _: self._left_where(deal, seat))
        cards = deal.same(("left", seat), tuple(deal.left_behind[seat]), lambda left: tuple(sort_hand(left)))
        played = deal.played
        unplayed = tuple([c for c in cards if c.code not in played])
        return deal.same(("remembered", seat), (where, unplayed), lambda _: RememberedHand(cards=cards, now_with=where, unplayed=unplayed))

    @staticmethod
    def _left_where(deal: Deal, seat: str) -> str:
        """Where the hand ``seat`` left is now: with the seat that took it, in the centre, or set aside."""
        holder = next((s for s in deal.decisions if _took_from(deal, s) == seat), None)
        return holder or ("centre" if deal.phase == "exchange" else "set-aside")

    # -- score sheet and records -----------------------------------------------------

    def _shown_score_sheet(self) -> tuple[dict[str, Any], ...]:
        """The score sheet as views show it: made again only when a deal was scored since the last view
        (the same tuple serves every view until then)."""
        scored = sum(1 for deal in self.deals if deal.scores_after is not None)
        kept: tuple[int, tuple[dict[str, Any], ...]] | None = self.__dict__.get("_sheet_shown")
        if kept is None or kept[0] != scored:
            kept = self.__dict__["_sheet_shown"] = (scored, tuple(self.score_sheet()))
        return kept[1]

    def score_sheet(self) -> list[dict[str, Any]]:
        """Seed 000's sheet: the trump of each deal, the running scores, the falling total."""
        opts = self.options
        start = dict.fromkeys(opts.sides, opts.start_score)
        rows: list[dict[str, Any]] = [
            {"deal": 0, "dealer": None, "trump": None, "scores": start, "total": sum(start.values())}
        ]
        for deal in self.deals:
            if deal.scores_after is None:
                continue
            rows.append({
                "deal": deal.number,
                "dealer": deal.dealer,
                "trump": trump_code(deal.trump),
                "scores": dict(deal.scores_after),
                "total": sum(deal.scores_after.values()),
            })
        return rows

    def _deal_record(self, deal: Deal, *, shared: bool = False) -> dict[str, Any]:
        """A deal's record; ``shared`` returns a finished deal's kept record itself (read-only use)."""
        if deal.finished_record is not None:
            return deal.finished_record if shared else copy_record(deal.finished_record)
        record = self._build_deal_record(deal)
        if deal.phase == "done":
            deal.finished_record = copy_record(record)
        return record

    def _build_deal_record(self, deal: Deal) -> dict[str, Any]:
        hands = {k: [c.code for c in v] for k, v in deal.dealt.items()}
        return {
            "number": deal.number,
            "dealer": deal.dealer,
            "trump": None if deal.trump is None else deal.trump.value,
            "cut": deal.cut,
            "hands": hands,
            "actions": [dict(a) for a in deal.actions],
            "tricks": [t.to_record() for t in deal.tricks],
            "result": deal.result,
            "scores": deal.scores_after,
        }

    def record(self, players: Mapping[str, str] | None = None) -> dict[str, Any]:
        return self._record(players)

    def shared_record(self) -> dict[str, Any]:
        """:meth:`record` to be read, never changed: each finished deal's kept record itself, not a copy (the
        server reads the record when a deal ends, and copying every finished deal was most of it)."""
        return self._record(None, shared=True)

    def _record(self, players: Mapping[str, str] | None, *, shared: bool = False) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "game": self.game_id,
            "options": options_to_dict(self.options),
            **self.source_record(),
            "seats": list(self.seats),
            "sides": list(self.options.sides),
            "players": dict(players or {}),
            "deals": [self._deal_record(d, shared=shared) for d in self.deals],
            "score_sheet": self.score_sheet(),
            "final_scores": dict(self.scores),
            "winners": list(self._winners),
        }

    @classmethod
    def parse_action(cls, text: str) -> Action:
        return parse_neuf_action(text)


def _took_from(deal: Deal, seat: str) -> str | None:
    """Whose hand ``seat`` took in the exchange: the spare or an earlier exchanger's."""
    previous = SPARE
    for s in deal.exchange_order:
        if deal.decisions.get(s) == "exchange":
            if s == seat:
                return previous
            previous = s
    return None


__all__ = ["NeufState", "PresetDeal", "SPARE", "parse_play"]
