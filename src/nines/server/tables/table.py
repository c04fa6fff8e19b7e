"""A table: one match of a game, its seats, the sockets watching it and what each is shown.

A :class:`Table` holds the rules' state of its match and everything about the people around
it: who sits where (people, computer players, open seats), who is here and who is away (a
stand-in plays for a person gone too long), the clock, the views each seat is shown and the
patches that bring every socket up to date.  The :class:`~nines.server.tables.manager.TableManager`
changes tables; a table itself never touches the database or the pub/sub.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import BaseModel

from ...bots import Player, make_player
from ...games import GameSpec
from ...games.contract import GameState, Reason
from ...randomness import DealSource, MatchSecret
from ..wire.delta import Shown
from ..wire.messages import (
    AgainInfo,
    ClockInfo,
    ErrorCode,
    LastAction,
    SeatInfo,
    StateMessage,
    TableInfo,
)

__all__ = ["DEFAULT_STAND_IN", "SPECTATORS_BUSY_S", "SPECTATORS_EVERY_S", "SPECTATORS_PACE", "Connection", "Elsewhere", "Owner", "Seat", "Table",
           "TableError", "hash_token", "mark_stand_ins", "seat_player", "utcnow"]

DEFAULT_STAND_IN = "basic"

SPECTATORS_EVERY_S = 0.1
"""Spectators are sent the changes of a table at most this often (the seats' sockets, every change at once)."""

SPECTATORS_BUSY_S = 0.3
"""...and at most this often while the event loop runs late: people's moves first.  Under
``benchmarks/server_load.py`` (300 spectators) the spectators' patches were most of the socket writes, each
31 µs of CPU and 90 µs of the loop's wall clock on a busy machine; merged over 0.25 s the load stored 445
moves a second instead of 301, the acknowledgement p99 226 ms instead of 321 (two runs one after the other).
A page at normal pace (computer players wait ``bot_delay_ms``, 900 ms by default) never sees it."""

LATE_S = 0.02
"""A spectators' change held back whose timer fires this late says the event loop is behind."""

BUSY_FOR_S = 1.0
"""The busy pace lasts this long after the last late timer (under steady load held changes keep coming, and
keep telling)."""


class _SpectatorsPace:
    """How often spectators are sent a table's changes, for every table of the process (one event loop)."""

    busy_until = 0.0

    def every_s(self, now: float) -> float:
        if now < self.busy_until:
            return max(SPECTATORS_EVERY_S, SPECTATORS_BUSY_S)
        return SPECTATORS_EVERY_S

    def fired(self, due: float, now: float) -> None:
        """A held change's timer fired at ``now``, due at ``due``."""
        if now - due > LATE_S:
            self.busy_until = now + BUSY_FOR_S


SPECTATORS_PACE = _SpectatorsPace()


class TableError(Exception):
    """A refused request: a typed code for programs and a sentence for people.

    ``key`` and ``params`` let a page say it in the player's language (``web/static/refusals.json``):
    the rules' own key for a move the rules refuse, a :class:`Reason` as the message gives its own,
    ``server.<code>`` otherwise.
    """

    def __init__(self, code: ErrorCode, message: str, *, key: str | None = None, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        if key is None and isinstance(message, Reason):
            key, params = message.key, message.params
        self.key = key or f"server.{code.value}"
        self.params = dict(params or {})


class Connection(Protocol):
    """A socket at a table: a seat (``None`` for a spectator) and a way to queue messages."""

    seat: str | None

    def send(self, message: BaseModel) -> None:
        """Queue a message; must not block (the table's lock may be held)."""
        ...

    def send_text(self, text: str) -> None:
        """Queue a message already serialized (one text shared by every socket showing the same view)."""
        ...


class Elsewhere(Protocol):
    """The other server processes sharing a table, as its spectators' frames see them (``tables/fanout.py``)."""

    def relaying(self, table: Table) -> bool:
        """Another process works out the spectators' frames: this one forwards them to its own spectators."""
        ...

    def watching(self, table: Table) -> bool:
        """This process works them out, and spectators on other processes wait for them."""
        ...

    def published(self, table: Table, rev: int, base: int | None, text: str) -> None:
        """A frame of the spectators' view worked out here (``base`` None: a whole state), for the others."""
        ...

    def wanted(self, table: Table) -> None:
        """A spectator here needs the whole state, and this process keeps none from the owner: ask for it."""
        ...


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Seat:
    seat: str
    kind: str  # human, bot, open
    bot: str | None = None
    person: str | None = None
    token_hash: str | None = None
    player: Player | None = None

    def info(self, connected: bool, stand_in: bool = False) -> SeatInfo:
        return SeatInfo.model_validate(self.info_body(connected, stand_in))

    def info_body(self, connected: bool, stand_in: bool = False) -> dict[str, Any]:
        """:meth:`info` as plain data (the fields of :class:`SeatInfo`, in order)."""
        name = self.person if self.kind == "human" else self.bot
        return {"seat": self.seat, "kind": self.kind, "name": name, "bot": self.bot, "connected": connected,
                "stand_in": stand_in}


@dataclass
class Owner:
    """Which process owns the table among those sharing it, as this one last heard (``tables/owners.py``)."""

    here: bool = False  # this one: it moves the table's computer players and stand-ins
    elsewhere: str | None = None  # another one (its instance), or None: none known
    until: float = 0.0  # the lease is taken to last until then (the monotonic clock)
    ask_at: float = 0.0  # when to ask Redis again: the owner renews, another process sees whether it lapsed
    spectators_until: float = 0.0  # the owner: until then spectators elsewhere wait for the frames worked out here
    parked: bool = False  # this process's driver waits for the owner: another process's moves need not wake it
    heard_at: float = 0.0  # when another process last said something about the table
    released_by: str | None = None  # the last process heard to let the table go
    released_at: float = 0.0  # and when that was heard


@dataclass
class Table:
    id: str
    spec: GameSpec
    state: GameState
    preset: str | None
    options: dict[str, Any]
    source: DealSource  # a match secret, or the chosen seed of solo practice (never shown while playing)
    hints: bool
    bot_delay_ms: int
    public: bool
    invite: str
    created_at: dt.datetime
    seats: dict[str, Seat]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    last: LastAction | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)  # set on every change the driver cares about
    deals_counted: int = 0
    match_counted: bool = False
    clock_s: int | None = None
    """Seconds a person has for each decision (``None``: no clock)."""
    away_s: int = 60
    """A person gone this long is played by a stand-in until they come back."""
    stand_in_bot: str = DEFAULT_STAND_IN
    """The computer player that decides for an absent or out-of-time person."""
    stand_ins: dict[int, str] = field(default_factory=dict)
    """seq -> the seat a stand-in decided for (those moves are marked in the record and on the pages)."""
    moved_at: dt.datetime | None = None
    """When the last move was made (the lobby shows how long ago)."""
    next_table: str | None = None
    cancelled: bool = False  # cancelled by the person who made it before anyone else joined: no more moves
    """Play again: the table of the next match, once someone asked for it."""
    again_answers: dict[str, str] = field(default_factory=dict)
    driver: Any = None  # the TableDriver moving this table (see driver.py)
    turn_started: float = field(default_factory=time.monotonic)
    seen_at: dict[str, float] = field(default_factory=dict)  # seat -> when its person was last here
    watched_until: float = 0.0  # a table asked for over HTTP counts as watched until then
    active_at: float = field(default_factory=time.monotonic)  # last move or visit (for closing idle tables)
    _stand_in_players: dict[str, Player] = field(default_factory=dict)
    practice: bool = False  # solo practice from a chosen seed: left out of statistics
    owner: Owner = field(default_factory=Owner)  # with several processes: which one moves the table
    unpublished: list[LastAction] = field(default_factory=list)  # with several: moves made here, not yet told
    elsewhere: Elsewhere | None = None  # with several processes: where else its spectators' frames go or come from
    shown: Shown = field(default_factory=Shown)  # what each socket was last shown: changes go as patches
    # the rules' views at this move, worked out once: every socket of a seat, its computer player, the
    # statistics and the reviews all read the same one (see view())
    _views: dict[str | None, tuple[Any, dict[str, Any] | None]] = field(default_factory=dict)
    _views_at: tuple[int, int] = (0, -1)
    _plain_before: dict[str | None, tuple[Any, dict[str, Any]]] = field(default_factory=dict)  # last view and data per seat
    _last_dumped: tuple[LastAction | None, dict[str, Any] | None] = (None, None)  # the last action and its plain data
    _record_at: tuple[tuple[int, int], dict[str, Any] | None] = ((0, -1), None)  # (state, seq) and its record
    clock: Callable[[], float] = field(default=time.monotonic, repr=False, compare=False)
    """The monotonic clock the spectators' pace and a decision's clock (``clock_s``) read (a test gives its own:
    the machine's uptime and speed must not matter).  People coming and going read ``time.monotonic``."""
    _spectators_shown_at: float | None = None  # when the spectators were last sent a change (None: never)
    _spectators_due: asyncio.TimerHandle | None = None  # their next change, when one is held back
    _created_shown: tuple[dt.datetime, str] | None = None  # created_at and its text in messages
    _moved_shown: tuple[dt.datetime, float] | None = None  # the last move's time and its seconds since the epoch

    @property
    def seq(self) -> int:
        """The number of actions taken: the sequence number every message must quote."""
        return len(self.state.log)

    @property
    def status(self) -> str:
        if self.state.is_over:
            return "over"
        if any(seat.kind == "open" for seat in self.seats.values()):
            return "waiting"
        return "playing"

    def view(self, seat: str | None) -> Any:
        """What the rules let ``seat`` see now (``None``: a spectator), worked out once per move.

        A view is a frozen picture of the state: the same object can serve every reader until the
        next move, when the cache starts again."""
        return self._view(seat)[0]

    def view_dict(self, seat: str | None) -> dict[str, Any]:
        """:meth:`view` as plain JSON-ready data, worked out once per move (never change what it returns)."""
        view, plain_view = self._view(seat)
        if plain_view is None:
            # what did not change since this seat's last view (a finished deal, the completed tricks) is
            # the very same object in both views, and its plain data is taken from the last one
            plain_view = view.to_dict(reuse=self._plain_before.get(seat))
            self._views[seat] = (view, plain_view)
            self._plain_before[seat] = (view, plain_view)
        return plain_view

    def _view(self, seat: str | None) -> tuple[Any, dict[str, Any] | None]:
        at = (id(self.state), self.seq)
        if at != self._views_at:
            self._views.clear()
            self._views_at = at
        cached = self._views.get(seat)
        if cached is None:
            cached = self._views[seat] = (self.state.view(seat), None)
        return cached

    def record_now(self) -> dict[str, Any]:
        """The match's record at this move (``state.record()``: every hand, so never for a view), made
        once per move and shared by its readers on the server: the statistics and the reviews, when a deal
        ends (each once built it whole, copying every finished deal's record).  Read it, never change it."""
        at = (id(self.state), self.seq)
        if self._record_at[0] != at:
            self._record_at = (at, self.state.shared_record())
        record = self._record_at[1]
        assert record is not None
        return record

    def deal_number(self) -> int | None:
        """The deal in progress: its number in the state (every game here keeps its deal in ``deal``), or
        the view's ``deal_number``.  Asked after every move (statistics, reviews): building the spectators'
        view for it cost a whole view per move, even when the spectators' patch waits."""
        number = getattr(getattr(self.state, "deal", None), "number", None)
        if not isinstance(number, int):
            number = getattr(self.view(None), "deal_number", None)
        return number if isinstance(number, int) else None

    def connected_seats(self) -> set[str]:
        return {c.seat for c in self.connections if c.seat is not None}

    # -- presence, clock, pauses (read by the driver) ----------------------------------

    def people_seats(self) -> list[str]:
        return [s.seat for s in self.seats.values() if s.kind == "human"]

    def here(self, seat: str) -> bool:
        return any(c.seat == seat for c in self.connections)

    def away_in(self, seat: str, now: float, connected: set[str] | None = None) -> float | None:
        """Seconds until the person of ``seat`` has been gone long enough for a stand-in (None: here).
        ``connected``: the seats with a socket here, when the caller worked them out already."""
        if (seat in connected) if connected is not None else self.here(seat):
            return None
        return self.seen_at.get(seat, now) + self.away_s - now

    def stood_in(self, seat: str, now: float, connected: set[str] | None = None) -> bool:
        """A stand-in plays this person's seat: gone longer than ``away_s`` (theirs again when back)."""
        if self.seats[seat].kind != "human":
            return False
        left = self.away_in(seat, now, connected)
        return left is not None and left <= 0

    def watched(self, now: float) -> bool:
        """Someone is connected, asked for the table lately, or a person was here within ``away_s``; for the
        table's owner among several processes, spectators on another process count too (they said so lately)."""
        if self.connections or now < self.watched_until or now < self.owner.spectators_until:
            return True
        return any(now - self.seen_at.get(s, -1e18) < self.away_s for s in self.people_seats())

    def paused(self, now: float) -> bool:
        """Nobody here: no computer player or stand-in moves until someone comes.  A clock too stops once
        every person has been gone ``away_s`` and nobody watches: it lets the others go on, and none are
        left (a rummy table whose open session only the table can end once played on for ever, unwatched)."""
        return not self.watched(now)

    def clock_left(self, now: float) -> float:
        assert self.clock_s is not None
        return self.clock_s - (now - self.turn_started)

    def stand_in_player(self, seat: str) -> Player:
        player = self._stand_in_players.get(seat)
        if player is None:
            player = seat_player(self, seat, self.stand_in_bot, role="stand-in")
            self._stand_in_players[seat] = player
        return player

    def turn_changed(self, wake: bool = True) -> None:
        """A new decision begins: its clock starts now; the driver looks again (unless ``wake`` is false)."""
        self.turn_started = self.clock()
        self.active_at = time.monotonic()
        if wake:
            self.wake.set()

    def _clock(self, now: float) -> ClockInfo | None:
        acting = self.state.acting_seat
        if self.clock_s is None or self.status != "playing" or acting is None:
            return None
        if self.seats[acting].kind != "human" or self.stood_in(acting, now):
            return None
        return ClockInfo(seat=acting, left_ms=max(0, int(self.clock_left(now) * 1000)), limit_s=self.clock_s)

    def again_info(self) -> AgainInfo | None:
        if self.next_table is None:
            return None
        answers = {s: self.again_answers.get(s, "asked") for s in self.people_seats()}
        return AgainInfo(table=self.next_table, answers=answers)  # type: ignore[arg-type]

    def players(self) -> dict[str, str]:
        """Who played each seat, as the record names them."""
        return {s.seat: (s.person or "guest") if s.kind == "human" else (s.bot or s.kind) for s in self.seats.values()}

    def final_record(self) -> dict[str, Any]:
        """The ``nines-record/1`` of the finished match (with its secret), with who played and the table's id."""
        assert self.state.is_over, "only a finished match's record is shown: until then it holds every hand"
        record = self.state.record(players=self.players())  # type: ignore[call-arg]
        record["table"] = self.id
        mark_stand_ins(record, self.stand_ins)
        return record

    def info(self) -> TableInfo:
        """What anyone may know about the table (the lobby's and the API's model)."""
        return TableInfo.model_validate(self.info_body())

    def info_body(self) -> dict[str, Any]:
        """:meth:`info` as the JSON data sent, built without the model (every move sends it to every
        socket's view).  A test holds it equal, key for key and in order, to the model's dump."""
        connected = self.connected_seats()
        now = self.clock()
        status = self.status
        clock = self._clock(now)
        again = self.again_info()
        return {
            "id": self.id,
            "game": self.spec.id,
            "title": self.spec.title,
            "preset": self.preset,
            "options": self.options,
            "seats": [s.info_body(s.seat in connected or s.kind == "bot", self.stood_in(s.seat, now, connected))
                      for s in self.seats.values()],
            "seq": self.seq,
            "status": status,
            "hints": self.hints,
            "bot_delay_ms": self.bot_delay_ms,
            "public": self.public,
            "created_at": self._created_text(),
            "winners": self.state.winners,
            "clock_s": self.clock_s,
            "away_s": self.away_s,
            "clock": None if clock is None else {"seat": clock.seat, "left_ms": clock.left_ms, "limit_s": clock.limit_s},
            "paused": status == "playing" and self.paused(now),
            "moved_ago_s": self._moved_ago_s(),
            "again": None if again is None else {"table": again.table, "answers": dict(again.answers)},
            "practice": self.practice,
        }

    def _created_text(self) -> str:
        """When the table was made, as the messages say it (the same text every time: written once)."""
        kept = self._created_shown
        if kept is None or kept[0] is not self.created_at:
            kept = self._created_shown = (self.created_at, self.created_at.replace(microsecond=0).isoformat() + "Z")
        return kept[1]

    def _moved_ago_s(self) -> int:
        """Whole seconds since the last move (or since the table was made)."""
        moved = self.moved_at or self.created_at
        kept = self._moved_shown
        if kept is None or kept[0] is not moved:
            # the move's time as seconds since the epoch, once per move (not a datetime subtraction per message)
            kept = self._moved_shown = (moved, moved.replace(tzinfo=dt.UTC).timestamp())
        return max(0, int(time.time() - kept[1]))

    def state_for(self, seat: str | None, info: TableInfo | None = None) -> StateMessage:
        """The whole state one seat is shown (``None``: a spectator), as the API documents it."""
        return StateMessage(
            seq=self.seq,
            you=seat,
            table=info or self.info(),
            view=self.view_dict(seat),
            last=self.last,
            # invitations for open seats are for the people at the table, while the match is on
            invite=self.invite if seat is not None and not self.state.is_over else None,
        )

    def state_body(self, seat: str | None, info: TableInfo | dict[str, Any] | None = None) -> dict[str, Any]:
        """:meth:`state_for` as the JSON data sent, built without the model's validation (every socket
        after every move gets one of these: the model's checks there cost more than all else).  A test
        holds it equal, key for key and in order, to ``state_for(...).model_dump(mode="json")``."""
        return {"type": "state", **self.body(seat, info), "rev": 0}

    def body(self, seat: str | None, info: TableInfo | dict[str, Any] | None = None) -> dict[str, Any]:
        """:meth:`state_body` without its ``type`` and ``rev``: what :class:`~nines.server.wire.delta.Shown` compares."""
        info = info if info is not None else self.info_body()
        return {
            "seq": self.seq,
            "you": seat,
            "table": info if isinstance(info, dict) else info.model_dump(mode="json"),
            "view": self.view_dict(seat),
            "last": self._last_body(),
            # invitations for open seats are for the people at the table, while the match is on
            "invite": self.invite if seat is not None and not self.state.is_over else None,
        }

    def _last_body(self) -> dict[str, Any] | None:
        """The last action as plain data, made once per action (every view's body carries it)."""
        last = self.last
        if last is None:
            return None
        if self._last_dumped[0] is not last:
            self._last_dumped = (last, last.model_dump(mode="json"))
        return self._last_dumped[1]

    def broadcast(self) -> None:
        """Queue each socket what changed in its own view of the table (call under the lock).

        The seats' sockets get every change at once.  Spectators get a change at once too, unless they
        were sent one less than :data:`SPECTATORS_EVERY_S` ago (:data:`SPECTATORS_BUSY_S` while the event
        loop runs late): then what changed meanwhile reaches them together at the end of that time, as one
        patch (when computer players move with no pause, the spectators of a busy server were most of the
        messages and patches it made)."""
        seated, watching = [], False
        for connection in self.connections:
            if connection.seat is not None:
                seated.append(connection)
            else:
                watching = True
        elsewhere = self.elsewhere
        if elsewhere is not None:  # with several processes, the table's owner works out the spectators' frames
            if elsewhere.relaying(self):
                if watching and self.shown.kept_rev is None:
                    # the owner became known after these spectators came (they were shown from here, and the
                    # owner has not heard of them): they hold nothing of its frames, so ask it for the whole
                    elsewhere.wanted(self)
                watching = False  # they come from the owner
            elif watching and not self.owner.here:
                elsewhere.wanted(self)  # no owner known yet: shown from here until its frames come
            else:
                watching = watching or elsewhere.watching(self)
        if not seated and not watching:
            return
        info = self.info_body()
        self.shown.change(seated, lambda seat: self.body(seat, info))
        if self._spectators_due is not None or not watching:
            return  # their next patch is due already: it will carry this change too
        now = self.clock()
        shown_at = self._spectators_shown_at
        wait = 0.0 if shown_at is None else shown_at + SPECTATORS_PACE.every_s(now) - now
        if wait <= 0:
            self._show_spectators(info)  # the same table data as the seats were just sent
            return
        try:
            self._spectators_due = asyncio.get_running_loop().call_later(wait, self._spectators_time, now + wait)
        except RuntimeError:  # no event loop (a script's own table): at once
            self._show_spectators()

    def _spectators_time(self, due: float) -> None:
        """The held change's time came (late, if the event loop is behind: the spectators' pace then slows)."""
        SPECTATORS_PACE.fired(due, self.clock())
        self._show_spectators()

    def _show_spectators(self, info: dict[str, Any] | None = None, but: Connection | None = None) -> None:
        """Send the spectators (``but`` one: it is about to get the whole state) what changed since their last."""
        if self._spectators_due is not None:
            self._spectators_due.cancel()
            self._spectators_due = None
        self._spectators_shown_at = self.clock()
        elsewhere = self.elsewhere
        if elsewhere is not None and elsewhere.relaying(self):
            return  # (held back before another process took the table) its frames come from there
        shown = info if info is not None else self.info_body()
        sockets = [c for c in self.connections if c.seat is None and c is not but]
        if elsewhere is None or not elsewhere.watching(self):
            self.shown.change(sockets, lambda seat: self.body(seat, shown))
            return
        # the spectators' view worked out once, here, for every process: the same text goes to all their sockets
        frame = self.shown.change(sockets, lambda seat: self.body(seat, shown), also=(None,))[None].frame()
        if frame is not None:
            elsewhere.published(self, *frame)

    def show_elsewhere(self) -> None:
        """Spectators on another process need the whole state: the change held back goes now, then the whole."""
        self._show_spectators()
        whole = self.shown.last_whole(None)
        if whole is not None and self.elsewhere is not None:
            self.elsewhere.published(self, whole[0], None, whole[1])

    def seat_moved(self, seat: str) -> None:
        """The seat's token changed (its person moved it to another browser): every socket that held it
        watches from now on, on this process as on the one where the seat was claimed (under the lock)."""
        for connection in list(self.connections):
            if connection.seat == seat:
                connection.seat = None
                self.shown.forget(connection)
                self.send_whole(connection)

    def send_whole(self, connection: Connection) -> None:
        """Queue one socket the whole state of its view (it opened, or asked again; under the lock)."""
        elsewhere = self.elsewhere
        if connection.seat is None and elsewhere is not None and not self.owner.here:
            if elsewhere.relaying(self) and self.shown.kept_whole(connection):
                return  # the state the owner's frames lead to
            elsewhere.wanted(self)  # meanwhile, the state as this process knows it; the owner's follows
        if connection.seat is None and self._spectators_due is not None:
            self._show_spectators(but=connection)  # the others first: then all hold the same state, and share the next patch
        self.shown.whole(connection, self.body(connection.seat))


def seat_player(table: Table, seat: str, name: str, role: str = "player") -> Player:
    """A computer player for ``seat`` (``role``: its own computer player, or a person's stand-in).
    Its own choices at a table dealt from a secret come from that secret (never from anything a seat
    sees); at solo practice, from the chosen seed, so practice can be repeated."""
    if isinstance(table.source, MatchSecret):
        return make_player(name, table.spec.id, random.Random(table.source.derive(f"{role}:{seat}:{name}")))
    suffix = "" if role == "player" else f":{role}"
    return make_player(name, table.spec.id, random.Random(f"{table.source}:{seat}:{name}{suffix}"))


def mark_stand_ins(record: dict[str, Any], stand_ins: dict[int, str]) -> None:
    """Mark each action a stand-in decided for a person (``"stand_in": true``); seq n is the n-th action."""
    if not stand_ins:
        return
    seq = 0
    for deal in record.get("deals", []):
        for action in deal.get("actions", []):
            seq += 1
            if seq in stand_ins:
                action["stand_in"] = True


def utcnow() -> dt.datetime:
    """Now, in UTC without a zone (as the database keeps times)."""
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)
