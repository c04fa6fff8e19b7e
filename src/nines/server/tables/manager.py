"""The tables of one server process: made, found, rebuilt, moved along and forgotten.

The server is authoritative.  Every move goes through :meth:`TableManager.act` under
the table's lock: the sequence number is checked (stale or repeated messages are
refused), the rules check the action for the sender's seat, the action is stored,
and only then applied and acknowledged.  After every change each socket receives the
view of its own seat (a spectator, the view of no seat).

A table itself is :mod:`nines.server.tables.table`; the manager's other duties have modules of their
own: one-time seat links (:mod:`~nines.server.tables.claims`), play again (:mod:`~nines.server.tables.again`),
hints (:mod:`~nines.server.tables.hints`) and each person's results (:mod:`~nines.server.records.results`).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import hmac
import secrets
import time
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

from ...bots import Player, players_for
from ...challenge import CHALLENGE_PRESET, CHALLENGES, DealSeeded
from ...games import GameSpec, UnknownGame, computers_alone, get_game
from ...games.contract import MatchOver, OutOfTurn, Reason, RulesError, options_to_dict
from ...randomness import DealSource, MatchSecret
from ..config import ServerConfig
from ..guard.limits import valid_table_id
from ..logs import log
from ..records.results import Due, count_results, results_due, write_results
from ..store.database import (
    SeatTaken,
    SeqConflict,
    Store,
    StoredAction,
    StoredSeat,
    StoredTable,
    StoreUnavailable,
)
from ..store.journal import MoveJournal, writers_for
from ..wire.messages import (
    AckMessage,
    CreateTable,
    ErrorCode,
    JoinSeat,
    LastAction,
    Seated,
)
from ..wire.pubsub import Broker, TableEvent
from .again import PlayAgain
from .claims import Claims, claim_url, own_token, taken_message
from .driver import TableDriver
from .hints import Hints
from .table import Connection, Seat, Table, TableError, hash_token, seat_player, utcnow
from .thinking import Thinking

T = TypeVar("T")

FINISHED_KEPT = 64
"""Finished tables kept rebuilt after a request (each GET of one once replayed its whole log)."""

REBUILD_THREADS = 2
"""Threads rebuilding tables from their logs (a restart's tables, finished tables no longer kept)."""


class Acknowledges(Protocol):
    """Where a person's move is acknowledged: the socket that sent it (:class:`~nines.server.wire.sockets.SocketConnection`)."""

    def send(self, message: BaseModel) -> None: ...

    async def reply(self, message: BaseModel) -> None: ...

    async def flush(self) -> None: ...


class _Early:
    """What of a person's move was done in the round its commit was answered (:meth:`TableManager._stored_now`)."""

    __slots__ = ("acknowledged", "applied", "shown")

    def __init__(self) -> None:
        self.applied = self.shown = self.acknowledged = False


class TableManager:
    """Every table this process serves: creates, finds, loads and forgets them.

    Each live table in memory has a :class:`~nines.server.tables.driver.TableDriver` that moves it
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
        self.journal = MoveJournal(store, writers=writers_for(store.engine.dialect.name))  # moves stored by group commit
        # computer players and hints think in their own few threads (the default pool stays the database's),
        # or on the event loop when they are quick (see thinking.py)
        self.thinking = Thinking(config.limits.computer_threads)
        self._finished: OrderedDict[str, Table] = OrderedDict()  # finished tables lately asked for, oldest first
        # tables rebuilt from their logs in threads of their own: in the default pool, GETs of long finished tables
        # no longer kept (0.4 s of CPU each for a 7,182-move match) held the threads every database call waits for
        self._rebuilding = ThreadPoolExecutor(max_workers=REBUILD_THREADS, thread_name_prefix="nines-rebuild")
        self.closing = False
        self.claims = Claims(self)  # one-time links that move a held seat to another browser
        self.play_again = PlayAgain(self)  # the next match of each finished table
        self.hints = Hints(self)  # the moves computer players would make in a seat's place
        self._watchdog: asyncio.Task[None] | None = None
        self.action_listeners: list[Callable[[Table], None]] = []
        """Told of every move applied here, under the table's lock (the review starts on a deal's end)."""
        self._results_writing: set[asyncio.Task[None]] = set()  # people's statistics being written (_write_results)

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
        await self.results_written()
        await self.broker.close()
        self.thinking.close()
        self._rebuilding.shutdown(wait=False)

    async def think(self, decide: Callable[[Any], T], view: Any) -> T:
        """A computer player's decision (or a hint): in the manager's own threads, or at once when quick."""
        return await self.thinking.decide(decide, view)

    def _active_since(self) -> dt.datetime:
        return utcnow() - dt.timedelta(seconds=self.config.idle_close_s)

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
                table = await asyncio.get_running_loop().run_in_executor(self._rebuilding, self._rebuild, stored)
                if not table.state.is_over:
                    self.tables[table_id] = table
                else:  # a finished table is kept a while among the recently asked for, not for ever
                    self._keep_finished(table)
                if table.state.is_over and stored.status != "over":
                    # the process stopped between storing the last move and marking the match over
                    await asyncio.to_thread(self.store.mark_over, table.id, list(table.state.winners), table.final_record())
                if table.next_table is not None:
                    await self.play_again.answers(table)
        finally:
            lock, waiting = self._loading[table_id]
            if waiting > 1:
                self._loading[table_id] = (lock, waiting - 1)
            else:
                del self._loading[table_id]
        await count_results(self.store, table)
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
            if stored.preset == CHALLENGE_PRESET:  # the daily challenge: its match ends after its deals
                state.deal_limit = CHALLENGES[spec.id].deals
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
        self.set_seats(table, stored.seats)
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

    def set_seats(self, table: Table, stored: list[StoredSeat]) -> None:
        previous = table.seats
        seats: dict[str, Seat] = {}
        for s in stored:
            player = None
            if s.kind == "bot" and s.bot:
                old = previous.get(s.seat)
                player = old.player if old is not None and old.bot == s.bot and old.player else self._bot(table, s.seat, s.bot)
            seats[s.seat] = Seat(s.seat, s.kind, s.bot, s.person, s.token_hash, player)
        table.seats = seats
        for seat, held in previous.items():
            now_held = seats.get(seat)
            if held.token_hash is not None and (now_held is None or now_held.token_hash != held.token_hash):
                # moved to another browser (claimed on another process): the sockets here that held it watch
                table.seat_moved(seat)

    @staticmethod
    def _bot(table: Table, seat: str, name: str) -> Player:
        if table.preset == CHALLENGE_PRESET and isinstance(table.source, MatchSecret):
            # the daily challenge: made afresh at each deal from (day, game, deal, seat), for duplicate fairness
            return DealSeeded(name, table.spec.id, table.source, seat)
        return seat_player(table, seat, name)

    async def listed(self) -> list[dict[str, Any]]:
        """Public tables still being played and not closed for idleness, most recently active first, as the
        lobby's JSON data (from the database: listing never loads or replays a table).  Built as plain data,
        like the messages' table info (the models' validation and dumps were most of a listing's 22 ms);
        a test holds each entry equal to its model's dump."""
        stored = await asyncio.to_thread(self.store.listed_tables, self._active_since())
        listed = []
        for row in stored:
            live = self.tables.get(row.id)
            if live is not None:
                info = live.info_body()
                invite = live.invite
            else:
                try:
                    spec = get_game(row.game)
                except UnknownGame:
                    continue
                info = self._paused_info(row, spec.id, spec.title)
                invite = row.invite
            listed.append({**info, "invite": invite if info["status"] == "waiting" else None})
        return listed

    def _paused_info(self, row: StoredTable, game: str, title: str) -> dict[str, Any]:
        """A table not in memory as :class:`TableInfo`'s JSON data: nobody is connected to it, nothing moves."""
        moved = row.updated_at or row.created_at
        return {
            "id": row.id, "game": game, "title": title, "preset": row.preset, "options": row.options,
            "seats": [{"seat": s.seat, "kind": s.kind, "name": s.person if s.kind == "human" else s.bot, "bot": s.bot,
                       "connected": s.kind == "bot", "stand_in": False} for s in row.seats],
            "seq": row.seq, "status": "waiting" if any(s.kind == "open" for s in row.seats) else "playing",
            "hints": row.hints, "bot_delay_ms": row.bot_delay_ms, "public": row.public,
            "created_at": row.created_at.replace(microsecond=0).isoformat() + "Z", "winners": list(row.winners),
            "clock_s": row.clock_s, "away_s": row.away_s or self.config.away_s, "clock": None, "paused": True,
            "moved_ago_s": max(0, int((utcnow() - moved).total_seconds())), "again": None, "practice": row.practice,
        }

    # -- creating and joining ----------------------------------------------------------

    async def create(self, request: CreateTable, claim_name: Callable[[], Awaitable[None]] | None = None) -> Seated:
        """A new table as asked for; ``claim_name`` (the creator's name made theirs) is awaited once the request
        is known to be one that can be met, just before the table is stored: a refused request stores nothing."""
        try:
            spec = get_game(request.game)
            options = spec.options(request.preset, request.options)
            if all(choice.kind == "bot" for choice in request.seats.values()):
                # nobody at the table can end a session the table ends (rummy's open session), nor a hand that
                # locks: a fixed session, and hands capped as tournaments cap them
                options = computers_alone(options)
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
        if claim_name is not None:
            await claim_name()
        table = await self.insert(
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

    async def insert(self, spec: GameSpec, preset: str | None, options: dict[str, Any],
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
            created_at=utcnow(),
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

    async def join(self, table_id: str, request: JoinSeat, claim_name: Callable[[], Awaitable[None]] | None = None) -> Seated:
        """Take an open seat by the table's invitation; ``claim_name`` (the person's name made theirs) is awaited
        once the invitation, the match and the seat are known to be good (a join refused for any of them once
        stored the name all the same)."""
        table = await self.get(table_id)
        if not hmac.compare_digest(request.invite.encode(), table.invite.encode()):  # bytes: any text compares
            raise TableError(ErrorCode.FORBIDDEN, Reason("server.invite_invalid", "this invitation is not valid for this table"))
        if table.state.is_over:
            raise TableError(ErrorCode.MATCH_OVER, Reason("server.seats_closed", "this match is over: its seats can no longer be "
                                                          "taken (you can watch its replay)"))
        if request.seat not in table.seats:  # a table's seats never change, only who holds them
            raise TableError(ErrorCode.NOT_FOUND, Reason("server.no_seat", f"there is no seat {request.seat}; the seats are "
                                                         f"{' '.join(table.seats)}", seat=request.seat, seats=list(table.seats)))
        if claim_name is not None:
            await claim_name()
        token = secrets.token_urlsafe(24)
        async with table.lock:
            seat = table.seats[request.seat]
            try:
                await asyncio.to_thread(self.store.take_seat, table.id, request.seat, hash_token(token), request.name)
            except SeatTaken:
                self.set_seats(table, await asyncio.to_thread(self.store.seats_of, table.id))
                raise TableError(ErrorCode.CONFLICT, taken_message(table, request.seat)) from None
            seat.kind, seat.person, seat.token_hash = "human", request.name, hash_token(token)
            table.seen_at[request.seat] = time.monotonic()
            table.turn_changed()  # the match may start now: the clock starts with it
            table.broadcast()
        if request.name:
            await asyncio.to_thread(self.store.touch_person, request.name)
        log.info("seat.taken", table=table.id, seat=request.seat)
        await self.publish(table, "seats")
        return Seated(table=table.info(), seat=request.seat, token=token, invite=table.invite)

    def authenticate(self, table: Table, seat: str | None, token: str | None) -> str | None:
        """The seat a token holds (``None``, a spectator, when no seat is asked for)."""
        if seat is None:
            return None
        held = table.seats.get(seat)
        if held is None or held.kind != "human" or held.token_hash is None or token is None:
            raise TableError(ErrorCode.FORBIDDEN, own_token(seat))
        if not hmac.compare_digest(held.token_hash.encode(), hash_token(token).encode()):
            raise TableError(ErrorCode.FORBIDDEN, own_token(seat))
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

    async def act(self, table: Table, seat: str | None, seq: int, text: str,
                  acknowledge: Acknowledges | None = None) -> AckMessage:
        """Validate, store, apply and acknowledge one move by ``seat``; the state is unchanged if refused.

        Checked and handed to the journal in the caller's own task (people first: no round of the event
        loop between the person's message and its place in the next commit); from there on the move runs
        to its end in a task of its own, which holds the table's lock until the move is applied and shown
        (a caller that gives up, a socket closing mid-move, never cuts a move in half), then calls
        ``acknowledge`` (the socket's answer, written at once rather than when the caller's task is woken).
        """
        if seat is None:
            raise TableError(ErrorCode.FORBIDDEN, Reason("server.spectator", "spectators watch; to play, take a seat with an invitation"))
        if table.lock.locked():  # a computer player's move (every seat acts at once in an exchange): people first
            self.journal.hurry(table.id)
        await table.lock.acquire()
        try:
            # no read of the store first for moves other processes made: their events bring them, and a
            # move made elsewhere that this process has not heard of yet is refused as stale when it is
            # stored (SeqConflict), the table then caught up; the read cost a query per move in a thread
            action = self._checked(table, seat, seq, text)
            table.seen_at[seat] = time.monotonic()
            stored = self._stored(table, seat, action)
            early = _Early()
            answer = self.journal.enqueue(table.id, stored, first=True,
                                          then=partial(self._stored_now, table, seat, action, stored, early, acknowledge))
        except BaseException:
            table.lock.release()
            raise
        return await asyncio.shield(self._acted(table, seat, action, stored, answer, acknowledge, early))

    def _stored_now(self, table: Table, seat: str, action: Any, stored: StoredAction, early: _Early,
                    acknowledge: Acknowledges | None) -> None:
        """A person's move, in the round of the event loop its commit is answered (``MoveJournal``'s ``then``):
        applied, shown and acknowledged then, not a round later when its task wakes (each round, under load,
        a handful of computer players' moves and spectators' patches: 14 ms at the median under
        ``benchmarks/server_load.py``).  The lock is the move's, held by its task, which does what is left."""
        self._apply_now(table, seat, action, stored)
        early.applied = True
        if table.state.is_over:
            return  # the match is marked over in the store before it is shown: the move's task does it
        self._show(table, stored.seq)
        early.shown = True
        if acknowledge is not None:
            acknowledge.send(AckMessage(seq=stored.seq, action=str(action)))
            early.acknowledged = True

    def _checked(self, table: Table, seat: str, seq: int, text: str) -> Any:
        """The action ``text`` by ``seat`` at move ``seq``, if the rules allow it now (under the lock)."""
        self.check_seq(table, seq)
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
        return action

    async def _acted(self, table: Table, seat: str, action: Any, stored: StoredAction, answer: asyncio.Future[None],
                     acknowledge: Acknowledges | None, early: _Early) -> AckMessage:
        """A person's move from its commit on: applied, shown, acknowledged (holding the lock ``act`` took), what
        :meth:`_stored_now` did not do already."""
        try:
            await self._apply_stored(table, seat, action, stored, answer, early)
        finally:
            table.lock.release()
        ack = AckMessage(seq=stored.seq, action=str(action))
        if acknowledge is not None:
            if early.acknowledged:
                with contextlib.suppress(Exception):  # a socket that closed meanwhile: its own task ends it
                    await acknowledge.flush()  # (written already, unless something of the socket's waited before it)
            else:
                await acknowledge.reply(ack)
        await self.publish(table, "action")
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
        await self.publish(table, "action")

    async def follow(self, table: Table) -> None:
        """Catch up with moves another process made."""
        async with table.lock:
            if await self._catch_up(table, force=True):
                table.broadcast()

    def check_seq(self, table: Table, seq: int) -> None:
        if seq != table.seq:
            raise TableError(
                ErrorCode.STALE,
                f"this message was sent at move {seq} but the table is at move {table.seq}: look again and resend",
                params={"sent": seq, "at": table.seq},
            )

    async def _commit(self, table: Table, by: str, action: Any, *, stand_in: bool = False) -> None:
        """Store, then apply, then show everyone (under the lock; the action was checked)."""
        stored = self._stored(table, by, action, stand_in=stand_in)
        await self._apply_stored(table, by, action, stored, self.journal.enqueue(table.id, stored))

    def _stored(self, table: Table, by: str, action: Any, *, stand_in: bool = False) -> StoredAction:
        """The next move of ``table`` as the journal stores it."""
        seat = table.state.to_act
        assert seat is not None
        return StoredAction(seq=table.seq + 1, seat=seat, by=by, action=str(action), stand_in=stand_in)

    async def _apply_stored(self, table: Table, by: str, action: Any, stored: StoredAction, answer: asyncio.Future[None],
                            early: _Early | None = None) -> None:
        """Once the journal's ``answer`` says the move is stored: apply it and show everyone (under the lock),
        what of that ``early`` says was not done already (:meth:`_stored_now`).
        A person's move (``first`` in the journal) is answered before computer players' moves (people first)."""
        state = table.state
        try:
            await answer
        except SeqConflict:
            # another process took this move first: follow it, and refuse ours as stale
            await self._catch_up(table, force=True)
            raise TableError(ErrorCode.STALE, "another move was made at the same moment: look again and resend") from None
        if early is None or not early.applied:
            self._apply_now(table, by, action, stored)
        if early is not None and early.shown:
            return
        try:
            if state.is_over:
                await asyncio.to_thread(self.store.mark_over, table.id, list(state.winners), table.final_record())
                log.info("table.over", table=table.id, winners=list(state.winners))
        except StoreUnavailable as error:
            # the move is stored and applied: it is shown and acknowledged all the same (refused, it would
            # say "nothing was done" of a move that was, and its resending would be stale). A match not
            # marked over is marked when the table is next rebuilt from the store (see get)
            log.warning("store.after_move", table=table.id, seq=stored.seq, error=str(error))
        self._show(table, stored.seq)

    def _apply_now(self, table: Table, by: str, action: Any, stored: StoredAction) -> None:
        """The stored move applied to the table (under the lock)."""
        seat, stand_in = stored.seat, stored.stand_in
        table.state.apply(action, by=by)
        if stand_in:
            table.stand_ins[stored.seq] = by
        table.last = LastAction(seq=stored.seq, seat=seat, by=by, action=stored.action, stand_in=stand_in)
        table.moved_at = utcnow()
        table.turn_changed()
        log.info("action", table=table.id, seq=stored.seq, seat=seat, by=by, action=stored.action, stand_in=stand_in)

    def _show(self, table: Table, seq: int) -> None:
        """An applied move counted (a deal's end), told to the listeners, and shown to every socket (under the lock)."""
        due = results_due(table)
        if due is not None:  # a deal ended: its statistics are written while the move goes on (see results_written)
            self._write_results(table, seq, due)
        for listener in self.action_listeners:
            listener(table)
        table.broadcast()

    def _write_results(self, table: Table, seq: int, due: Due) -> None:
        """The people's statistics of a deal that ended, written in a task of its own, not awaited by the move.

        Awaited, they held the move that ended a deal (its acknowledgement when it was a person's) for the
        round trip to a thread and a transaction of their own; under ``benchmarks/server_load.py`` on SQLite,
        where a write that finds the journal's commit under way sleeps until the database is free, 75 ms on
        average: 2% of a person's moves, a fifth of the slowest 5%.  Whoever reads statistics waits for those
        being written first (:meth:`results_written`), and so do other processes (a move is published after
        them): every deal a socket was shown is in every statistic read after it."""
        async def write() -> None:
            try:
                await write_results(self.store, table, due)
            except StoreUnavailable as error:  # not written: counted again at the table's next count
                log.warning("store.after_move", table=table.id, seq=seq, error=str(error))

        task = asyncio.create_task(write())
        self._results_writing.add(task)
        task.add_done_callback(self._results_writing.discard)

    async def results_written(self) -> None:
        """Once the statistics being written now are written (or failed): what a reader of statistics waits for."""
        while self._results_writing:
            await asyncio.wait(list(self._results_writing))

    async def _catch_up(self, table: Table, force: bool = False) -> bool:
        """Apply actions other processes stored since this one last looked (under the lock)."""
        if not (self.broker.shared or force):
            return False
        actions = await asyncio.to_thread(self.store.actions_after, table.id, table.seq)
        for a in actions:
            if a.seq != table.seq + 1:
                break
            self._follow_move(table, a)
        return bool(actions)

    def _follow_move(self, table: Table, a: StoredAction) -> None:
        """Apply a move another process stored (the next one of the table; under the lock)."""
        table.state.apply(table.state.parse_action(a.action), by=a.by)
        if a.stand_in:
            table.stand_ins[a.seq] = a.by
        table.last = LastAction(seq=a.seq, seat=a.seat, by=a.by, action=a.action, stand_in=a.stand_in)
        table.moved_at = utcnow()
        table.turn_changed()

    async def publish(self, table: Table, kind: str) -> None:
        if self.broker.shared:
            await self.results_written()  # another process's sockets show the move once its statistics are written
            last = table.last
            moves = [[last.seat, last.by, last.action, last.stand_in]] if kind == "action" and last and last.seq == table.seq else None
            try:
                await self.broker.publish(TableEvent(self.instance, table.id, table.seq, kind, moves))
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
                    self.set_seats(table, stored.seats)
                    table.bot_delay_ms = stored.bot_delay_ms
            first = event.seq - len(event.moves) + 1 if event.moves else None
            if event.kind == "action" and event.moves and first is not None and first <= table.seq + 1 <= event.seq:
                # the next moves, as the event carries them: no need to read the store
                for seq in range(table.seq + 1, event.seq + 1):
                    seat, by, action, stand_in = event.moves[seq - first]
                    self._follow_move(table, StoredAction(seq=seq, seat=seat, by=by, action=action, stand_in=stand_in))
            elif event.seq > table.seq or event.kind != "action":
                await self._catch_up(table, force=True)
            await count_results(self.store, table)
            table.broadcast()
        table.wake.set()

    async def _follow_all(self) -> None:
        """Pub/sub came back after an outage: events sent meanwhile were lost, so every table this
        process holds catches up from the store (seats, pace and moves) and shows its sockets."""
        for table in list(self.tables.values()):
            await self._on_remote(TableEvent(self.instance, table.id, table.seq, "seats"))
        log.info("tables.followed", count=len(self.tables))

    # -- pace ------------------------------------------------------------------

    async def set_pace(self, table: Table, seat: str | None, seq: int, delay_ms: int) -> None:
        if seat is None:
            raise TableError(ErrorCode.FORBIDDEN, Reason("server.pace_players", "only the players at the table set its pace"))
        async with table.lock:
            self.check_seq(table, seq)
            await asyncio.to_thread(self.store.set_pace, table.id, delay_ms)
            table.bot_delay_ms = delay_ms
            table.wake.set()
            table.broadcast()
        await self.publish(table, "pace")


STUCK_S = 120.0  # a move in progress this long is stuck (a hung database call, say): the watchdog restarts it


def _deal_source(stored: StoredTable) -> DealSource:
    """A stored table's deals come from its secret, or (solo practice) its chosen seed."""
    if stored.secret is not None:
        return MatchSecret.from_hex(stored.secret)
    if stored.seed is None:
        raise RulesError(f"table {stored.id} has neither a secret nor a seed to deal from")
    return stored.seed


