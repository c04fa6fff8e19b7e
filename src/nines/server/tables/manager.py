"""The tables of one server process: made, found, loaded (rebuilt from their logs) and forgotten.

The manager holds every table in memory and hands each helper itself (as :class:`~.protocols.Tables`):
moves (:mod:`~nines.server.tables.moves`), other processes' changes (:mod:`~nines.server.tables.following`),
seats and sockets (:mod:`~nines.server.tables.seats`), the lobby's listing (:mod:`~nines.server.tables.lobby`),
one-time seat links (:mod:`~nines.server.tables.claims`), play again (:mod:`~nines.server.tables.again`),
hints (:mod:`~nines.server.tables.hints`); each live table has one driver (:mod:`~nines.server.tables.driver`).
A table itself is :mod:`nines.server.tables.table`.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import secrets
import time
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from ...bots import Player, players_for
from ...challenge import CHALLENGE_PRESET, CHALLENGES, DealSeeded
from ...games import GameSpec, UnknownGame, computers_alone, get_game
from ...games.contract import Reason, RulesError, options_to_dict
from ...randomness import DealSource, MatchSecret
from ..config import ServerConfig
from ..guard.limits import valid_table_id
from ..logs import log
from ..records.results import count_results
from ..store.database import (
    Store,
    StoredSeat,
    StoredTable,
)
from ..store.journal import MoveJournal, writers_for
from ..wire.messages import (
    AckMessage,
    CreateTable,
    ErrorCode,
    LastAction,
    Seated,
)
from ..wire.pubsub import Broker
from .again import PlayAgain
from .claims import Claims, claim_url, new_claim
from .driver import TableDriver
from .fanout import Fanout
from .following import Following
from .hints import Hints
from .lobby import Lobby
from .moves import Acknowledges, Moves
from .owners import Owners
from .seats import Seats
from .table import Connection, Seat, Table, TableError, hash_token, seat_player, utcnow
from .thinking import Thinking

T = TypeVar("T")

FINISHED_KEPT = 64
"""Finished tables kept rebuilt after a request (each GET of one once replayed its whole log)."""

REBUILD_THREADS = 2
"""Threads rebuilding tables from their logs (a restart's tables, finished tables no longer kept)."""


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
        # computer players and hints think in a few worker processes (or threads: the default pool stays the
        # database's), or on the event loop when they are quick (see thinking.py)
        self.thinking = Thinking(config.limits.computer_threads, processes=config.thinking_processes)
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
        self.moves = Moves(self)  # every move: a person's, a computer player's
        self.following = Following(self)  # other processes' changes followed, this one's published
        self.owners = Owners(self)  # which process moves each table, when several share them
        self.fanout = Fanout(self, self.owners)  # spectators' frames worked out by the owner, forwarded by the others
        self.seats = Seats(self)  # seats taken, tokens checked, sockets attached and detached
        self.lobby = Lobby(self)  # the public tables, as the lobby lists them

    # -- life cycle -------------------------------------------------------------------

    async def start(self) -> None:
        """Rebuild every unfinished table that is not closed for idleness, and set its driver going."""
        ids = await asyncio.to_thread(self.store.unfinished_table_ids, self.active_since())
        for table_id in ids:
            try:
                await self.get(table_id)
            except TableError:
                continue
        await self.broker.start(self.following.on_remote, self.following.follow_all)
        self.owners.start()
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
        await self.owners.stop()  # the other processes take this one's tables at once
        await self.broker.close()
        self.thinking.close()
        self._rebuilding.shutdown(wait=False)

    async def think(self, decide: Callable[[Any], T], view: Any) -> T:
        """A computer player's decision (or a hint): in the manager's own worker processes or threads, or at once
        when quick."""
        return await self.thinking.decide(decide, view)

    def active_since(self) -> dt.datetime:
        return utcnow() - dt.timedelta(seconds=self.config.idle_close_s)

    def counts_as_live(self, table: Table) -> bool:
        """Whether ``table`` counts against the live tables of the address that made it (``Limits.live_s``):
        unfinished, something happened at it lately, and not still waiting for a friend long after it was made."""
        return not table.state.is_over and time.monotonic() - table.active_at <= self.config.limits.live_s \
            and not self._waited_out(table)

    def _waited_out(self, table: Table) -> bool:
        """Still waiting for a friend (a seat open) ``Limits.live_s`` after it was made."""
        return table.status == "waiting" and (utcnow() - table.created_at).total_seconds() > self.config.limits.live_s

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
            if not table.connections and (now - table.active_at > self.config.idle_close_s or self._waited_out(table)):
                await self.close_idle(table)  # idle, or still waiting for a friend long after it was made
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
                if stored.status == "cancelled":
                    raise TableError(ErrorCode.NOT_FOUND, Reason("server.table_cancelled", "this table was cancelled by the person who made it"))
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
            elsewhere=self.fanout if self.broker.shared else None,
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

    # -- creating ----------------------------------------------------------

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
        claim = new_claim(self.config.limits.claim_s)
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
        stored = new_table(spec, preset, options, seats, secret=secret, seed=seed, hints=hints, bot_delay_ms=bot_delay_ms,
                           public=public, clock_s=clock_s, away_s=away_s, stand_in=stand_in)
        await asyncio.to_thread(self.store.insert_table, stored)
        return self.open_new(stored)

    def open_new(self, stored: StoredTable) -> Table:
        """A new table, stored by the caller (:func:`new_table`), in memory with its driver going."""
        table = self._rebuild(stored)
        self.tables[table.id] = table
        log.info("table.created", table=table.id, game=stored.game, preset=stored.preset, practice=stored.practice,
                 clock_s=stored.clock_s, seats={s.seat: s.bot or s.kind for s in stored.seats})
        self.ensure_driver(table)
        return table

    # -- what the helpers do, asked of the manager -------------------------------------

    async def act(self, table: Table, seat: str | None, seq: int, text: str,
                  acknowledge: Acknowledges | None = None) -> AckMessage:
        """One move by ``seat`` (:meth:`Moves.act <nines.server.tables.moves.Moves.act>`)."""
        return await self.moves.act(table, seat, seq, text, acknowledge)

    async def commit_for(self, table: Table, seq: int, seat: str, action: Any, *, stand_in: bool, why: str) -> None:
        await self.moves.commit_for(table, seq, seat, action, stand_in=stand_in, why=why)

    def check_seq(self, table: Table, seq: int) -> None:
        self.moves.check_seq(table, seq)

    async def results_written(self) -> None:
        await self.moves.results_written()

    async def publish(self, table: Table, kind: str) -> None:
        await self.following.publish(table, kind)

    async def follow(self, table: Table) -> None:
        await self.following.follow(table)

    async def catch_up(self, table: Table, force: bool = False) -> bool:
        return await self.following.catch_up(table, force)

    async def attach(self, table: Table, connection: Connection) -> None:
        await self.seats.attach(table, connection)

    async def detach(self, table: Table, connection: Connection) -> None:
        await self.seats.detach(table, connection)


STUCK_S = 120.0  # a move in progress this long is stuck (a hung database call, say): the watchdog restarts it


def new_table(spec: GameSpec, preset: str | None, options: dict[str, Any], seats: list[StoredSeat], *,
              secret: MatchSecret | None, seed: int | None, hints: bool, bot_delay_ms: int, public: bool,
              clock_s: int | None, away_s: int, stand_in: str) -> StoredTable:
    """A new table as it will be stored (a fresh id and invitation; nothing stored yet): dealt from ``secret``, or
    at solo practice (no secret) from ``seed``."""
    practice = secret is None
    now = utcnow()
    return StoredTable(
        id=secrets.token_urlsafe(8).replace("-", "x").replace("_", "y"), game=spec.id, preset=preset, options=options,
        seed=seed if practice else None, secret=secret.hex() if secret is not None else None, practice=practice,
        hints=hints, bot_delay_ms=bot_delay_ms, public=public, invite=secrets.token_urlsafe(9), status="playing",
        winners=[], created_at=now, seats=seats, clock_s=clock_s, away_s=away_s, stand_in=stand_in)


def _deal_source(stored: StoredTable) -> DealSource:
    """A stored table's deals come from its secret, or (solo practice) its chosen seed."""
    if stored.secret is not None:
        return MatchSecret.from_hex(stored.secret)
    if stored.seed is None:
        raise RulesError(f"table {stored.id} has neither a secret nor a seed to deal from")
    return stored.seed


