"""Each trick-taking deal of a record rebuilt with the rules engine, as the review needs it.

The deal is dealt again from its record (the hands as dealt, the dealer, the trump) and
every action of the record is applied by the game's own rules, so an illegal or
out-of-turn action is refused here exactly as at the table.  On the way the review keeps
what it will score: the table just before every card played, each Le Neuf exchange
decision (with the hands play would have begun with had the seat decided the other
way), and the naming of trumps in Elyigit's Nines (with the hands and the leader under
every trump the declarer could have named).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..cards import Card, NotationError, Suit, parse_card
from ..games import UnknownGame, get_game
from ..games.contract import RECORD_FORMAT, GameState, Reason, RulesError
from ..games.elyigit.actions import NameTrump
from ..games.elyigit.options import ElyigitOptions
from ..games.elyigit.play_rules import STRICT
from ..games.elyigit.state import ElyigitState
from ..games.elyigit.state import PresetDeal as ElyigitDeal
from ..games.neuf.actions import Exchange, Keep
from ..games.neuf.options import NeufOptions
from ..games.neuf.state import SPARE, NeufState
from ..games.neuf.state import PresetDeal as NeufDeal
from ..games.tricks import Play, parse_trump, trump_code

__all__ = ["CardPlayed", "ExchangeDecision", "RebuiltDeal", "ReviewError", "TrumpChoice", "rebuild_deal", "trick_game"]

TRICK_GAMES = ("neuf", "elyigit")

Hands = Mapping[str, tuple[Card, ...]]


class ReviewError(ValueError):
    """A record the review cannot read: malformed, or its actions do not replay under its rules."""


@dataclass(frozen=True)
class CardPlayed:
    """A card played, with the table just before it."""

    trick: int
    """1 for the first trick of the deal"""
    seat: str
    """whose card it was"""
    by: str
    """who chose it: the seat itself, or the declarer for the dummy's cards (Elyigit)"""
    card: Card
    hands: Hands
    """every hand just before the card (the card still in its hand)"""
    leader: str
    played: tuple[Card, ...]
    """cards already on the table in this trick, from the leader"""


@dataclass(frozen=True)
class ExchangeDecision:
    """A Le Neuf exchange decision: keep one's hand, or take the hand in the centre."""

    seat: str
    choice: str
    """``keep`` or ``exchange``"""
    hands: Hands
    """the hands at the first lead as the deal was played"""
    other_hands: Hands
    """the hands at the first lead had the seat decided the other way (later seats deciding as they did)"""
    leader: str


@dataclass(frozen=True)
class TrumpChoice:
    """The naming of trumps in Elyigit's Nines: what each possible trump would have begun with."""

    declarer: str
    bid: int
    trump: Suit | None
    """the trump named"""
    choices: Mapping[str, tuple[Suit | None, Hands, str]]
    """for each trump allowed (``S``..``C``, ``NT``): the trump, the hands at the first lead, the leader"""


@dataclass(frozen=True)
class RebuiltDeal:
    """One deal of a trick-taking game, replayed."""

    number: int
    game: str
    form: str
    """the solver's form: ``three``, ``partners`` or ``individual``"""
    trump: Suit | None
    plays: tuple[CardPlayed, ...]
    exchange: tuple[ExchangeDecision, ...] = ()
    contract: TrumpChoice | None = None
    unscorable: str | None = None
    """why the solver cannot score this deal's cards, if it cannot"""
    tricks_in_deal: int = 13
    """tricks a deal has when every trick is played"""

    @property
    def stopped_early(self) -> bool:
        """Whether play stopped before the last trick (Elyigit's end of the hand, Le Neuf's instant win)."""
        return bool(self.plays) and self.plays[-1].trick < self.tricks_in_deal


def trick_game(game: str) -> bool:
    return game in TRICK_GAMES


def _cards(values: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(values, Sequence) or isinstance(values, str):
        raise ReviewError(f"{where}: expected a list of cards such as [\"9H\", \"TS\"], found {values!r}")
    try:
        return tuple(parse_card(str(value)) for value in values)
    except NotationError as error:
        raise ReviewError(f"{where}: {error}") from None


def _hands(state: GameState) -> dict[str, tuple[Card, ...]]:
    """Every seat's hand now (the deal in progress holds them; the review may see them all)."""
    return {seat: tuple(cards) for seat, cards in state.deal.hands.items()}


def _table(state: GameState) -> tuple[str, tuple[Card, ...]]:
    """The leader of the trick in progress and the cards on it."""
    trick = state.deal.trick
    assert trick is not None
    return trick.leader, tuple(card for _, card in trick.plays)


def _start(game: str, options: Any, deal: Mapping[str, Any]) -> GameState:
    """A match whose first deal is this deal, as dealt."""
    number = deal.get("number", "?")
    hands_record = deal.get("hands")
    if not isinstance(hands_record, Mapping):
        raise ReviewError(f"deal {number}: no 'hands' as dealt (every seat's cards)")
    dealer = deal.get("dealer")
    try:
        if game == "neuf":
            assert isinstance(options, NeufOptions)
            trump = deal.get("trump")
            # the deal's own trump, whatever its place in the cycle; scores play no part in the review
            opts = replace(options, trump_cycle=(trump_code(parse_trump(str(trump or "NT"))),), instant_win=False, first_dealer=None)
            hands = {seat: _cards(hands_record.get(seat), f"deal {number}, hand of {seat}") for seat in opts.seats}
            spare = _cards(hands_record.get(SPARE, []), f"deal {number}, the spare hand")
            return NeufState(opts, 0, preset_deal=NeufDeal(str(dealer), hands, spare))
        assert isinstance(options, ElyigitOptions)
        hands = {seat: _cards(hands_record.get(seat), f"deal {number}, hand of {seat}") for seat in options.seats}
        return ElyigitState(replace(options, first_dealer=None), 0, preset_deal=ElyigitDeal(str(dealer), hands))
    except (RulesError, ValueError) as error:
        if isinstance(error, ReviewError):
            raise
        raise ReviewError(f"deal {number}: cannot be dealt again from its record: {error}") from None


def _form(game: str, options: Any) -> str:
    return options.form if game == "neuf" else "partners"


def _unscorable(game: str, options: Any) -> str | None:
    if game == "elyigit" and options.play_rules != STRICT:
        return Reason(
            "review.relaxed_rules",
            "the solver plays the seed's compulsory rule in full (beat the led suit, trump, over-trump, "
            "under-trump, no exception for a partner); this match relaxes it, so its cards cannot be scored",
        )
    return None


def _after_exchange(state: GameState, later: Sequence[Mapping[str, Any]]) -> tuple[Hands, str]:
    """Apply the later seats' recorded decisions; the hands and the leader at the first lead."""
    for entry in later:
        state.apply(state.action_from_record(entry))
    return _hands(state), _table(state)[0]


def rebuild_deal(game: str, options: Any, deal: Mapping[str, Any]) -> RebuiltDeal:
    """Replay one deal record of ``neuf`` or ``elyigit`` under ``options`` (the game's options object)."""
    number = int(deal.get("number", 0))
    state = _start(game, options, deal)
    actions = deal.get("actions", [])
    if not isinstance(actions, Sequence):
        raise ReviewError(f"deal {number}: 'actions' should be a list")
    plays: list[CardPlayed] = []
    pending: list[tuple[str, str, GameState, int]] = []  # exchange decisions: seat, choice, the other line, index
    contract: TrumpChoice | None = None
    trump: Suit | None = None
    tricks_done = 0
    for index, entry in enumerate(actions):
        where = f"deal {number}, action {index + 1}"
        if not isinstance(entry, Mapping):
            raise ReviewError(f"{where}: an action is an object such as {{\"seat\": \"S\", \"action\": \"play\", \"card\": \"9H\"}}")
        seat = state.to_act
        if seat is None or entry.get("seat") != seat:
            raise ReviewError(f"{where}: the record says {entry.get('seat')} acted but {seat or 'nobody'} was to act")
        try:
            action = state.action_from_record(entry)
            if isinstance(action, Play):
                leader, played = _table(state)
                plays.append(CardPlayed(tricks_done + 1, seat, state.controller_of(seat), action.card, _hands(state), leader, played))
                if len(played) + 1 == len(state.seats):
                    tricks_done += 1
            elif isinstance(action, (Keep, Exchange)):
                other = state.clone()
                other.apply(Exchange() if isinstance(action, Keep) else Keep())
                pending.append((seat, str(action), other, index))
            elif isinstance(action, NameTrump):
                contract = _trump_choice(state, action, seat)
            state.apply(action)
        except RulesError as error:
            raise ReviewError(f"{where} ({entry.get('action')} {entry.get('card', '')}): {error}".replace(" )", ")")) from None
        except (KeyError, TypeError) as error:
            raise ReviewError(f"{where}: malformed action entry ({error})") from None
    exchange = []
    if pending and plays:
        first = plays[0]
        for seat, choice, other, index in pending:
            later = [entry for entry in actions[index + 1 :] if entry.get("action") in ("keep", "exchange")]
            other_hands, other_leader = _after_exchange(other, later)
            assert other_leader == first.leader
            exchange.append(ExchangeDecision(seat, choice, first.hands, other_hands, first.leader))
    if game == "neuf":
        trump = parse_trump(str(deal.get("trump") or "NT"))
    elif contract is not None:
        trump = contract.trump
    return RebuiltDeal(
        number=number,
        game=game,
        form=_form(game, options),
        trump=trump,
        plays=tuple(plays),
        exchange=tuple(exchange),
        contract=contract,
        unscorable=_unscorable(game, options),
        tricks_in_deal=13 if game == "neuf" else 9,
    )


def _trump_choice(state: GameState, named: NameTrump, declarer: str) -> TrumpChoice:
    """What every trump the declarer could have named would have begun play with."""
    choices: dict[str, tuple[Suit | None, Hands, str]] = {}
    for action in state.legal_actions():
        assert isinstance(action, NameTrump)
        line = state.clone()
        line.apply(action)
        choices[trump_code(action.suit)] = (action.suit, _hands(line), _table(line)[0])
    bid = state.view(None).contract  # the bid, or the lowest bid of a forced contract
    return TrumpChoice(declarer, int(bid), named.suit, choices)


def record_options(record: object) -> tuple[str, Any]:
    """The game id and its options object, read from a record."""
    if not isinstance(record, Mapping) or record.get("format") != RECORD_FORMAT:
        found = record.get("format") if isinstance(record, Mapping) else type(record).__name__
        raise ReviewError(f"not a Nines game record: expected a JSON object with \"format\": {RECORD_FORMAT!r}, found {found!r}")
    game = record.get("game")
    try:
        spec = get_game(str(game))
        return spec.id, spec.options_from_record(record.get("options") or {})
    except (UnknownGame, RulesError) as error:
        raise ReviewError(str(error)) from None
