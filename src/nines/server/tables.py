"""Tables: a match of one game, its seats, the sockets watching it, and the computer players moving in it.

The server is authoritative.  Every move goes through :meth:`TableManager.act` under
the table's lock: the sequence number is checked (stale or repeated messages are
refused), the rules check the action for the sender's seat, the action is stored,
and only then applied and acknowledged.  After every change each socket receives the
view of its own seat (a spectator, the view of no seat).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import hashlib
import hmac
import random
import secrets
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

from ..bots import Player, make_player, players_for
from ..games import GameSpec, UnknownGame, get_game
from ..games.contract import GameState, MatchOver, OutOfTurn, Reason, RulesError, options_to_dict
from ..randomness import DealSource, MatchSecret
from . import fronts
from .config import ServerConfig
from .delta import Shown
from .driver import TableDriver
from .journal import MoveJournal
from .limits import HintDesk, valid_table_id
from .logs import log
from .messages import (
    AckMessage,
    AgainInfo,
    ClockInfo,
    CreateTable,
    DeviceLinkMessage,
    ErrorCode,
    HintMessage,
    JoinSeat,
    LastAction,
    Seated,
    SeatInfo,
    StateMessage,
    TableInfo,
)
from .pubsub import Broker, TableEvent
from .store import (
    DealStat,
    MatchStat,
    SeatTaken,
    SeqConflict,
    Store,
    StoredAction,
    StoredSeat,
    StoredTable,
    StoreUnavailable,
)

T = TypeVar("T")

DEFAULT_STAND_IN = "basic"
FINISHED_KEPT = 64
"""Finished tables kept rebuilt after a request (each GET of one once replayed its whole log)."""


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
        name = self.person if self.kind == "human" else self.bot
        return SeatInfo(seat=self.seat, kind=self.kind, name=name, bot=self.bot, connected=connected, stand_in=stand_in)  # type: ignore[arg-type]


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
    """Play again: the table of the next match, once someone asked for it."""
    again_answers: dict[str, str] = field(default_factory=dict)
    driver: Any = None  # the TableDriver moving this table (see driver.py)
    turn_started: float = field(default_factory=time.monotonic)
    seen_at: dict[str, float] = field(default_factory=dict)  # seat -> when its person was last here
    watched_until: float = 0.0  # a table asked for over HTTP counts as watched until then
    active_at: float = field(default_factory=time.monotonic)  # last move or visit (for closing idle tables)
    _stand_in_players: dict[str, Player] = field(default_factory=dict)
    practice: bool = False  # solo practice from a chosen seed: left out of statistics
    shown: Shown = field(default_factory=Shown)  # what each socket was last shown: changes go as patches
    # the rules' views at this move, worked out once: every socket of a seat, its computer player, the
    # statistics and the reviews all read the same one (see view())
    _views: dict[str | None, tuple[Any, dict[str, Any] | None]] = field(default_factory=dict)
    _views_at: tuple[int, int] = (0, -1)

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
            plain_view = view.to_dict()
            self._views[seat] = (view, plain_view)
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

    def connected_seats(self) -> set[str]:
        return {c.seat for c in self.connections if c.seat is not None}

    # -- presence, clock, pauses (read by the driver) ----------------------------------

    def people_seats(self) -> list[str]:
        return [s.seat for s in self.seats.values() if s.kind == "human"]

    def here(self, seat: str) -> bool:
        return any(c.seat == seat for c in self.connections)

    def away_in(self, seat: str, now: float) -> float | None:
        """Seconds until the person of ``seat`` has been gone long enough for a stand-in (None: here)."""
        if self.here(seat):
            return None
        return self.seen_at.get(seat, now) + self.away_s - now

    def stood_in(self, seat: str, now: float) -> bool:
        """A stand-in plays this person's seat: gone longer than ``away_s`` (theirs again when back)."""
        if self.seats[seat].kind != "human":
            return False
        left = self.away_in(seat, now)
        return left is not None and left <= 0

    def watched(self, now: float) -> bool:
        """Someone is connected, asked for the table lately, or a person was here within ``away_s``."""
        if self.connections or now < self.watched_until:
            return True
        return any(now - self.seen_at.get(s, -1e18) < self.away_s for s in self.people_seats())

    def paused(self, now: float) -> bool:
        """Nobody here and no clock running: no computer player moves until someone comes."""
        if self.clock_s is not None and self.people_seats():
            return False
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

    def turn_changed(self) -> None:
        """A new decision begins: its clock starts now; the driver looks again."""
        self.turn_started = time.monotonic()
        self.active_at = self.turn_started
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
        connected = self.connected_seats()
        now = time.monotonic()
        moved = self.moved_at or self.created_at
        return TableInfo(
            id=self.id,
            game=self.spec.id,
            title=self.spec.title,
            preset=self.preset,
            options=self.options,
            seats=[s.info(s.seat in connected or s.kind == "bot", self.stood_in(s.seat, now)) for s in self.seats.values()],
            seq=self.seq,
            status=self.status,  # type: ignore[arg-type]
            hints=self.hints,
            bot_delay_ms=self.bot_delay_ms,
            public=self.public,
            created_at=self.created_at.replace(microsecond=0).isoformat() + "Z",
            winners=list(self.state.winners),
            clock_s=self.clock_s,
            away_s=self.away_s,
            clock=self._clock(now),
            paused=self.status == "playing" and self.paused(now),
            moved_ago_s=max(0, int((_utcnow() - moved).total_seconds())),
            again=self.again_info(),
            practice=self.practice,
        )

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
        info = info if info is not None else self.info()
        return {
            "type": "state",
            "seq": self.seq,
            "you": seat,
            "table": info if isinstance(info, dict) else info.model_dump(mode="json"),
            "view": self.view_dict(seat),
            "last": None if self.last is None else self.last.model_dump(mode="json"),
            # invitations for open seats are for the people at the table, while the match is on
            "invite": self.invite if seat is not None and not self.state.is_over else None,
            "rev": 0,
        }

    def broadcast(self) -> None:
        """Queue each socket what changed in its own view of the table (call under the lock)."""
        info = self.info().model_dump(mode="json")
        self.shown.change(self.connections, lambda seat: self.state_body(seat, info))

    def send_whole(self, connection: Connection) -> None:
        """Queue one socket the whole state of its view (it opened, or asked again; under the lock)."""
        self.shown.whole(connection, self.state_body(connection.seat))


class TableManager:
    """Every table this process serves: creates, finds, loads and forgets them.

    Each live table in memory has a :class:`~nines.server.driver.TableDriver` that moves it
    along (computer players, clocks, stand-ins); a watchdog restarts any driver that stopped
    or stuck, forgets finished tables nobody watches and closes tables idle too long.
    """

    def __init__(self, store: Store, broker: Broker, config: ServerConfig) -> None:
        self.store = store
        self.broker = broker
        self.config = config
        self.instance = config.instance or uuid.uuid4().hex[:8]
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, tuple[asyncio.Lock, int]] = {}  # table id -> (lock, callers holding or awaiting it)
        self.hint_desk = HintDesk(config.limits.hint_cache)
        self.journal = MoveJournal(store)  # moves stored by group commit
        # computer players and hints think in their own few threads: the default pool stays the database's
        self.thinking = ThreadPoolExecutor(max_workers=config.limits.computer_threads, thread_name_prefix="nines-think")
        self._finished: OrderedDict[str, Table] = OrderedDict()  # finished tables lately asked for, oldest first
        self._hint_players: dict[str, tuple[str, Player] | None] = {}
        self.closing = False
        self._declined: dict[str, dict[str, str]] = {}  # finished table -> seats that declined to play again
        self._watchdog: asyncio.Task[None] | None = None
        self.action_listeners: list[Callable[[Table], None]] = []
        """Told of every move applied here, under the table's lock (the review starts on a deal's end)."""

    # -- life cycle -------------------------------------------------------------------

    async def start(self) -> None:
        """Rebuild every unfinished table that is not closed for idleness, and set its driver going."""
        ids = await asyncio.to_thread(self.store.unfinished_table_ids, self._active_since())
        for table_id in ids:
            try:
                await self.get(table_id)
            except TableError:
                continue
        await self.broker.start(self._on_remote, self._follow_all)
        self._watchdog = asyncio.create_task(self._watch(), name="tables-watchdog")
        log.info("tables.resumed", count=len(self.tables), instance=self.instance)

    async def stop(self) -> None:
        self.closing = True
        if self._watchdog is not None:
            self._watchdog.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._watchdog
        for table in list(self.tables.values()):
            if table.driver is not None:
                await table.driver.stop()
        await self.journal.close()
        await self.broker.close()
        self.thinking.shutdown(wait=False, cancel_futures=True)

    async def think(self, decide: Callable[[Any], T], view: Any) -> T:
        """A computer player's decision (or a hint) worked out in the manager's own threads."""
        return await asyncio.get_running_loop().run_in_executor(self.thinking, decide, view)

    def _active_since(self) -> dt.datetime:
        return _utcnow() - dt.timedelta(seconds=self.config.idle_close_s)

    def ensure_driver(self, table: Table) -> None:
        """Every live table in memory has one running driver."""
        if self.closing or table.state.is_over or self.tables.get(table.id) is not table:
            return
        if table.driver is None or not table.driver.alive():
            table.driver = TableDriver(self, table)

    async def _watch(self) -> None:
        """The watchdog: drivers that died or stuck are restarted; finished and idle tables leave memory."""
        while not self.closing:
            await asyncio.sleep(self.config.watchdog_s)
            try:
                await self.watch_once()
            except Exception:  # noqa: BLE001 - the watchdog must outlive any one table's trouble
                log.exception("watchdog.failed")

    async def watch_once(self) -> None:
        now = time.monotonic()
        for table in list(self.tables.values()):
            if table.state.is_over:
                self.forget_if_done(table)
                continue
            if not table.connections and now - table.active_at > self.config.idle_close_s:
                await self.close_idle(table)
                continue
            driver = table.driver
            if driver is not None and driver.alive() and driver.moving_since is not None \
                    and now - driver.moving_since > STUCK_S:
                log.warning("watchdog.stuck", table=table.id, seq=table.seq)
                await driver.stop()
            if driver is None or not driver.alive():
                if driver is not None:
                    log.warning("watchdog.restarted", table=table.id, seq=table.seq)
                table.driver = None
                self.ensure_driver(table)

    async def close_idle(self, table: Table) -> None:
        """Close a table nobody moved in or opened for ``idle_close_s``: kept in the database (and
        rebuilt from it when opened again), gone from memory and from the lobby."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        if table.driver is not None:
            await table.driver.stop()
        log.info("table.closed_idle", table=table.id, seq=table.seq)

    def forget_if_done(self, table: Table, *, from_driver: bool = False) -> None:
        """A finished table leaves memory as soon as nobody watches it (a long-running server would
        otherwise keep every match it ever hosted).  The store keeps it: ``get`` rebuilds it from its
        actions if anyone asks again, and its statistics are stored only once."""
        if table.state.is_over and not table.connections and self.tables.get(table.id) is table:
            del self.tables[table.id]
            self._keep_finished(table)  # among the few finished tables kept for the next requests
            log.info("table.forgotten", table=table.id)

    # -- finding and rebuilding tables ----------------------------------------------

    async def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id) or self._finished_table(table_id)
        if table is not None:
            return table
        if not valid_table_id(table_id):  # never looked up: no lock, no query (a NUL once failed on PostgreSQL)
            raise TableError(ErrorCode.NOT_FOUND, Reason("server.no_table", f"there is no table {table_id[:40]!r}"))
        # one load per table at a time; the lock lives only while someone is loading it
        lock, waiting = self._loading.get(table_id, (asyncio.Lock(), 0))
        self._loading[table_id] = (lock, waiting + 1)
        try:
            async with lock:
                table = self.tables.get(table_id) or self._finished_table(table_id)
                if table is not None:
                    return table
                stored = await asyncio.to_thread(self.store.load_table, table_id)
                if stored is None:
                    raise TableError(ErrorCode.NOT_FOUND, Reason("server.no_table", f"there is no table {table_id!r}"))
                # replaying a long match takes seconds: never on the event loop (the stored rows are this call's own)
                table = await asyncio.to_thread(self._rebuild, stored)
                if not table.state.is_over:
                    self.tables[table_id] = table
                else:  # a finished table is kept a while among the recently asked for, not for ever
                    self._keep_finished(table)
                if table.state.is_over and stored.status != "over":
                    # the process stopped between storing the last move and marking the match over
                    await asyncio.to_thread(self.store.mark_over, table.id, list(table.state.winners), table.final_record())
                if table.next_table is not None:
                    await self._again_answers(table)
        finally:
            lock, waiting = self._loading[table_id]
            if waiting > 1:
                self._loading[table_id] = (lock, waiting - 1)
            else:
                del self._loading[table_id]
        await self._count_results(table)
        self.ensure_driver(table)
        return table

    def _finished_table(self, table_id: str) -> Table | None:
        """A finished table asked for lately: served again without replaying its whole log."""
        table = self._finished.get(table_id)
        if table is not None:
            self._finished.move_to_end(table_id)
        return table

    def _keep_finished(self, table: Table) -> None:
        self._finished[table.id] = table
        while len(self._finished) > FINISHED_KEPT:
            self._finished.popitem(last=False)

    def _rebuild(self, stored: StoredTable) -> Table:
        """Event sourcing: a fresh match from options and seed, then every stored action replayed."""
        try:
            spec = get_game(stored.game)
            options = spec.options_from_record(stored.options)
            state = spec.new_match(options, _deal_source(stored))
            for action in stored.actions:
                state.apply(state.parse_action(action.action), by=action.by)
        except (UnknownGame, RulesError) as error:
            log.exception("table.unreadable", table=stored.id, game=stored.game)
            raise TableError(ErrorCode.NOT_FOUND, f"table {stored.id} cannot be rebuilt: {error}") from error
        table = Table(
            id=stored.id,
            spec=spec,
            state=state,
            preset=stored.preset,
            options=stored.options,
            source=state.deal_source,
            hints=stored.hints,
            bot_delay_ms=stored.bot_delay_ms,
            public=stored.public,
            invite=stored.invite,
            created_at=stored.created_at,
            seats={},
            clock_s=stored.clock_s,
            away_s=stored.away_s or self.config.away_s,
            stand_in_bot=stored.stand_in or self.config.stand_in,
            stand_ins={a.seq: a.by for a in stored.actions if a.stand_in},
            moved_at=stored.updated_at,
            next_table=stored.next_table,
            practice=stored.practice,
        )
        self._set_seats(table, stored.seats)
        now = time.monotonic()
        if not self.broker.shared:
            # everyone gets the grace period afresh.  With several processes, one only counts a person
            # absent once it saw them leave (their socket may be open on another process).
            table.seen_at = dict.fromkeys(table.people_seats(), now)
        table.watched_until = now + self.config.watch_grace_s
        if stored.actions:
            a = stored.actions[-1]
            table.last = LastAction(seq=a.seq, seat=a.seat, by=a.by, action=a.action, stand_in=a.stand_in)
        log.info("table.rebuilt", table=table.id, game=spec.id, seq=table.seq, status=table.status)
        return table

    def _set_seats(self, table: Table, stored: list[StoredSeat]) -> None:
        previous = table.seats
        seats: dict[str, Seat] = {}
        for s in stored:
            player = None
            if s.kind == "bot" and s.bot:
                old = previous.get(s.seat)
                player = old.player if old is not None and old.bot == s.bot and old.player else self._bot(table, s.seat, s.bot)
            seats[s.seat] = Seat(s.seat, s.kind, s.bot, s.person, s.token_hash, player)
        table.seats = seats

    @staticmethod
    def _bot(table: Table, seat: str, name: str) -> Player:
        return seat_player(table, seat, name)

    async def listed(self) -> list[tuple[TableInfo, str]]:
        """Public tables still being played and not closed for idleness, most recently active first
        (from the database: listing never loads or replays a table)."""
        stored = await asyncio.to_thread(self.store.listed_tables, self._active_since())
        infos = []
        for row in stored:
            live = self.tables.get(row.id)
            if live is not None:
                infos.append((live.info(), live.invite))
                continue
            try:
                spec = get_game(row.game)
            except UnknownGame:
                continue
            seats = [SeatInfo(seat=s.seat, kind=s.kind, name=s.person if s.kind == "human" else s.bot,  # type: ignore[arg-type]
                              bot=s.bot, connected=s.kind == "bot") for s in row.seats]
            moved = row.updated_at or row.created_at
            infos.append((TableInfo(
                id=row.id, game=spec.id, title=spec.title, preset=row.preset, options=row.options, seats=seats,
                seq=row.seq, status="waiting" if any(s.kind == "open" for s in row.seats) else "playing",
                hints=row.hints, bot_delay_ms=row.bot_delay_ms, public=row.public,
                created_at=row.created_at.replace(microsecond=0).isoformat() + "Z",
                clock_s=row.clock_s, away_s=row.away_s or self.config.away_s, paused=True,
                moved_ago_s=max(0, int((_utcnow() - moved).total_seconds())),
            ), row.invite))
        return infos

    # -- creating and joining ----------------------------------------------------------

    async def create(self, request: CreateTable) -> Seated:
        try:
            spec = get_game(request.game)
            options = spec.options(request.preset, request.options)
        except UnknownGame as error:
            raise TableError(ErrorCode.MALFORMED, str(error)) from None
        except RulesError as error:
            raise TableError(ErrorCode.MALFORMED, str(error), key=error.key, params=error.params) from None
        practice = request.seed is not None
        if practice and any(choice.kind not in ("me", "bot") for choice in request.seats.values()):
            # Fair deals: whoever chooses the seed knows every hand, so a seed is for solo practice only.
            raise TableError(
                ErrorCode.MALFORMED,
                "a chosen seed lets whoever chose it know every hand, so it is only for solo practice: "
                "fill every seat with yourself or computer players (no open seat), or leave the seed out",
            )
        secret = None if practice else MatchSecret.new()
        source: DealSource = secret if secret is not None else request.seed  # type: ignore[assignment]
        seats_order = spec.new_match(options, source).seats
        if set(request.seats) != set(seats_order):
            raise TableError(
                ErrorCode.MALFORMED,
                f"say who sits in each seat: {' '.join(seats_order)} (got {' '.join(request.seats) or 'none'})",
            )
        mine = [seat for seat, choice in request.seats.items() if choice.kind == "me"]
        if len(mine) > 1:
            raise TableError(ErrorCode.MALFORMED, Reason("server.one_seat", "you can take one seat; leave the others open for "
                                                         "friends or give them to computer players"))
        available = players_for(spec.id)
        stand_in = request.stand_in or self.config.stand_in
        if stand_in not in available:
            raise TableError(ErrorCode.MALFORMED, f"stand_in: {stand_in!r} cannot play {spec.title}; choose one of {', '.join(available)}")
        token = secrets.token_urlsafe(24)
        claim = secrets.token_urlsafe(18)
        stored_seats = []
        for seat in seats_order:
            choice = request.seats[seat]
            if choice.kind == "bot":
                if choice.bot not in available:
                    raise TableError(
                        ErrorCode.MALFORMED,
                        f"seat {seat}: {choice.bot!r} is not a computer player for {spec.title}; choose one of {', '.join(available)}",
                    )
                stored_seats.append(StoredSeat(seat, "bot", bot=choice.bot))
            elif choice.kind == "me":
                stored_seats.append(StoredSeat(seat, "human", person=request.name, token_hash=hash_token(token),
                                               claim_hash=hash_token(claim)))
            else:
                stored_seats.append(StoredSeat(seat, "open"))
        table = await self._insert(
            spec, request.preset or spec.default_preset, options_to_dict(options), stored_seats,
            secret=secret, seed=request.seed if practice else None,
            hints=request.hints,
            bot_delay_ms=self.config.bot_delay_ms if request.bot_delay_ms is None else request.bot_delay_ms,
            public=request.public, clock_s=request.clock_s, away_s=request.away_s or self.config.away_s, stand_in=stand_in,
        )
        if request.name:
            await asyncio.to_thread(self.store.touch_person, request.name)
        held = mine[0] if mine else None
        return Seated(table=table.info(), seat=held, token=token if mine else None, invite=table.invite,
                      url=claim_url(table, held, claim) if held else None)

    async def _insert(self, spec: GameSpec, preset: str | None, options: dict[str, Any],
                      seats: list[StoredSeat], *, secret: MatchSecret | None, seed: int | None, hints: bool,
                      bot_delay_ms: int, public: bool, clock_s: int | None, away_s: int, stand_in: str) -> Table:
        """Store a new table and set its driver going (dealt from ``secret``, or at solo practice ``seed``)."""
        practice = secret is None
        stored = StoredTable(
            id=secrets.token_urlsafe(8).replace("-", "x").replace("_", "y"),
            game=spec.id,
            preset=preset,
            options=options,
            seed=seed if practice else None,
            secret=secret.hex() if secret is not None else None,
            practice=practice,
            hints=hints,
            bot_delay_ms=bot_delay_ms,
            public=public,
            invite=secrets.token_urlsafe(9),
            status="playing",
            winners=[],
            created_at=_utcnow(),
            seats=seats,
            clock_s=clock_s,
            away_s=away_s,
            stand_in=stand_in,
        )
        await asyncio.to_thread(self.store.insert_table, stored)
        table = self._rebuild(stored)
        self.tables[table.id] = table
        log.info("table.created", table=table.id, game=spec.id, preset=stored.preset, practice=practice, clock_s=clock_s,
                 seats={s.seat: s.bot or s.kind for s in seats})
        self.ensure_driver(table)
        return table

    async def join(self, table_id: str, request: JoinSeat) -> Seated:
        table = await self.get(table_id)
        if not hmac.compare_digest(request.invite.encode(), table.invite.encode()):  # bytes: any text compares
            raise TableError(ErrorCode.FORBIDDEN, Reason("server.invite_invalid", "this invitation is not valid for this table"))
        if table.state.is_over:
            raise TableError(ErrorCode.MATCH_OVER, Reason("server.seats_closed", "this match is over: its seats can no longer be "
                                                          "taken (you can watch its replay)"))
        token = secrets.token_urlsafe(24)
        async with table.lock:
            seat = table.seats.get(request.seat)
            if seat is None:
                raise TableError(ErrorCode.NOT_FOUND, Reason("server.no_seat", f"there is no seat {request.seat}; the seats are "
                                                             f"{' '.join(table.seats)}", seat=request.seat, seats=list(table.seats)))
            try:
                await asyncio.to_thread(self.store.take_seat, table.id, request.seat, hash_token(token), request.name)
            except SeatTaken:
                self._set_seats(table, await asyncio.to_thread(self.store.seats_of, table.id))
                raise TableError(ErrorCode.CONFLICT, _taken_message(table, request.seat)) from None
            seat.kind, seat.person, seat.token_hash = "human", request.name, hash_token(token)
            table.seen_at[request.seat] = time.monotonic()
            table.turn_changed()  # the match may start now: the clock starts with it
            table.broadcast()
        if request.name:
            await asyncio.to_thread(self.store.touch_person, request.name)
        log.info("seat.taken", table=table.id, seat=request.seat)
        await self._publish(table, "seats")
        return Seated(table=table.info(), seat=request.seat, token=token, invite=table.invite)

    def authenticate(self, table: Table, seat: str | None, token: str | None) -> str | None:
        """The seat a token holds (``None``, a spectator, when no seat is asked for)."""
        if seat is None:
            return None
        held = table.seats.get(seat)
        if held is None or held.kind != "human" or held.token_hash is None or token is None:
            raise TableError(ErrorCode.FORBIDDEN, _own_token(seat))
        if not hmac.compare_digest(held.token_hash.encode(), hash_token(token).encode()):
            raise TableError(ErrorCode.FORBIDDEN, _own_token(seat))
        return seat

    def seat_of_cookie(self, table: Table, cookie: str | None) -> str | None:
        """The seat a browser's seat cookie (``seat.token``) holds; ``None`` (a spectator) if none is
        valid: an address copied to another browser, or a seat since moved to another device."""
        if not cookie or "." not in cookie:
            return None
        seat, token = cookie.split(".", 1)
        try:
            return self.authenticate(table, seat, token)
        except TableError:
            return None

    # -- one-time claims: a browser takes a held seat ----------------------------------

    async def claim(self, table_id: str, claim: str) -> tuple[Table, str, str]:
        """Spend a one-time claim (``seat.secret``): the seat gets a new token for this browser; any
        other browser holding the seat becomes a spectator.  Returns the table, seat and token."""
        table = await self.get(table_id)
        seat, _, secret = claim.partition(".")
        if seat not in table.seats or not secret:
            raise TableError(ErrorCode.FORBIDDEN, Reason("server.claim_invalid", "this link is not a seat of this table; you can watch it"))
        token = secrets.token_urlsafe(24)
        async with table.lock:
            used = await asyncio.to_thread(self.store.use_claim, table.id, seat, hash_token(secret), hash_token(token))
            if not used:
                raise TableError(ErrorCode.CONFLICT, _claim_used_message(table, seat))
            table.seats[seat].token_hash = hash_token(token)
            for connection in list(table.connections):
                if connection.seat == seat:
                    connection.seat = None  # the old device now watches
                    table.shown.forget(connection)
                    table.send_whole(connection)
            table.broadcast()
        log.info("seat.claimed", table=table.id, seat=seat)
        await self._publish(table, "seats")
        return table, seat, token

    async def device_link(self, table: Table, seat: str | None) -> DeviceLinkMessage:
        """A one-time address that moves ``seat`` to whichever browser opens it first."""
        if seat is None:
            raise TableError(ErrorCode.FORBIDDEN, Reason("server.device_seated", "only a seated player can move their seat to another device"))
        claim = secrets.token_urlsafe(18)
        await asyncio.to_thread(self.store.set_claim, table.id, seat, hash_token(claim))
        return DeviceLinkMessage(url=claim_url(table, seat, claim))

    # -- play again ----------------------------------------------------------------------

    async def again(self, table: Table, seat: str | None, accept: bool) -> tuple[Table, str | None]:
        """After the match: a new table with the same people and computer players.  Each person is
        asked; one who accepts is seated at once (the token is returned); one who declines leaves an
        open seat."""
        if seat is None or table.seats[seat].kind != "human":
            raise TableError(ErrorCode.FORBIDDEN, Reason("server.again_players", "the people who played the match are asked to play again"))
        if not table.state.is_over:
            raise TableError(ErrorCode.WAITING, Reason("server.again_waiting", "play again opens when this match is over"))
        async with table.lock:
            if table.next_table is None:
                table.next_table = await asyncio.to_thread(self.store.next_table_of, table.id)
            if table.next_table is None:
                new = await self._insert_again(table)
                if await asyncio.to_thread(self.store.set_next_table, table.id, new.id):
                    table.next_table = new.id
                else:  # another process made it first
                    table.next_table = await asyncio.to_thread(self.store.next_table_of, table.id)
                table.again_answers = dict.fromkeys(table.people_seats(), "asked")
        assert table.next_table is not None
        new = await self.get(table.next_table)
        token = None
        if accept:
            token = secrets.token_urlsafe(24)
            person = table.seats[seat].person
            async with new.lock:
                try:
                    await asyncio.to_thread(self.store.take_seat, new.id, seat, hash_token(token), person)
                except SeatTaken:
                    self._set_seats(new, await asyncio.to_thread(self.store.seats_of, new.id))
                    raise TableError(ErrorCode.CONFLICT, _taken_message(new, seat)) from None
                held = new.seats[seat]
                held.kind, held.person, held.token_hash = "human", person, hash_token(token)
                new.seen_at[seat] = time.monotonic()
                new.turn_changed()
                new.broadcast()
            await self._publish(new, "seats")
        async with table.lock:
            table.again_answers[seat] = "accepted" if accept else "declined"
            if not accept:
                self._declined.setdefault(table.id, {})[seat] = "declined"
                while len(self._declined) > DECLINES_KEPT:
                    self._declined.pop(next(iter(self._declined)))
            table.broadcast()
            everyone_answered = all(table.again_answers.get(s) in ("accepted", "declined") for s in table.people_seats())
        if table.public and everyone_answered and not new.public:
            # listed in the lobby only now: until each person of the last match answered, their seats were theirs
            await asyncio.to_thread(self.store.set_public, new.id, True)
            new.public = True
            async with new.lock:
                new.broadcast()
        log.info("table.again", table=table.id, next=new.id, seat=seat, accept=accept)
        return new, token

    async def _again_answers(self, table: Table) -> None:
        """Who said yes (seated at the next table under the same name) and who said no."""
        assert table.next_table is not None
        seats = await asyncio.to_thread(self.store.seats_of, table.next_table)
        answers = dict(self._declined.get(table.id, {}))
        for s in seats:
            old = table.seats.get(s.seat)
            if old is not None and old.kind == "human" and s.kind == "human":
                answers[s.seat] = "accepted"
        table.again_answers = answers

    async def _insert_again(self, table: Table) -> Table:
        """The next match: same game, options, pace, clock and computer players; people's seats open
        until each says yes."""
        seats = [StoredSeat(s.seat, "bot", bot=s.bot) if s.kind == "bot" else StoredSeat(s.seat, "open")
                 for s in table.seats.values()]
        options = options_to_dict(table.spec.options_from_record(table.options))
        # the next match is dealt from a new secret (play again after solo practice is no longer practice)
        return await self._insert(
            table.spec, table.preset, options, seats, secret=MatchSecret.new(), seed=None, hints=table.hints,
            # kept out of the lobby until every person of this match has answered (their seats show open till then)
            bot_delay_ms=table.bot_delay_ms, public=False, clock_s=table.clock_s, away_s=table.away_s,
            stand_in=table.stand_in_bot,
        )

    # -- sockets and visits ------------------------------------------------------------

    async def attach(self, table: Table, connection: Connection) -> None:
        async with table.lock:
            with contextlib.suppress(StoreUnavailable):  # shown as it is known here; followed when the store is back
                await self._catch_up(table)  # events from other processes may have been lost (pub/sub outage)
            table.connections.add(connection)
            table.active_at = time.monotonic()
            if connection.seat is None:
                table.send_whole(connection)
            else:
                table.send_whole(connection)
                table.broadcast()  # everyone sees the seat is connected (and no longer stood in)
        table.wake.set()
        self.ensure_driver(table)

    async def detach(self, table: Table, connection: Connection) -> None:
        async with table.lock:
            table.connections.discard(connection)
            table.shown.forget(connection)
            now = time.monotonic()
            table.active_at = now
            if connection.seat is not None:
                table.seen_at[connection.seat] = now  # gone from now: the grace period starts
                if not self.closing:
                    table.broadcast()
        table.wake.set()
        self.forget_if_done(table)

    def visited(self, table: Table, seat: str | None = None) -> None:
        """Someone asked for the table over HTTP: it counts as watched for a while (a seat's person, as here)."""
        now = time.monotonic()
        table.watched_until = max(table.watched_until, now + self.config.watch_grace_s)
        table.active_at = now
        if seat is not None:
            table.seen_at[seat] = now
        table.wake.set()
        self.ensure_driver(table)

    # -- moves -------------------------------------------------------------------------

    async def act(self, table: Table, seat: str | None, seq: int, text: str) -> AckMessage:
        """Validate, store, apply and acknowledge one move by ``seat``; the state is unchanged if refused."""
        if seat is None:
            raise TableError(ErrorCode.FORBIDDEN, Reason("server.spectator", "spectators watch; to play, take a seat with an invitation"))
        async with table.lock:
            await self._catch_up(table)
            self._check_seq(table, seq)
            if table.status == "waiting":
                open_seats = " ".join(s.seat for s in table.seats.values() if s.kind == "open")
                raise TableError(ErrorCode.WAITING, f"the match starts when every seat is taken (open: {open_seats})",
                                 params={"seats": open_seats.split()})
            state = table.state
            try:
                action = state.parse_action(text)
                state.check(action, by=seat)
            except MatchOver as error:
                raise TableError(ErrorCode.MATCH_OVER, str(error), key=error.key, params=error.params) from None
            except OutOfTurn as error:
                raise TableError(ErrorCode.OUT_OF_TURN, str(error), key=error.key, params=error.params) from None
            except RulesError as error:
                raise TableError(ErrorCode.ILLEGAL, str(error), key=error.key, params=error.params) from None
            table.seen_at[seat] = time.monotonic()
            await self._commit(table, seat, action)
        ack = AckMessage(seq=table.seq, action=str(action))
        await self._publish(table, "action")
        return ack

    async def commit_for(self, table: Table, seq: int, seat: str, action: Any, *, stand_in: bool, why: str) -> None:
        """A computer player's decision for ``seat`` (a stand-in's when ``stand_in``), made at ``seq``."""
        async with table.lock:
            if table.seq != seq:
                return  # the table moved on while the player thought
            if not table.state.can_apply(action, by=seat):
                log.warning("player.illegal", table=table.id, seat=seat, action=str(action))
                action = table.state.legal_actions()[0]
            try:
                await self._commit(table, seat, action, stand_in=stand_in)
            except TableError:
                return
        if stand_in:
            log.info("stand_in.moved", table=table.id, seat=seat, seq=seq + 1, why=why)
        await self._publish(table, "action")

    async def follow(self, table: Table) -> None:
        """Catch up with moves another process made."""
        async with table.lock:
            if await self._catch_up(table, force=True):
                table.broadcast()

    def _check_seq(self, table: Table, seq: int) -> None:
        if seq != table.seq:
            raise TableError(
                ErrorCode.STALE,
                f"this message was sent at move {seq} but the table is at move {table.seq}: look again and resend",
                params={"sent": seq, "at": table.seq},
            )

    async def _commit(self, table: Table, by: str, action: Any, *, stand_in: bool = False) -> None:
        """Store, then apply, then show everyone (under the lock; the action was checked)."""
        state = table.state
        seat = state.to_act
        assert seat is not None
        stored = StoredAction(seq=table.seq + 1, seat=seat, by=by, action=str(action), stand_in=stand_in)
        try:
            await self.journal.append(table.id, stored)
        except SeqConflict:
            # another process took this move first: follow it, and refuse ours as stale
            await self._catch_up(table, force=True)
            raise TableError(ErrorCode.STALE, "another move was made at the same moment: look again and resend") from None
        state.apply(action, by=by)
        if stand_in:
            table.stand_ins[stored.seq] = by
        table.last = LastAction(seq=stored.seq, seat=seat, by=by, action=stored.action, stand_in=stand_in)
        table.moved_at = _utcnow()
        table.turn_changed()
        log.info("action", table=table.id, seq=stored.seq, seat=seat, by=by, action=stored.action, stand_in=stand_in)
        if state.is_over:
            await asyncio.to_thread(self.store.mark_over, table.id, list(state.winners), table.final_record())
            log.info("table.over", table=table.id, winners=list(state.winners))
        await self._count_results(table)
        for listener in self.action_listeners:
            listener(table)
        table.broadcast()

    async def _catch_up(self, table: Table, force: bool = False) -> bool:
        """Apply actions other processes stored since this one last looked (under the lock)."""
        if not (self.broker.shared or force):
            return False
        actions = await asyncio.to_thread(self.store.actions_after, table.id, table.seq)
        for a in actions:
            if a.seq != table.seq + 1:
                break
            table.state.apply(table.state.parse_action(a.action), by=a.by)
            if a.stand_in:
                table.stand_ins[a.seq] = a.by
            table.last = LastAction(seq=a.seq, seat=a.seat, by=a.by, action=a.action, stand_in=a.stand_in)
        if actions:
            table.moved_at = _utcnow()
            table.turn_changed()
        return bool(actions)

    async def _publish(self, table: Table, kind: str) -> None:
        if self.broker.shared:
            try:
                await self.broker.publish(TableEvent(self.instance, table.id, table.seq, kind))
            except Exception:  # noqa: BLE001 -- logged; the table goes on without the other processes
                log.exception("pubsub.publish_failed", table=table.id)

    async def _on_remote(self, event: TableEvent) -> None:
        """Another process changed a table: follow it from the store and show our sockets."""
        table = self.tables.get(event.table)
        if table is None:
            return
        async with table.lock:
            if event.kind in ("seats", "pace"):
                stored = await asyncio.to_thread(self.store.load_table, table.id)
                if stored is not None:
                    self._set_seats(table, stored.seats)
                    table.bot_delay_ms = stored.bot_delay_ms
            await self._catch_up(table, force=True)
            await self._count_results(table)
            table.broadcast()
        table.wake.set()

    async def _follow_all(self) -> None:
        """Pub/sub came back after an outage: events sent meanwhile were lost, so every table this
        process holds catches up from the store (seats, pace and moves) and shows its sockets."""
        for table in list(self.tables.values()):
            await self._on_remote(TableEvent(self.instance, table.id, table.seq, "seats"))
        log.info("tables.followed", count=len(self.tables))

    # -- statistics ----------------------------------------------------------------------

    async def _count_results(self, table: Table) -> None:
        """Keep each person's statistics: every finished deal, and the match once it is over.
        Decisions a stand-in made for a person are counted apart (``stand_in`` per deal)."""
        people = {s.seat: s.person for s in table.seats.values() if s.kind == "human" and s.person}
        if not people or table.practice:  # solo practice from a chosen seed does not count
            return
        state = table.state
        number = _deal_number(table)
        if number is not None and number - 1 <= table.deals_counted and not (state.is_over and not table.match_counted):
            return
        record = state.record()
        deals = fronts.finished_deals(record)
        new = deals[table.deals_counted:]
        starts = _deal_starts(record)
        stats = []
        for deal in new:
            number = int(deal.get("number", 0))
            first = starts.get(number, 0)
            seqs = range(first + 1, first + len(deal.get("actions", [])) + 1)
            for seat, person in people.items():
                outcome = fronts.deal_outcome(state, record, deal, seat)
                stood_in = sum(1 for q in seqs if table.stand_ins.get(q) == seat)
                stats.append(DealStat(table.id, number, seat, person, table.spec.id, **outcome.__dict__, stand_in=stood_in))
        table.deals_counted = len(deals)
        if stats:
            await asyncio.to_thread(self.store.add_deal_stats, stats)
        if state.is_over and not table.match_counted:
            table.match_counted = True
            results = [MatchStat(table.id, seat, person, table.spec.id, fronts.match_won(record, seat)) for seat, person in people.items()]
            await asyncio.to_thread(self.store.add_match_stats, results)

    # -- pace and hints ------------------------------------------------------------------

    async def set_pace(self, table: Table, seat: str | None, seq: int, delay_ms: int) -> None:
        if seat is None:
            raise TableError(ErrorCode.FORBIDDEN, Reason("server.pace_players", "only the players at the table set its pace"))
        async with table.lock:
            self._check_seq(table, seq)
            await asyncio.to_thread(self.store.set_pace, table.id, delay_ms)
            table.bot_delay_ms = delay_ms
            table.wake.set()
            table.broadcast()
        await self._publish(table, "pace")

    def hint_player(self, game_id: str) -> tuple[str, Player] | None:
        """The strongest computer player available for the game (the first in the configured order)."""
        if game_id not in self._hint_players:
            chosen = None
            available = players_for(game_id)
            for name in self.config.hint_players:
                if name in available:
                    chosen = (name, make_player(name, game_id, random.Random(0)))
                    break
            self._hint_players[game_id] = chosen
        return self._hint_players[game_id]

    async def hint(self, table: Table, seat: str | None, seq: int) -> HintMessage:
        if not table.hints:
            raise TableError(ErrorCode.HINTS_OFF, "hints are turned off at this table")
        if seat is None:
            raise TableError(ErrorCode.FORBIDDEN, Reason("server.hints_players", "hints are for the players at the table"))
        async with table.lock:
            self._check_seq(table, seq)
            if table.state.is_over:
                raise TableError(ErrorCode.MATCH_OVER, "the match is over")
            if table.state.acting_seat != seat:
                raise TableError(ErrorCode.OUT_OF_TURN, f"a hint is for your turn; {table.state.acting_seat} is to act",
                                 key="server.hint_turn", params={"seat": table.state.acting_seat})
            view = table.view(seat)
        kept = self.hint_desk.kept(table.id, seat, seq)
        if kept is not None:  # asked again at the same position: the same answer, no new search
            return kept  # type: ignore[no-any-return]
        chosen = self.hint_player(table.spec.id)
        if chosen is None:
            raise TableError(ErrorCode.HINTS_OFF, Reason("server.hints_none", "no computer player can give hints for this game"))
        if not self.hint_desk.start(table.id, seat):
            raise TableError(ErrorCode.LIMIT, Reason("server.hint_pending", "a hint for your seat is being worked out: it comes in a moment"))
        hint = None
        try:
            name, player = chosen
            decision = await self.think(player.decide, view)
            hint = HintMessage(seq=seq, action=str(decision.action), reason=decision.reason, player=name)
        finally:
            self.hint_desk.finish(table.id, seat, seq, hint)
        return hint


DECLINES_KEPT = 10_000  # answers "no" to play again, remembered for the most recent tables
STUCK_S = 120.0  # a move in progress this long is stuck (a hung database call, say): the watchdog restarts it


def seat_player(table: Table, seat: str, name: str, role: str = "player") -> Player:
    """A computer player for ``seat`` (``role``: its own computer player, or a person's stand-in).
    Its own choices at a table dealt from a secret come from that secret (never from anything a seat
    sees); at solo practice, from the chosen seed, so practice can be repeated."""
    if isinstance(table.source, MatchSecret):
        return make_player(name, table.spec.id, random.Random(table.source.derive(f"{role}:{seat}:{name}")))
    suffix = "" if role == "player" else f":{role}"
    return make_player(name, table.spec.id, random.Random(f"{table.source}:{seat}:{name}{suffix}"))


def claim_url(table: Table, seat: str, claim: str) -> str:
    """The one-time address that seats the browser which opens it first (the page spends the claim
    and the address bar then shows only the table)."""
    return f"/{table.spec.id}?t={table.id}&claim={seat}.{claim}"


def _open_seats(table: Table) -> str:
    return " ".join(s.seat for s in table.seats.values() if s.kind == "open")


def _taken_message(table: Table, seat: str) -> Reason:
    others = _open_seats(table)
    if others:
        return Reason("server.seat_taken_open", f"seat {seat} has already been taken; you can watch the table, or take "
                      f"another open seat: {others}", seat=seat, seats=others.split())
    return Reason("server.seat_taken", f"seat {seat} has already been taken; you can watch the table", seat=seat)


def _claim_used_message(table: Table, seat: str) -> Reason:
    said = f"this link was already used: seat {seat} belongs to the browser that opened it first. You can watch the table"
    others = _open_seats(table)
    if others:
        return Reason("server.claim_used_open", f"{said}, or take an open seat: {others}", seat=seat, seats=others.split())
    return Reason("server.claim_used", said, seat=seat)


def _own_token(seat: str) -> Reason:
    return Reason("server.own_token", f"seat {seat} can only be used with its own token", seat=seat)


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


def _deal_starts(record: dict[str, Any]) -> dict[int, int]:
    """For each deal number, how many actions the match had before it."""
    starts, before = {}, 0
    for deal in record.get("deals", []):
        starts[int(deal.get("number", 0))] = before
        before += len(deal.get("actions", []))
    return starts


def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


def _deal_source(stored: StoredTable) -> DealSource:
    """A stored table's deals come from its secret, or (solo practice) its chosen seed."""
    if stored.secret is not None:
        return MatchSecret.from_hex(stored.secret)
    if stored.seed is None:
        raise RulesError(f"table {stored.id} has neither a secret nor a seed to deal from")
    return stored.seed


def _deal_number(table: Table) -> int | None:
    """The deal in progress, if the game's view says (``deal_number``)."""
    number = getattr(table.view(None), "deal_number", None)
    return number if isinstance(number, int) else None
