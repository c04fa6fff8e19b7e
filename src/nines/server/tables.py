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
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import BaseModel

from ..bots import Player, make_player
from ..games import GameSpec, UnknownGame, get_game
from ..games.contract import GameState, MatchOver, OutOfTurn, RulesError, options_to_dict
from ..randomness import DealSource, MatchSecret
from . import fronts
from .config import ServerConfig
from .delta import Shown
from .describe import players_for
from .limits import HintDesk, valid_table_id
from .logs import log
from .messages import (
    AckMessage,
    CreateTable,
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

CLAIM_TTL_S = 20


class TableError(Exception):
    """A refused request: a typed code for programs and a sentence for people."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


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

    def info(self, connected: bool) -> SeatInfo:
        name = self.person if self.kind == "human" else self.bot
        return SeatInfo(seat=self.seat, kind=self.kind, name=name, bot=self.bot, connected=connected)  # type: ignore[arg-type]


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
    bot_task: asyncio.Task[None] | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)  # set when the pace changes
    deals_counted: int = 0
    match_counted: bool = False
    practice: bool = False  # solo practice from a chosen seed: left out of statistics
    shown: Shown = field(default_factory=Shown)  # what each socket was last shown: changes go as patches

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

    def connected_seats(self) -> set[str]:
        return {c.seat for c in self.connections if c.seat is not None}

    def info(self) -> TableInfo:
        connected = self.connected_seats()
        return TableInfo(
            id=self.id,
            game=self.spec.id,
            title=self.spec.title,
            preset=self.preset,
            options=self.options,
            seats=[s.info(s.seat in connected or s.kind == "bot") for s in self.seats.values()],
            seq=self.seq,
            status=self.status,  # type: ignore[arg-type]
            hints=self.hints,
            bot_delay_ms=self.bot_delay_ms,
            public=self.public,
            created_at=self.created_at.replace(microsecond=0).isoformat() + "Z",
            winners=list(self.state.winners),
            practice=self.practice,
        )

    def state_for(self, seat: str | None, info: TableInfo | None = None, views: dict[str | None, dict[str, Any]] | None = None) -> StateMessage:
        views = views if views is not None else {}
        if seat not in views:
            views[seat] = self.state.view(seat).to_dict()
        return StateMessage(
            seq=self.seq,
            you=seat,
            table=info or self.info(),
            view=views[seat],
            last=self.last,
            invite=self.invite if seat is not None else None,
        )

    def broadcast(self) -> None:
        """Queue each socket what changed in its own view of the table (call under the lock)."""
        info = self.info()
        views: dict[str | None, dict[str, Any]] = {}
        self.shown.change(self.connections, lambda seat: self.state_for(seat, info, views).model_dump(mode="json"))

    def send_whole(self, connection: Connection) -> None:
        """Queue one socket the whole state of its view (it opened, or asked again; under the lock)."""
        self.shown.whole(connection, self.state_for(connection.seat).model_dump(mode="json"))


class TableManager:
    """Every table this process serves, loaded from the store and kept in step with it."""

    def __init__(self, store: Store, broker: Broker, config: ServerConfig) -> None:
        self.store = store
        self.broker = broker
        self.config = config
        self.instance = config.instance or uuid.uuid4().hex[:8]
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, tuple[asyncio.Lock, int]] = {}  # table id -> (lock, callers holding or awaiting it)
        self.hint_desk = HintDesk(config.limits.hint_cache)
        self._hint_players: dict[str, tuple[str, Player] | None] = {}
        self._closing = False
        self.action_listeners: list[Callable[[Table], None]] = []
        """Told of every move applied here, under the table's lock (the review starts on a deal's end)."""

    # -- life cycle -------------------------------------------------------------------

    async def start(self) -> None:
        """Rebuild every unfinished table from its stored actions, and set its computer players going."""
        ids = await asyncio.to_thread(self.store.unfinished_table_ids)
        for table_id in ids:
            try:
                table = await self.get(table_id)
            except TableError:
                continue
            self._schedule_bot(table)
        await self.broker.start(self._on_remote, self._follow_all)
        log.info("tables.resumed", count=len(self.tables), instance=self.instance)

    async def stop(self) -> None:
        self._closing = True
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None and not t.bot_task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.broker.close()

    # -- finding and rebuilding tables ----------------------------------------------

    async def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not valid_table_id(table_id):  # never looked up: no lock, no query (a NUL once failed on PostgreSQL)
            raise TableError(ErrorCode.NOT_FOUND, f"there is no table {table_id[:40]!r}")
        # one load per table at a time; the lock lives only while someone is loading it
        lock, waiting = self._loading.get(table_id, (asyncio.Lock(), 0))
        self._loading[table_id] = (lock, waiting + 1)
        try:
            async with lock:
                table = self.tables.get(table_id)
                if table is not None:
                    return table
                stored = await asyncio.to_thread(self.store.load_table, table_id)
                if stored is None:
                    raise TableError(ErrorCode.NOT_FOUND, f"there is no table {table_id!r}")
                table = self._rebuild(stored)
                if not table.state.is_over:  # a finished table is rebuilt when asked for, not kept
                    self.tables[table_id] = table
                if table.state.is_over and stored.status != "over":
                    # the process stopped between storing the last move and marking the match over
                    await asyncio.to_thread(self.store.mark_over, table.id, list(table.state.winners))
        finally:
            lock, waiting = self._loading[table_id]
            if waiting > 1:
                self._loading[table_id] = (lock, waiting - 1)
            else:
                del self._loading[table_id]
        await self._count_results(table)
        return table

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
            practice=stored.practice,
        )
        self._set_seats(table, stored.seats)
        if stored.actions:
            a = stored.actions[-1]
            table.last = LastAction(seq=a.seq, seat=a.seat, by=a.by, action=a.action)
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
        # A computer player's own choices at a table dealt from a secret come from that secret (never from
        # anything a seat sees); at solo practice, from the chosen seed, so practice can be repeated.
        if isinstance(table.source, MatchSecret):
            return make_player(name, table.spec.id, random.Random(table.source.derive(f"player:{seat}:{name}")))
        return make_player(name, table.spec.id, random.Random(f"{table.source}:{seat}:{name}"))

    async def listed(self) -> list[Table]:
        """Public tables still being played, most recently active first."""
        ids = await asyncio.to_thread(self.store.listed_tables)
        tables = []
        for table_id in ids:
            try:
                tables.append(await self.get(table_id))
            except TableError:
                continue
        return tables

    # -- creating and joining ----------------------------------------------------------

    async def create(self, request: CreateTable) -> Seated:
        try:
            spec = get_game(request.game)
            options = spec.options(request.preset, request.options)
        except (UnknownGame, RulesError) as error:
            raise TableError(ErrorCode.MALFORMED, str(error)) from None
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
            raise TableError(ErrorCode.MALFORMED, "you can take one seat; leave the others open for friends or give them to computer players")
        available = players_for(spec.id)
        token = secrets.token_urlsafe(24)
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
                stored_seats.append(StoredSeat(seat, "human", person=request.name, token_hash=hash_token(token)))
            else:
                stored_seats.append(StoredSeat(seat, "open"))
        stored = StoredTable(
            id=secrets.token_urlsafe(8).replace("-", "x").replace("_", "y"),
            game=spec.id,
            preset=request.preset or spec.default_preset,
            options=options_to_dict(options),
            seed=request.seed if practice else None,
            secret=secret.hex() if secret is not None else None,
            practice=practice,
            hints=request.hints,
            bot_delay_ms=self.config.bot_delay_ms if request.bot_delay_ms is None else request.bot_delay_ms,
            public=request.public,
            invite=secrets.token_urlsafe(9),
            status="playing",
            winners=[],
            created_at=dt.datetime.now(dt.UTC).replace(tzinfo=None),
            seats=stored_seats,
        )
        await asyncio.to_thread(self.store.insert_table, stored)
        if request.name:
            await asyncio.to_thread(self.store.touch_person, request.name)
        table = self._rebuild(stored)
        self.tables[table.id] = table
        log.info("table.created", table=table.id, game=spec.id, preset=stored.preset, practice=practice,
                 seats={s.seat: s.bot or s.kind for s in stored_seats})
        self._schedule_bot(table)
        return Seated(table=table.info(), seat=mine[0] if mine else None, token=token if mine else None, invite=table.invite)

    async def join(self, table_id: str, request: JoinSeat) -> Seated:
        table = await self.get(table_id)
        if not hmac.compare_digest(request.invite.encode(), table.invite.encode()):  # bytes: any text compares
            raise TableError(ErrorCode.FORBIDDEN, "this invitation is not valid for this table")
        token = secrets.token_urlsafe(24)
        async with table.lock:
            seat = table.seats.get(request.seat)
            if seat is None:
                raise TableError(ErrorCode.NOT_FOUND, f"there is no seat {request.seat}; the seats are {' '.join(table.seats)}")
            try:
                await asyncio.to_thread(self.store.take_seat, table.id, request.seat, hash_token(token), request.name)
            except SeatTaken:
                self._set_seats(table, await asyncio.to_thread(self.store.seats_of, table.id))
                raise TableError(ErrorCode.CONFLICT, f"seat {request.seat} has already been taken") from None
            seat.kind, seat.person, seat.token_hash = "human", request.name, hash_token(token)
            table.broadcast()
        if request.name:
            await asyncio.to_thread(self.store.touch_person, request.name)
        log.info("seat.taken", table=table.id, seat=request.seat)
        await self._publish(table, "seats")
        self._schedule_bot(table)
        return Seated(table=table.info(), seat=request.seat, token=token, invite=table.invite)

    def authenticate(self, table: Table, seat: str | None, token: str | None) -> str | None:
        """The seat a token holds (``None``, a spectator, when no seat is asked for)."""
        if seat is None:
            return None
        held = table.seats.get(seat)
        if held is None or held.kind != "human" or held.token_hash is None or token is None:
            raise TableError(ErrorCode.FORBIDDEN, f"seat {seat} can only be used with its own token")
        if not hmac.compare_digest(held.token_hash.encode(), hash_token(token).encode()):
            raise TableError(ErrorCode.FORBIDDEN, f"seat {seat} can only be used with its own token")
        return seat

    # -- sockets -------------------------------------------------------------------------

    async def attach(self, table: Table, connection: Connection) -> None:
        async with table.lock:
            with contextlib.suppress(StoreUnavailable):  # shown as it is known here; followed when the store is back
                await self._catch_up(table)  # events from other processes may have been lost (pub/sub outage)
            table.connections.add(connection)
            if connection.seat is None:
                table.send_whole(connection)
            else:
                table.send_whole(connection)
                table.broadcast()  # everyone sees the seat is connected

    async def detach(self, table: Table, connection: Connection) -> None:
        async with table.lock:
            table.connections.discard(connection)
            table.shown.forget(connection)
            if connection.seat is not None and not self._closing:
                table.broadcast()
        self._forget_if_done(table)

    def _forget_if_done(self, table: Table, *, from_bots: bool = False) -> None:
        """A finished table that nobody watches leaves memory (a long-running server would
        otherwise keep every match it ever hosted).  The store keeps it: ``get`` rebuilds it
        from its actions if anyone asks again, and its statistics are stored only once."""
        busy = not from_bots and table.bot_task is not None and not table.bot_task.done()
        if table.state.is_over and not table.connections and not busy and self.tables.get(table.id) is table:
            del self.tables[table.id]
            log.info("table.forgotten", table=table.id)

    # -- moves -------------------------------------------------------------------------

    async def act(self, table: Table, seat: str | None, seq: int, text: str) -> AckMessage:
        """Validate, store, apply and acknowledge one move by ``seat``; the state is unchanged if refused."""
        if seat is None:
            raise TableError(ErrorCode.FORBIDDEN, "spectators watch; to play, take a seat with an invitation")
        async with table.lock:
            await self._catch_up(table)
            self._check_seq(table, seq)
            if table.status == "waiting":
                open_seats = " ".join(s.seat for s in table.seats.values() if s.kind == "open")
                raise TableError(ErrorCode.WAITING, f"the match starts when every seat is taken (open: {open_seats})")
            state = table.state
            try:
                action = state.parse_action(text)
                state.check(action, by=seat)
            except MatchOver as error:
                raise TableError(ErrorCode.MATCH_OVER, str(error)) from None
            except OutOfTurn as error:
                raise TableError(ErrorCode.OUT_OF_TURN, str(error)) from None
            except RulesError as error:
                raise TableError(ErrorCode.ILLEGAL, str(error)) from None
            await self._commit(table, seat, action)
        ack = AckMessage(seq=table.seq, action=str(action))
        await self._after_change(table)
        return ack

    def _check_seq(self, table: Table, seq: int) -> None:
        if seq != table.seq:
            raise TableError(
                ErrorCode.STALE,
                f"this message was sent at move {seq} but the table is at move {table.seq}: look again and resend",
            )

    async def _commit(self, table: Table, by: str, action: Any) -> None:
        """Store, then apply, then show everyone (under the lock; the action was checked)."""
        state = table.state
        seat = state.to_act
        assert seat is not None
        stored = StoredAction(seq=table.seq + 1, seat=seat, by=by, action=str(action))
        try:
            await asyncio.to_thread(self.store.append_action, table.id, stored)
        except SeqConflict:
            # another process took this move first: follow it, and refuse ours as stale
            await self._catch_up(table, force=True)
            raise TableError(ErrorCode.STALE, "another move was made at the same moment: look again and resend") from None
        state.apply(action, by=by)
        table.last = LastAction(seq=stored.seq, seat=seat, by=by, action=stored.action)
        log.info("action", table=table.id, seq=stored.seq, seat=seat, by=by, action=stored.action)
        if state.is_over:
            await asyncio.to_thread(self.store.mark_over, table.id, list(state.winners))
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
            table.last = LastAction(seq=a.seq, seat=a.seat, by=a.by, action=a.action)
        return bool(actions)

    async def _after_change(self, table: Table) -> None:
        await self._publish(table, "action")
        self._schedule_bot(table)

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
                    table.wake.set()
            await self._catch_up(table, force=True)
            await self._count_results(table)
            table.broadcast()
        self._schedule_bot(table)

    async def _follow_all(self) -> None:
        """Pub/sub came back after an outage: events sent meanwhile were lost, so every table this
        process holds catches up from the store (seats, pace and moves) and shows its sockets."""
        for table in list(self.tables.values()):
            await self._on_remote(TableEvent(self.instance, table.id, table.seq, "seats"))
        log.info("tables.followed", count=len(self.tables))

    # -- statistics ----------------------------------------------------------------------

    async def _count_results(self, table: Table) -> None:
        """Keep each person's statistics: every finished deal, and the match once it is over."""
        people = {s.seat: s.person for s in table.seats.values() if s.kind == "human" and s.person}
        if not people or table.practice:  # solo practice from a chosen seed does not count
            return
        state = table.state
        number = _deal_number(state)
        if number is not None and number - 1 <= table.deals_counted and not (state.is_over and not table.match_counted):
            return
        record = state.record()
        deals = fronts.finished_deals(record)
        new = deals[table.deals_counted:]
        stats = []
        for deal in new:
            number = int(deal.get("number", 0))
            for seat, person in people.items():
                outcome = fronts.deal_outcome(state, record, deal, seat)
                stats.append(DealStat(table.id, number, seat, person, table.spec.id, **outcome.__dict__))
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
            raise TableError(ErrorCode.FORBIDDEN, "only the players at the table set its pace")
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
            raise TableError(ErrorCode.FORBIDDEN, "hints are for the players at the table")
        async with table.lock:
            self._check_seq(table, seq)
            if table.state.is_over:
                raise TableError(ErrorCode.MATCH_OVER, "the match is over")
            if table.state.acting_seat != seat:
                raise TableError(ErrorCode.OUT_OF_TURN, f"a hint is for your turn; {table.state.acting_seat} is to act")
            view = table.state.view(seat)
        kept = self.hint_desk.kept(table.id, seat, seq)
        if kept is not None:  # asked again at the same position: the same answer, no new search
            return kept  # type: ignore[no-any-return]
        chosen = self.hint_player(table.spec.id)
        if chosen is None:
            raise TableError(ErrorCode.HINTS_OFF, "no computer player can give hints for this game")
        if not self.hint_desk.start(table.id, seat):
            raise TableError(ErrorCode.LIMIT, "a hint for your seat is being worked out: it comes in a moment")
        hint = None
        try:
            name, player = chosen
            decision = await asyncio.to_thread(player.decide, view)
            hint = HintMessage(seq=seq, action=str(decision.action), reason=decision.reason, player=name)
        finally:
            self.hint_desk.finish(table.id, seat, seq, hint)
        return hint

    # -- computer players ----------------------------------------------------------------

    def _schedule_bot(self, table: Table) -> None:
        if self._closing or table.status != "playing":
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        acting = table.state.acting_seat
        if acting is None or table.seats[acting].kind != "bot":
            return
        table.bot_task = asyncio.create_task(self._drive_bots(table), name=f"bots-{table.id}")

    @staticmethod
    async def _pause(table: Table) -> None:
        """Wait the table's pace before a computer player moves (cut short if the pace changes)."""
        table.wake.clear()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(table.wake.wait(), timeout=table.bot_delay_ms / 1000)

    async def _drive_bots(self, table: Table) -> None:
        """Let computer players move, one after another, at the table's pace, while it is their turn."""
        try:
            while not self._closing:
                seq = table.seq
                acting = table.state.acting_seat
                if table.status != "playing" or acting is None or table.seats[acting].kind != "bot":
                    self._forget_if_done(table, from_bots=True)
                    return
                await self._pause(table)
                if table.seq != seq:
                    continue
                if not await self.broker.claim(f"{table.id}:{seq}", CLAIM_TTL_S):
                    # another process is moving for this bot; follow it (or take over if it vanished)
                    await asyncio.sleep(CLAIM_TTL_S)
                    async with table.lock:
                        await self._catch_up(table, force=True)
                    continue
                async with table.lock:
                    if table.seq != seq:
                        continue
                    player = table.seats[acting].player
                    assert player is not None
                    view = table.state.view(acting)
                decision = await asyncio.to_thread(player.decide, view)
                async with table.lock:
                    if table.seq != seq:
                        continue
                    action = decision.action
                    if not table.state.can_apply(action, by=acting):
                        log.warning("bot.illegal", table=table.id, seat=acting, action=str(action))
                        action = table.state.legal_actions()[0]
                    try:
                        await self._commit(table, acting, action)
                    except TableError:
                        continue
                await self._publish(table, "action")
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 -- logged; a failing computer player must not kill the server
            log.exception("bot.failed", table=table.id)


def _deal_source(stored: StoredTable) -> DealSource:
    """A stored table's deals come from its secret, or (solo practice) its chosen seed."""
    if stored.secret is not None:
        return MatchSecret.from_hex(stored.secret)
    if stored.seed is None:
        raise RulesError(f"table {stored.id} has neither a secret nor a seed to deal from")
    return stored.seed


def _deal_number(state: GameState) -> int | None:
    """The deal in progress, if the game's view says (``deal_number``)."""
    number = getattr(state.view(None), "deal_number", None)
    return number if isinstance(number, int) else None
