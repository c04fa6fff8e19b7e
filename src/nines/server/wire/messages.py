"""The messages of the table protocol and of the lobby API (pydantic models).

Every message a client sends names its ``type``; those that touch the game carry
``seq``, the table's sequence number the sender last saw (the number of actions taken
so far), so that a stale or repeated message is refused instead of acting twice.

Server to client: ``state`` (the receiver's own view only) when a socket opens or asks
(``resync``), then ``patch`` after every change (what changed, :mod:`nines.server.wire.delta`),
``ack`` for an accepted action, ``hint``, and ``error`` with a typed ``code``.
"""

from __future__ import annotations

import enum
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, StrictInt, TypeAdapter, model_validator

from ...games import available_games
from ...games.contract import Reason
from ..guard.limits import check_name

NAME_PATTERN = r"^[^\x00-\x1f<>]{1,40}$"  # kept for older callers; names are checked by PersonName
PersonName = Annotated[str, Field(min_length=1, max_length=40), AfterValidator(check_name)]
"""A name others see: no control or reordering characters, something visible (:func:`~nines.server.guard.limits.check_name`)."""
SEAT_PATTERN = r"^[A-Za-z0-9]{1,4}$"


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


# -- client -> server over the table's WebSocket ------------------------------------


class Hello(Strict):
    """First message on a socket: take a seat with its token, or watch (no seat)."""

    type: Literal["hello"]
    seat: Annotated[str, Field(pattern=SEAT_PATTERN)] | None = None
    token: Annotated[str, Field(min_length=8, max_length=128)] | None = None
    name: Annotated[str, Field(pattern=NAME_PATTERN)] | None = None
    """A name this browser holds (its cookie): a spectator at a table of today's challenge is let in only as
    someone who has finished that day's challenge of that game."""


class Act(Strict):
    """Make a move, in the game's text form (``play 9H``, ``bid 6``, ``draw stock``)."""

    type: Literal["act"]
    seq: StrictInt = Field(ge=0)
    action: str = Field(min_length=1, max_length=400)


class AskHint(Strict):
    """Ask the strongest available computer player what it would do, and why."""

    type: Literal["hint"]
    seq: StrictInt = Field(ge=0)


class SetPace(Strict):
    """Change how long computer players wait before moving at this table."""

    type: Literal["pace"]
    seq: StrictInt = Field(ge=0)
    delay_ms: StrictInt = Field(ge=0, le=5000)


class AskDeviceLink(Strict):
    """A seated player asks for a link that moves their seat to another device (it works once)."""

    type: Literal["device_link"]


class PlayAgain(Strict):
    """After a match: play again at a new table with the same people (``accept``), or decline."""

    type: Literal["again"]
    accept: StrictBool = True


class Resync(Strict):
    """Ask for the whole state again (a ``patch`` arrived whose ``base`` is not the state the client holds)."""

    type: Literal["resync"]


ClientMessage = Annotated[Hello | Act | AskHint | SetPace | Resync | AskDeviceLink | PlayAgain, Field(discriminator="type")]
CLIENT_MESSAGE = TypeAdapter(ClientMessage)


# -- server -> client ----------------------------------------------------------------


class ErrorCode(str, enum.Enum):  # noqa: UP042 -- StrEnum would change str() and format() of a code
    """Why a message was refused; the state is unchanged after every one of these."""

    MALFORMED = "malformed"  # not JSON, or not one of the messages above
    STALE = "stale"  # seq is not the table's current sequence number
    FORBIDDEN = "forbidden"  # wrong or missing seat token; a spectator trying to act
    OUT_OF_TURN = "out_of_turn"
    ILLEGAL = "illegal"  # the rules refuse the action
    MATCH_OVER = "match_over"
    WAITING = "waiting"  # a seat is still open: the match starts when every seat is taken
    HINTS_OFF = "hints_off"
    NOT_FOUND = "not_found"
    CONFLICT = "conflict"  # e.g. the seat was taken by someone else
    UNAVAILABLE = "unavailable"  # the database cannot be reached just now: nothing was done, try again
    LIMIT = "limit"  # a bound on size, count or rate was reached (the message says which): nothing was done


class SeatInfo(BaseModel):
    seat: str
    kind: Literal["human", "bot", "open"]
    name: str | None = None
    bot: str | None = None
    connected: bool = False
    stand_in: bool = False  # a computer player decides for this absent person until they come back


class ClockInfo(BaseModel):
    """The running clock of the seat to act: whole milliseconds left when the message was made."""

    seat: str
    left_ms: int
    limit_s: int


class AgainInfo(BaseModel):
    """Play again after the match: the new table and each person's answer (asked, accepted, declined)."""

    table: str
    answers: dict[str, Literal["asked", "accepted", "declined"]]


class TableInfo(BaseModel):
    """What anyone at the table (or in the lobby) may know about it."""

    id: str
    game: str
    title: str
    preset: str | None
    options: dict[str, Any]
    seats: list[SeatInfo]
    seq: int
    status: Literal["waiting", "playing", "over"]
    hints: bool
    bot_delay_ms: int
    public: bool
    created_at: str
    winners: list[str] = []
    clock_s: int | None = None
    away_s: int = 60
    clock: ClockInfo | None = None
    paused: bool = False
    moved_ago_s: int | None = None  # seconds since the last move (or since the table was made)
    again: AgainInfo | None = None
    practice: bool = False
    """Solo practice: dealt from a seed the creator chose, with no other person seated; left out of statistics."""


class LastAction(BaseModel):
    seq: int
    seat: str
    by: str
    action: str
    stand_in: bool = False  # made by a computer player for an absent or out-of-time person


class StateMessage(BaseModel):
    type: Literal["state"] = "state"
    seq: int
    you: str | None
    table: TableInfo
    view: dict[str, Any]
    last: LastAction | None = None
    invite: str | None = None  # seated players may share invite links for open seats
    rev: int = 0  # the table's revision on this socket: a later ``patch`` names it as its ``base``


class PatchMessage(BaseModel):
    """What changed since the state (or patch) of revision ``base``: see :mod:`nines.server.wire.delta`."""

    type: Literal["patch"] = "patch"
    seq: int
    rev: int
    base: int
    changes: list[list[Any]]


class AckMessage(BaseModel):
    type: Literal["ack"] = "ack"
    seq: int
    action: str


class HintMessage(BaseModel):
    """A computer player's advice.  ``reason`` is its English sentence; ``key`` and ``params`` say it in the
    page's language (``web/static/hints.json``), taken from the reason when it is a keyed
    :class:`~nines.games.contract.Reason`, as every reason of the players that give hints is."""

    type: Literal["hint"] = "hint"
    seq: int
    action: str
    reason: str
    player: str
    key: str = ""
    params: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _keyed_reason(cls, data: Any) -> Any:
        reason = data.get("reason") if isinstance(data, dict) else None
        if isinstance(reason, Reason) and not data.get("key"):
            data = {**data, "key": reason.key, "params": reason.params}
        return data


class DeviceLinkMessage(BaseModel):
    """A one-time address that seats whichever browser opens it first (this one becomes a spectator)."""

    type: Literal["device_link"] = "device_link"
    url: str


class AgainMessage(BaseModel):
    """The answer to ``again``: the new table and, for one who accepted, a one-time address that seats them."""

    type: Literal["again"] = "again"
    table: str
    url: str | None = None


class ErrorMessage(BaseModel):
    """A refusal: ``code`` for programs, ``message`` in English, ``key`` and ``params`` for a page to say it in
    the player's language (the strings are in ``web/static/refusals.json``)."""

    type: Literal["error"] = "error"
    code: ErrorCode
    message: str
    seq: int | None = None
    key: str | None = None
    params: dict[str, Any] = {}


# -- lobby (HTTP) --------------------------------------------------------------------


class SeatChoice(Strict):
    """Who sits in one seat: the creator, a computer player, or nobody yet (a friend)."""

    kind: Literal["me", "bot", "open"]
    bot: str | None = None


class CreateTable(Strict):
    game: str = Field(min_length=1, max_length=20, json_schema_extra={"enum": list(available_games())})
    preset: str | None = Field(default=None, max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    # two to eight seats (a game's seats: Le Neuf three, Elyigit's Nines four, rummy 2 to 8 by its options)
    # the description says two to eight (minProperties/maxProperties); fewer is refused by the game's own check,
    # whose message names the seats it needs ("say who sits in each seat: S W E")
    seats: dict[Annotated[str, Field(pattern=SEAT_PATTERN)], SeatChoice] = Field(
        max_length=8, json_schema_extra={"minProperties": 2})
    name: PersonName | None = None
    hints: StrictBool = True
    bot_delay_ms: StrictInt | None = Field(default=None, ge=0, le=5000)
    public: StrictBool = False  # private unless made public: only public tables' open seats are listed
    seed: StrictInt | None = Field(default=None, ge=0, le=2**31 - 1)
    """Solo practice only (every seat yourself or a computer player): deals repeatable from this seed.
    Without it the deals come from a secret drawn for the match and revealed in its finished record."""
    clock_s: StrictInt | None = Field(default=None, ge=1, le=3600)  # seconds a person has for each decision
    away_s: StrictInt | None = Field(default=None, ge=1, le=86400)  # disconnected this long: a stand-in plays
    stand_in: str | None = Field(default=None, max_length=40)  # the computer player standing in (basic)
    casual: StrictBool = False  # a casual match is not rated (solo practice from a chosen seed never is)


class ResolveOptions(Strict):
    preset: str | None = Field(default=None, max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)


class JoinSeat(Strict):
    seat: Annotated[str, Field(pattern=SEAT_PATTERN)]
    invite: str = Field(min_length=4, max_length=64)
    name: PersonName | None = None


class HttpAct(Strict):
    """The same move as over the socket, for clients without one."""

    seat: Annotated[str, Field(pattern=SEAT_PATTERN)]
    token: str = Field(min_length=8, max_length=128)
    seq: StrictInt = Field(ge=0)
    action: str = Field(min_length=1, max_length=400)


class Person(Strict):
    name: PersonName


class TakeName(Strict):
    """A one-time code (from the device that holds a name) that gives this browser the name too."""

    code: str = Field(min_length=1, max_length=32)


class PasskeyStart(Strict):
    """Sign in with a passkey: the name whose passkeys may answer (none: any passkey this site knows)."""

    name: PersonName | None = None


class PasskeyAnswer(Strict):
    """A browser's answer to a passkey challenge: the challenge's ticket and the credential
    (``PublicKeyCredential`` as JSON, binary fields in base64url)."""

    ticket: str = Field(min_length=8, max_length=64)
    credential: dict[str, Any]


class Seated(BaseModel):
    """What the creator or a joining friend receives: the seat, its secret token (for programs) and a
    one-time ``url`` that seats the browser which opens it first (for people)."""

    table: TableInfo
    seat: str | None
    token: str | None
    invite: str
    url: str | None = None


class Claim(Strict):
    """Take a seat with a one-time claim (from ``url``); the answer sets the seat's cookie."""

    claim: str = Field(min_length=8, max_length=128)


class AgainRequest(Strict):
    """Play again, for programs: the seat at the finished table and its token."""

    seat: Annotated[str, Field(pattern=SEAT_PATTERN)]
    token: str = Field(min_length=8, max_length=128)
    accept: StrictBool = True
