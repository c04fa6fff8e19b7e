"""A match of Elyigit's Nines: deal, auction, trumps and the dummy, compulsory play, scoring.

Rules applied here are specified in RULES.md, chapter "Elyigit's Nines"; the comments
name them.  The play rule itself lives in :mod:`.play_rules`, the auction in
:mod:`.auction`, the end of the hand and its score in :mod:`.scoring`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from ...cards import SUITS, Card, NotationError, ace_low, deck_36, format_cards, parse_deal, shuffled, sort_hand
from ...randomness import DealSource
from ..contract import RECORD_FORMAT, Action, GameState, OptionsError, Reason, options_to_dict
from ..tricks import Play, Trick, TrickView, trump_code
from .actions import Bid, NameTrump, Pass, parse_elyigit_action
from .auction import Auction
from .options import SEATS, SIDES, TRICKS_PER_DEAL, ElyigitOptions, left_of, side_of
from .play_rules import legal_plays, why_not_playable
from .scoring import Contract, play_stops, score_deal
from .view import ElyigitView

__all__ = ["ElyigitState", "PresetDeal", "Deal"]


@dataclass
class PresetDeal:
    """A deal given instead of shuffled (the match's first deal): for hand-made positions."""

    dealer: str
    hands: Mapping[str, Sequence[Card]]

    def __post_init__(self) -> None:
        if self.dealer not in SEATS:
            raise OptionsError.of(
                "preset.dealer", f"the dealer must be one of {' '.join(SEATS)}, not {self.dealer!r}", seats=list(SEATS), value=repr(self.dealer)
            )
        if sorted(self.hands) != sorted(SEATS):
            raise OptionsError.of("preset.hands", f"a preset deal gives a hand to each of {' '.join(SEATS)}", seats=list(SEATS))
        cards = [card for seat in SEATS for card in self.hands[seat]]
        if any(len(self.hands[seat]) != TRICKS_PER_DEAL for seat in SEATS) or sorted(cards) != sorted(deck_36()):
            raise OptionsError.of("preset.deck36", "a preset deal gives nine cards to each seat, the 36 cards from ace to nine once each")

    @classmethod
    def parse(cls, dealer: str, deal: str) -> PresetDeal:
        """From PBN-style notation: ``PresetDeal.parse("W", "N:9876.A.. ...")``."""
        try:
            hands = parse_deal(deal, SEATS, allowed=deck_36())
        except NotationError as error:
            raise OptionsError.of("preset.notation", str(error), text=deal) from None
        return cls(dealer, hands)


@dataclass
class Deal:
    """Everything about the deal in progress (and, once finished, its history)."""

    number: int
    dealer: str
    dealt: dict[str, list[Card]]  # as dealt
    hands: dict[str, list[Card]]  # what each seat holds now
    auction: Auction
    phase: str = "auction"  # auction -> trump -> play -> done
    declarer: str | None = None
    bid: int | None = None
    forced: bool = False
    contract: Contract | None = None  # set when trumps are named
    tricks: list[Trick] = field(default_factory=list)  # completed
    trick: Trick | None = None
    won: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SEATS, 0))
    actions: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    scores_after: dict[str, int] | None = None

    def side_tricks(self) -> dict[str, int]:
        totals = dict.fromkeys(SIDES, 0)
        for seat, n in self.won.items():
            totals[side_of(seat)] += n
        return totals

    def copy(self) -> Deal:
        """A copy that shares only what never changes (cards, the hands as dealt, finished tricks)."""
        return replace(
            self,
            hands={seat: list(cards) for seat, cards in self.hands.items()},
            auction=Auction(self.auction.opener, self.auction.min_bid, list(self.auction.calls)),
            tricks=list(self.tricks),
            trick=Trick(self.trick.leader, list(self.trick.plays)) if self.trick is not None else None,
            won=dict(self.won),
            actions=list(self.actions),
        )

    @property
    def dummy_revealed(self) -> bool:
        """The dummy lies face up from the naming of trumps until the deal is over."""
        return self.contract is not None


class ElyigitState(GameState):
    """A whole match of Elyigit's Nines under the given options."""

    game_id: ClassVar[str] = "elyigit"
    options: ElyigitOptions
    deals: list[Deal]  # the deals of the match so far, the last one in progress

    def __init__(
        self, options: ElyigitOptions | None = None, seed: DealSource = 0, *, preset_deal: PresetDeal | None = None
    ) -> None:
        super().__init__(options or ElyigitOptions(), seed)
        self._rules = self.options.play_rules
        self.scores: dict[str, int] = dict.fromkeys(SIDES, 0)
        # A preset deal says who dealt it; otherwise the option, or a draw from the seed.
        first_dealer = preset_deal.dealer if preset_deal else (self.options.first_dealer or self.rng.choice(SEATS))
        self._start_deal(first_dealer, preset_deal)

    # -- seats and turn ---------------------------------------------------------------

    @property
    def seats(self) -> tuple[str, ...]:
        return SEATS

    @property
    def deal(self) -> Deal:
        return self.deals[-1]

    @property
    def to_act(self) -> str | None:
        if self._over:
            return None
        deal = self.deal
        if deal.phase == "auction":
            return deal.auction.to_call
        if deal.phase == "trump":
            return deal.declarer
        assert deal.trick is not None
        if not deal.trick.plays:
            return deal.trick.leader
        return left_of(deal.trick.plays[-1][0])

    def controller_of(self, seat: str) -> str:
        """The declarer plays both hands: the dummy's cards are the declarer's to choose."""
        contract = self.deal.contract
        if contract is not None and seat == contract.dummy and not self._over:
            return contract.declarer
        return seat

    def clone(self) -> ElyigitState:
        """An independent copy; a finished deal never changes, so clones share it."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.rng = copy.copy(self.rng)  # the same stream, whether from a seed or a secret
        twin.log = list(self.log)
        twin.scores = dict(self.scores)
        twin.deals = [deal if deal.phase == "done" else deal.copy() for deal in self.deals]
        twin._winners = list(self._winners)
        return twin

    # -- dealing ---------------------------------------------------------------------

    def _start_deal(self, dealer: str, preset: PresetDeal | None = None) -> None:
        if preset is not None:
            dealt = {seat: list(preset.hands[seat]) for seat in SEATS}
        else:
            # The dealer deals the shuffled 36 cards one at a time, clockwise from their left.
            deck = shuffled(deck_36(), self.rng)
            receivers = [left_of(dealer)]
            while len(receivers) < len(SEATS):
                receivers.append(left_of(receivers[-1]))
            dealt = {seat: [] for seat in SEATS}
            for i, card in enumerate(deck):
                dealt[receivers[i % 4]].append(card)
        opener = left_of(dealer) if self.options.first_bidder == "left-of-dealer" else dealer
        self.deals.append(
            Deal(
                number=len(self.deals) + 1,
                dealer=dealer,
                dealt=dealt,
                hands={seat: list(cards) for seat, cards in dealt.items()},
                auction=Auction(opener, self.options.min_bid),
            )
        )

    # -- legal actions ---------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        if self._over:
            return []
        deal = self.deal
        if deal.phase == "auction":
            return deal.auction.legal_calls()
        if deal.phase == "trump":
            return self._trump_choices()
        seat = self.to_act
        assert seat is not None and deal.trick is not None and deal.contract is not None
        cards = legal_plays(deal.hands[seat], deal.trick.cards, deal.contract.trump, self._rules)
        return [Play(card) for card in cards]

    def _trump_choices(self) -> list[Action]:
        # The declarer names a trump suit (no trumps only where the options allow it).
        choices: list[Action] = [NameTrump(suit) for suit in SUITS]
        if self.options.no_trumps:
            choices.append(NameTrump(None))
        return choices

    def why_illegal(self, action: Action) -> str:
        deal = self.deal
        seat = self.to_act
        assert seat is not None
        if deal.phase == "auction":
            return deal.auction.why_not(action)
        if deal.phase == "trump":
            choices = [str(a) for a in self._trump_choices()]
            names = " ".join(f"'{a}'" for a in choices)
            if isinstance(action, NameTrump) and action.suit is None:
                return Reason(
                    "trump.no_trumps_off", f"no trumps is not allowed in this game (option no_trumps); {seat} names a suit: {names}",
                    seat=seat, actions=choices,
                )
            return Reason(
                "trump.now", f"the auction is over: {seat}, the declarer, names trumps now: {names}", seat=seat, actions=choices
            )
        assert deal.trick is not None and deal.contract is not None
        playable = sort_hand((a.card for a in self.legal_actions() if isinstance(a, Play)), ace_low)
        legal = format_cards(playable)
        codes = [card.code for card in playable]
        who = seat if seat != deal.contract.dummy else f"the dummy {seat} (played by {deal.contract.declarer})"
        if not isinstance(action, Play):
            return Reason("play.card_now", f"it is the play: {who} plays one of {legal}", seat=seat, cards=codes)
        reason = why_not_playable(
            action.card, deal.hands[seat], deal.trick.cards, deal.contract.trump, self._rules
        )
        if reason is None:  # pragma: no cover - only asked about illegal actions
            return Reason("illegal", f"{action} is legal")
        if action.card not in deal.hands[seat]:
            whose = f"{seat}'s hand" if seat != deal.contract.dummy else f"the dummy's hand ({seat}, played by {deal.contract.declarer})"
            return Reason(
                "play.not_in_hand", f"{action.card.code} is not in {whose}; playable: {legal}", card=action.card.code, seat=seat, cards=codes
            )
        return Reason(reason.key, f"{who}: {reason}", **reason.params, seat=seat)

    # -- applying --------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        deal = self.deal
        seat = self.to_act
        assert seat is not None
        deal.actions.append({"seat": seat, **action.to_record()})
        if isinstance(action, (Bid, Pass)):
            self._call(seat, action)
        elif isinstance(action, NameTrump):
            self._name_trump(action)
        else:
            assert isinstance(action, Play)
            self._play(seat, action.card)

    def _call(self, seat: str, call: Action) -> None:
        deal = self.deal
        auction = deal.auction
        auction.calls.append((seat, call))
        if not auction.is_closed:
            return
        if auction.high_bidder is not None:
            # The highest bidder becomes the declarer, committing their side to the bid.
            deal.declarer, deal.bid = auction.high_bidder, auction.high_bid
            deal.phase = "trump"
        elif self.options.no_bid == "dealer":
            # Nobody bid: the dealer plays a forced contract of the lowest bid.
            deal.declarer, deal.bid, deal.forced = deal.dealer, self.options.min_bid, True
            deal.phase = "trump"
        else:
            # Nobody bid: the deal is thrown in and the next dealer deals again.
            deal.phase = "done"
            deal.result = {
                "thrown_in": True,
                "contract": None,
                "score_change": dict.fromkeys(SIDES, 0),
            }
            deal.scores_after = dict(self.scores)
            self._start_deal(left_of(deal.dealer))

    def _name_trump(self, action: NameTrump) -> None:
        deal = self.deal
        assert deal.declarer is not None and deal.bid is not None
        # Only now does the declarer's partner lay their cards face up: the dummy.
        deal.contract = Contract(deal.bid, deal.declarer, action.suit, deal.forced)
        deal.phase = "play"
        lead = self.options.first_leader
        if lead == "left-of-declarer":
            leader = left_of(deal.declarer)
        elif lead == "declarer":
            leader = deal.declarer
        else:
            leader = left_of(deal.dealer)
        deal.trick = Trick(leader)

    def _play(self, seat: str, card: Card) -> None:
        deal = self.deal
        trick, contract = deal.trick, deal.contract
        assert trick is not None and contract is not None
        deal.hands[seat].remove(card)
        trick.plays.append((seat, card))
        if len(trick.plays) < len(SEATS):
            return
        # Highest trump wins, else the highest card of the led suit (nine high, ace low);
        # the winner leads to the next trick.
        winner = trick.winner(contract.trump, ace_low)
        deal.won[winner] += 1
        deal.tricks.append(trick)
        if play_stops(contract, deal.side_tricks(), self.options):
            self._finish_deal()
        else:
            deal.trick = Trick(winner)

    def _finish_deal(self) -> None:
        deal = self.deal
        contract = deal.contract
        assert contract is not None
        deal.trick = None
        deal.phase = "done"
        side_tricks = deal.side_tricks()
        outcome = score_deal(contract, side_tricks, self.options)
        for side, points in outcome["score_change"].items():
            self.scores[side] += points
        deal.result = {
            "contract": contract.to_record(),
            "declarer": contract.declarer,
            "tricks": side_tricks,
            "tricks_by_seat": dict(deal.won),
            "tricks_played": len(deal.tricks),
            **outcome,
        }
        deal.scores_after = dict(self.scores)
        # The match ends after the deal in which a side reaches the target; only one
        # side scores in a deal, so the winner is the side that got there.
        if max(self.scores.values()) >= self.options.target:
            high = max(self.scores.values())
            self._end_match([side for side in SIDES if self.scores[side] == high])
        else:
            self._start_deal(left_of(deal.dealer))

    # -- views -----------------------------------------------------------------------

    def view(self, seat: str | None) -> ElyigitView:
        """What ``seat`` may know now (``None``: a spectator)."""
        self._check_seat(seat)
        deal = self.deal
        opts = self.options
        contract = deal.contract
        to_act = self.to_act
        acting = self.acting_seat
        last = deal.tricks[-1] if deal.tricks else None
        finished = [d for d in self.deals if d.phase == "done"]
        trump = trump_code(contract.trump) if contract is not None else None
        return ElyigitView(
            seat=seat,
            seats=SEATS,
            sides=SIDES,
            deal_number=deal.number,
            dealer=deal.dealer,
            phase="over" if self._over else deal.phase,
            hand=tuple(_sorted(deal.hands[seat])) if seat is not None else (),
            hand_sizes={s: len(deal.hands[s]) for s in SEATS},
            auction=deal.auction.history(),
            min_bid=opts.min_bid,
            high_bid=deal.auction.high_bid,
            high_bidder=deal.auction.high_bidder,
            contract=deal.bid,
            declarer=deal.declarer,
            dummy=contract.dummy if contract is not None else None,
            trump=trump,
            dummy_hand=tuple(_sorted(deal.hands[contract.dummy])) if contract is not None else None,
            trick=TrickView.of(deal.trick) if deal.trick else None,
            tricks_played=tuple(TrickView.of(t, contract.trump, ace_low) for t in deal.tricks) if contract else (),
            last_trick=TrickView.of(last, contract.trump, ace_low) if last is not None and contract else None,
            tricks_won=dict(deal.won),
            side_tricks=deal.side_tricks(),
            targets=contract.targets() if contract is not None else None,
            min_tricks=opts.min_tricks,
            play_out=opts.play_out,
            play_rules=opts.play_rules,
            no_trumps=opts.no_trumps,
            scores=dict(self.scores),
            target=opts.target,
            score_sheet=tuple(self.score_sheet()),
            to_act=to_act,
            acting_seat=acting,
            legal=tuple(str(a) for a in self.legal_actions()) if seat is not None and seat == acting else (),
            winners=tuple(self._winners),
            previous_deal=self._public_summary(finished[-1]) if finished else None,
        )

    def _public_summary(self, deal: Deal) -> dict[str, Any]:
        """A finished deal as everybody saw it: no card that was not played."""
        return {
            "number": deal.number,
            "dealer": deal.dealer,
            "auction": [list(call) for call in deal.auction.history()],
            "contract": deal.contract.to_record() if deal.contract else None,
            "tricks": [t.to_record() for t in deal.tricks],
            "result": _copied(deal.result),
            "scores": _copied(deal.scores_after),
        }

    # -- score sheet and records -----------------------------------------------------

    def score_sheet(self) -> list[dict[str, Any]]:
        """One row per finished deal: the contract, its fate, the points and the running scores."""
        rows = []
        for deal in self.deals:
            if deal.result is None or deal.scores_after is None:
                continue
            rows.append({
                "deal": deal.number,
                "dealer": deal.dealer,
                "contract": deal.contract.to_record() if deal.contract else None,
                "tricks": _copied(deal.result.get("tricks")),
                "made": deal.result.get("made"),
                "score_change": dict(deal.result["score_change"]),
                "scores": dict(deal.scores_after),
            })
        return rows

    def _deal_record(self, deal: Deal) -> dict[str, Any]:
        contract = deal.contract
        return {
            "number": deal.number,
            "dealer": deal.dealer,
            "trump": contract.trump.value if contract is not None and contract.trump is not None else None,
            "contract": contract.to_record() if contract is not None else None,
            "hands": {seat: [c.code for c in deal.dealt[seat]] for seat in SEATS},
            "auction": [list(call) for call in deal.auction.history()],
            "actions": [dict(a) for a in deal.actions],
            "tricks": [t.to_record() for t in deal.tricks],
            "result": _copied(deal.result),
            "scores": _copied(deal.scores_after),
        }

    def record(self, players: Mapping[str, str] | None = None) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "game": self.game_id,
            "options": options_to_dict(self.options),
            **self.source_record(),
            "seats": list(SEATS),
            "sides": list(SIDES),
            "players": dict(players or {}),
            "deals": [self._deal_record(d) for d in self.deals],
            "score_sheet": self.score_sheet(),
            "final_scores": dict(self.scores),
            "winners": list(self._winners),
        }

    @classmethod
    def parse_action(cls, text: str) -> Action:
        return parse_elyigit_action(text)


def _copied(value: Any) -> Any:
    """A copy of plain data (dicts, lists, scalars), so that callers cannot change the state."""
    if isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copied(item) for item in value]
    return value


def _sorted(cards: Sequence[Card]) -> list[Card]:
    """A hand as people hold it here: by suit, nine down to ace."""
    return sort_hand(cards, ace_low)

