"""The contract every game implements: options, state, actions, errors, views, records.

Written once here and used by every game (records: docs/records.md; notation: docs/notation.md):

* **Options** are a frozen dataclass per game; :func:`options_from_mapping` builds one
  from loose text (command line, web form, record) and refuses unknown names.
* **State** (:class:`GameState`) is a whole match: it is created from options and a
  seed, says whose turn it is, lists the legal actions, applies one action at a time
  and refuses anything else with a typed error, leaving itself unchanged.
* **Actions** are small frozen values whose text form round-trips through the game's
  ``parse_action``; each also has a record form (a flat dict).
* **Views** hold exactly what one seat may know.
* **Records** are plain JSON-able dicts (``nines-record/1``); ``nines.record`` replays them.

This module has no I/O and no clock: it is part of the pure rules layer.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import random
import types
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Protocol, Self, TypeVar, runtime_checkable

from ..cards import Card
from ..randomness import DealSource, MatchSecret, rng_for

__all__ = [
    "Reason",
    "RulesError",
    "IllegalAction",
    "OutOfTurn",
    "MatchOver",
    "OptionsError",
    "Action",
    "GameState",
    "options_from_mapping",
    "options_to_dict",
    "RECORD_FORMAT",
    "ACTION_NOTES",
    "plain",
]

RECORD_FORMAT = "nines-record/1"

ACTION_NOTES = frozenset({"stand_in"})
"""Fields of a recorded action that are notes, not part of the move: who decided it (a web table marks the
moves a stand-in made for an absent person, ``"stand_in": true``).  Reading an action leaves them out."""


class Reason(str):
    """A refusal's English sentence that also carries a message key and its parameters.

    The key names the rule (``play.follow_suit``); the parameters are plain values a page
    fills into the sentence in the player's language (``web/static/refusals.json``).  By
    the name of a parameter a page knows how to say it: ``card`` and ``*_card`` a card
    code, ``cards``/``*_cards`` a list of them, ``suit``/``*_suit`` a suit letter or
    ``NT``, ``seat``/``*_seat`` a seat, ``actions`` a list of moves as typed; anything
    else is said as it is.  Being a ``str``, it reads as the English sentence wherever a
    plain message is expected.
    """

    key: str
    params: dict[str, Any]

    def __new__(cls, key: str, text: str, /, **params: Any) -> Self:
        self = super().__new__(cls, text)
        self.key = key
        self.params = {name: _jsonable(value) for name, value in params.items()}
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled whole (key, sentence, parameters): a decision comes back from a server's thinking process
        return _reason, (self.key, str(self), self.params)


def _reason(key: str, text: str, params: dict[str, Any]) -> Reason:
    return Reason(key, text, **params)


class RulesError(ValueError):
    """Something the rules do not allow.  The message says what was wrong and what is allowed.

    ``key`` and ``params`` say the same for a page that speaks another language (see
    :class:`Reason`); raising with a :class:`Reason` as the message takes both from it.
    """

    default_key: ClassVar[str] = "rules"

    def __init__(self, message: str = "", *, key: str | None = None, **params: Any) -> None:
        super().__init__(message)
        if key is None and isinstance(message, Reason):
            key, params = message.key, dict(message.params)
        self.key: str = key or self.default_key
        self.params: dict[str, Any] = {name: _jsonable(value) for name, value in params.items()}

    @classmethod
    def of(cls, key: str, text: str, /, **params: Any) -> RulesError:
        """The error with its English sentence, message key and parameters."""
        return cls(Reason(key, text, **params))


class IllegalAction(RulesError):
    """The action is not legal for the seat to act in this position."""

    default_key = "illegal"


class OutOfTurn(RulesError):
    """A seat tried to act when it is not that seat's turn."""

    default_key = "turn.not_yours"


class MatchOver(IllegalAction):
    """The match has ended; no more actions are taken."""

    default_key = "match.over"


class OptionsError(RulesError):
    """Unknown, malformed or inconsistent options."""

    default_key = "options"


@runtime_checkable
class Action(Protocol):
    """A move: frozen, hashable, ``str(action)`` is its text form (``play 9H``)."""

    @property
    def kind(self) -> str: ...

    def to_record(self) -> dict[str, Any]:
        """The flat record form, e.g. ``{"action": "play", "card": "9H"}``."""
        ...


A = TypeVar("A", bound=Action)
OptionsT = TypeVar("OptionsT")


class GameState(ABC):
    """A whole match of one game, advanced one action at a time.

    Subclasses implement the ``_`` hooks; the public methods here enforce the common
    behaviour: validation before any change, typed errors that teach, an action log.
    """

    game_id: ClassVar[str]

    def __init__(self, options: Any, seed: DealSource) -> None:
        self.options = options
        # Deals come from an int seed (reproducible: simulations, tournaments, analysis,
        # solo practice) or a match secret (tables where people hide cards from each other).
        self.seed: int | None = None if isinstance(seed, MatchSecret) else seed
        self.secret: MatchSecret | None = seed if isinstance(seed, MatchSecret) else None
        self.rng: random.Random = rng_for(seed)
        # (seat that acted, action) in order, for the whole match: the event log.
        self.log: list[tuple[str, Action]] = []
        # the deals (hands) of the match so far, the last one in progress
        self.deals: list[Any] = []
        self._over = False
        self._winners: list[str] = []
        # A host may end a match after this many deals, whatever the scores (the daily challenge,
        # nines.challenge): the match is over, without winners, once that many deals have a result.
        # Recorded as "deal_limit", so a record replays to the same end.
        self.deal_limit: int | None = None

    # -- what subclasses provide -------------------------------------------------

    @property
    @abstractmethod
    def seats(self) -> tuple[str, ...]:
        """The playing seats in clockwise order."""

    @property
    @abstractmethod
    def to_act(self) -> str | None:
        """The seat whose turn it is (``None`` once the match is over)."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every legal action for the seat to act, sorted and without repeats.  Where the rules let one move
        be written several ways, a game may name it once (rummy names a lay once per set of places, however
        its wilds are ordered); :meth:`check` accepts every way."""

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Carry out an action already known to be legal."""

    @abstractmethod
    def why_illegal(self, action: Action) -> str:
        """One sentence saying why ``action`` is not legal now and what is."""

    @property
    def deal_source(self) -> DealSource:
        """What the deals come from, to start the same match again (``new_match(options, deal_source)``)."""
        return self.secret if self.secret is not None else self.seed  # type: ignore[return-value]

    def source_record(self) -> dict[str, Any]:
        """The record fields that say where the deals came from.

        ``{"seed": N}`` for a seeded match.  A match dealt from a secret records
        ``"seed": null`` and, once the match is over and only then, ``"secret"`` (64
        hexadecimal digits): until the end it would show every hidden card.
        """
        limit = {} if self.deal_limit is None else {"deal_limit": self.deal_limit}
        if self.secret is None:
            return {"seed": self.seed, **limit}
        if self.is_over:
            return {"seed": None, "secret": self.secret.hex(), **limit}
        return {"seed": None, **limit}

    @property
    def is_over(self) -> bool:
        """True once the match has ended."""
        return self._over

    @property
    def winners(self) -> list[str]:
        """The winning seats (or sides) once the match is over; empty before."""
        return list(self._winners)

    def _end_match(self, winners: Sequence[str]) -> None:
        self._over = True
        self._winners = list(winners)

    @property
    def deal(self) -> Any:
        """The deal in progress (or the last one, once the match is over)."""
        return self.deals[-1]

    def left_of(self, seat: str) -> str:
        """The next seat clockwise: play, dealing and bidding go this way."""
        seats = self.seats
        return seats[(seats.index(seat) + 1) % len(seats)]

    def right_of(self, seat: str) -> str:
        seats = self.seats
        return seats[(seats.index(seat) - 1) % len(seats)]

    def _check_seat(self, seat: str | None) -> None:
        """Views are asked for a seat of this table, or ``None`` for a spectator."""
        if seat is not None and seat not in self.seats:
            raise IllegalAction.of(
                "seat.unknown", f"{seat!r} is not a seat; the seats are {' '.join(self.seats)}",
                name=seat, seats=list(self.seats),
            )

    @abstractmethod
    def view(self, seat: str | None) -> Any:
        """What ``seat`` may know; ``None`` is a spectator, who sees no hidden card."""

    @abstractmethod
    def record(self) -> dict[str, Any]:
        """The match so far as a ``nines-record/1`` dict."""

    def shared_record(self) -> dict[str, Any]:
        """:meth:`record`, to be read and never changed: a game may hand out the parts that never change
        (a finished deal's record) instead of copies."""
        return self.record()

    @classmethod
    @abstractmethod
    def parse_action(cls, text: str) -> Action:
        """Read an action's text form (``play 9H``); raises :class:`IllegalAction` if malformed."""

    @classmethod
    def action_from_record(cls, entry: Mapping[str, Any]) -> Action:
        """Read an action from its record form; by default via its text form."""
        parts = [str(entry["action"])]
        parts += [str(v) for k, v in entry.items() if k not in ("action", "seat") and k not in ACTION_NOTES]
        return cls.parse_action(" ".join(parts))

    def controller_of(self, seat: str) -> str:
        """The seat that decides for ``seat`` (a declarer plays the dummy)."""
        return seat

    # -- the common behaviour ----------------------------------------------------

    @property
    def acting_seat(self) -> str | None:
        """The seat whose player must decide now (the controller of :attr:`to_act`)."""
        seat = self.to_act
        return None if seat is None else self.controller_of(seat)

    def check(self, action: Action, by: str | None = None) -> None:
        """Raise the error ``apply`` would raise, without changing anything."""
        if self.is_over:
            raise MatchOver.of("match.over", "the match is over; no more moves can be made")
        to_act = self.to_act
        assert to_act is not None
        if by is not None and by != self.controller_of(to_act):
            mover = self.controller_of(to_act)
            if mover == to_act:
                raise OutOfTurn.of("turn.not_yours", f"it is not {by}'s turn: {to_act} is to act", by_seat=by, seat=to_act)
            raise OutOfTurn.of(
                "turn.not_yours_dummy", f"it is not {by}'s turn: {to_act} (played by {mover}) is to act",
                by_seat=by, seat=to_act, mover_seat=mover,
            )
        if not hasattr(action, "to_record"):
            raise IllegalAction.of("action.foreign", f"{action!r} is not an action of this game", action=repr(action))
        if not self._is_legal(action):
            raise IllegalAction(self.why_illegal(action))

    def _is_legal(self, action: Action) -> bool:
        """Whether ``action`` is among the legal actions now (a game that keeps its position's legal actions
        answers from them)."""
        return action in self.legal_actions()

    def can_apply(self, action: Action, by: str | None = None) -> bool:
        try:
            self.check(action, by)
        except RulesError:
            return False
        return True

    def apply(self, action: Action | str, by: str | None = None) -> None:
        """Apply an action (or its text) for the seat to act.

        ``by`` names who is sending it; if given it must be the seat to act (or the
        player controlling it).  A refused action raises a :class:`RulesError`
        subclass and leaves the state exactly as it was.
        """
        if isinstance(action, str):
            action = self.parse_action(action)
        self.check(action, by)
        seat = self.to_act
        assert seat is not None
        self._apply(action)
        self.log.append((seat, action))
        if self.deal_limit is not None and not self._over:
            self._end_at_deal_limit()

    def _end_at_deal_limit(self) -> None:
        """The match ends once :attr:`deal_limit` deals have a result; the next deal, dealt already, is dropped."""
        assert self.deal_limit is not None
        if sum(1 for deal in self.deals if getattr(deal, "result", None) is not None) < self.deal_limit:
            return
        del self.deals[self.deal_limit:]
        for cached in ("_legal", "_public"):  # a game's caches of the position (now the last deal's end)
            if cached in vars(self):
                setattr(self, cached, None)
        self._end_match([])

    def clone(self) -> GameState:
        return copy.deepcopy(self)


def copy_record(value: Any) -> Any:
    """A copy of record data (dicts, lists and scalars, as JSON holds them) that shares nothing changeable with
    it: what ``copy.deepcopy`` gives for such data, about five times faster (a record has no cycles and no shared
    parts to remember).  A tuple is copied part by part; any other object is shared as it is."""
    kind = type(value)
    if kind is dict:
        return {key: copy_record(item) for key, item in value.items()}
    if kind is list:
        return [copy_record(item) for item in value]
    if kind is tuple:
        return tuple([copy_record(item) for item in value])
    return value


def plain(value: Any) -> Any:
    """A view or record value as JSON-able data: cards as codes, dataclasses as dicts."""
    if value is None or type(value) in _SCALARS:
        return value
    kind = _KINDS.get(type(value))
    if kind is None:
        kind = _KINDS[type(value)] = _kind(value)
    if kind == "card":
        return value.code
    if kind == "dataclass":
        return {name: plain(getattr(value, name)) for name in _FIELD_NAMES[type(value)]}
    if kind == "mapping":
        return {str(k): plain(v) for k, v in value.items()}
    if kind == "sequence":
        return [plain(v) for v in value]
    return value


def plain_fields(
    view: Any,
    reuse: tuple[Any, dict[str, Any]] | None = None,
    convert: Mapping[str, Callable[[Any], Any]] | None = None,
) -> dict[str, Any]:
    """A view (a dataclass) as plain data, field by field (``convert`` names fields converted their own way).

    ``reuse`` is an earlier view of the same kind and its plain data: a field that holds the very same
    object as there (a finished deal's record, the completed tricks, the seats) is taken from that data
    instead of being converted again.  A view is a frozen picture: what it holds never changes after it
    is made, so the same object means the same data (a test holds this, move by move, for every game).
    A tuple that grew (the completed tricks) keeps the data of the items it had: only the new ones are
    converted.
    """
    before, done = reuse if reuse is not None and type(reuse[0]) is type(view) else (None, None)
    out: dict[str, Any] = {}
    for name in _field_names(type(view)):
        value = getattr(view, name)
        if done is not None:
            old = getattr(before, name)
            if value is old:
                out[name] = done[name]
                continue
            if type(value) is tuple and type(old) is tuple and _grew(old, value) and (convert is None or name not in convert):
                out[name] = [*done[name], *[plain(item) for item in value[len(old):]]]  # a new list: the old data stays as it was
                continue
        if convert is not None and name in convert:
            out[name] = convert[name](value)
        else:
            out[name] = plain(value)
    return out


def _grew(old: tuple[Any, ...], new: tuple[Any, ...]) -> bool:
    """Whether ``new`` is ``old`` (the very same items) with more at its end."""
    return 0 < len(old) < len(new) and all(a is b for a, b in zip(old, new, strict=False))


def _field_names(kind: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = _FIELD_NAMES[kind] = tuple(f.name for f in dataclasses.fields(kind))
    return names


# ``plain`` runs for every view sent after every move: what each type is, is worked out once per type
_SCALARS = frozenset({str, int, float, bool})
_KINDS: dict[type, str] = {}
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _kind(value: Any) -> str:
    if hasattr(value, "code") and hasattr(value, "is_joker"):  # a Card
        return "card"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        _FIELD_NAMES[type(value)] = tuple(f.name for f in dataclasses.fields(value))
        return "dataclass"
    if isinstance(value, Mapping):
        return "mapping"
    if isinstance(value, (list, tuple, set, frozenset)):
        return "sequence"
    return "other"


# -- options ------------------------------------------------------------------------


def options_to_dict(options: Any) -> dict[str, Any]:
    """Every option as JSON-able values (tuples become lists, enums their value)."""
    out: dict[str, Any] = {}
    for field in dataclasses.fields(options):
        out[field.name] = _jsonable(getattr(options, field.name))
    return out


def _jsonable(value: Any) -> Any:
    if isinstance(value, Reason):  # a phrase within a sentence: said in the page's language too
        return {"key": value.key, "params": value.params}
    if isinstance(value, Card):
        return value.code
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    if hasattr(value, "value") and not isinstance(value, (int, float, str, bool)):
        return value.value
    return value


MAX_OPTION_TEXT = 200
"""The longest text an option value may be written in (the longest real one is a trump cycle)."""

MAX_OPTION_ITEMS = 50
"""The most entries a list option may have; each game bounds its own lists more tightly."""


def options_from_mapping(
    cls: type[OptionsT], mapping: Mapping[str, Any], base: OptionsT | None = None
) -> OptionsT:
    """Build an options dataclass from loose values, refusing unknown names.

    Values may be text as typed on a command line (``"true"``, ``"6"``,
    ``"H,D,C,S,NT"``).  ``base`` supplies the values not given (a preset).
    Text longer than :data:`MAX_OPTION_TEXT` characters and lists longer than
    :data:`MAX_OPTION_ITEMS` entries are refused before they are read.
    """
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    hints = typing.get_type_hints(cls)
    unknown = sorted(str(name)[:40] for name in set(mapping) - set(fields))
    if unknown:
        raise OptionsError.of(
            "options.unknown",
            f"unknown option{'s' if len(unknown) > 1 else ''} {', '.join(unknown[:5])}; the options are: {', '.join(fields)}",
            names=", ".join(unknown[:5]), allowed=", ".join(fields),
        )
    for name, raw in mapping.items():
        if isinstance(raw, str) and len(raw) > MAX_OPTION_TEXT:
            raise OptionsError.of(
                "options.too_long", f"option {name} is {len(raw)} characters long; option values are at most {MAX_OPTION_TEXT}",
                option=name, count=len(raw), most=MAX_OPTION_TEXT,
            )
        if isinstance(raw, (list, tuple)) and len(raw) > MAX_OPTION_ITEMS:
            raise OptionsError.of(
                "options.too_many", f"option {name} has {len(raw)} entries; lists of options have at most {MAX_OPTION_ITEMS}",
                option=name, count=len(raw), most=MAX_OPTION_ITEMS,
            )
    values: dict[str, Any] = {}
    for name, raw in mapping.items():
        values[name] = _coerce(name, raw, hints[name])
    if base is not None:
        return dataclasses.replace(base, **values)  # type: ignore[type-var]
    return cls(**values)


def _coerce(name: str, raw: Any, hint: Any) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if (raw is None or (isinstance(raw, str) and raw.lower() in ("none", "null", ""))) and type(None) in args:
            return None
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _coerce(name, raw, arg)
            except OptionsError:
                continue
        raise OptionsError.of("options.value", f"option {name}: {_shown(raw)} is not an allowed value", option=name, value=_shown(raw))
    if origin is typing.Literal:
        if raw in args:
            return raw
        text = str(raw)
        for arg in args:
            if str(arg) == text:
                return arg
        raise OptionsError.of(
            "options.choice", f"option {name} must be one of {', '.join(map(str, args))}, not {_shown(raw)}",
            option=name, allowed=", ".join(map(str, args)), value=_shown(raw),
        )
    if hint is bool:
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in ("true", "yes", "on", "1"):
            return True
        if text in ("false", "no", "off", "0"):
            return False
        raise OptionsError.of("options.yes_no", f"option {name} is yes or no (true/false), not {_shown(raw)}", option=name, value=_shown(raw))
    if hint is int:
        not_whole = OptionsError.of("options.whole", f"option {name} is a whole number, not {_shown(raw)}", option=name, value=_shown(raw))
        # Only a real whole number: never a bool, never a fraction silently cut (9.99 is not 9),
        # never an infinity or NaN (int() of those raises OverflowError/ValueError, once a 500).
        if isinstance(raw, bool):
            raise not_whole
        if isinstance(raw, float):
            if not math.isfinite(raw) or not raw.is_integer():
                raise not_whole
            return int(raw)
        if isinstance(raw, int):
            return raw
        if not isinstance(raw, str):
            raise not_whole
        try:
            return int(raw.strip())
        except ValueError:
            raise not_whole from None
    if hint is str:
        return str(raw)
    if origin is tuple:
        items: Sequence[Any]
        if isinstance(raw, str):
            items = [part for part in raw.replace(" ", ",").split(",") if part]
        elif isinstance(raw, (list, tuple)):
            items = raw
        else:
            raise OptionsError.of("options.list", f"option {name} is a list (comma separated), not {_shown(raw)}", option=name, value=_shown(raw))
        item_hint = args[0] if args else str
        return tuple(_coerce(name, item, item_hint) for item in items)
    return raw


def _shown(raw: Any) -> str:
    """A value as an error message quotes it: never more than a line."""
    text = repr(raw)
    return text if len(text) <= 60 else text[:57] + "..."
