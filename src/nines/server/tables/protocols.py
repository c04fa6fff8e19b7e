"""What a table's helpers need of the manager, said as a protocol so that none of them imports it.

The manager (:class:`~nines.server.tables.manager.TableManager`) makes the helpers and hands itself to
them: moves (:mod:`.moves`), other processes' moves (:mod:`.following`), seats and sockets
(:mod:`.seats`), the lobby's listing (:mod:`.lobby`), one-time claims, play again, hints and each
table's driver.  They reach it only through :class:`Tables`, so the imports go one way.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from ...games import GameSpec
from ...randomness import MatchSecret
from ..config import ServerConfig
from ..store.database import Store, StoredSeat
from ..store.journal import MoveJournal
from ..wire.pubsub import Broker, TableEvent
from .table import Table

T = TypeVar("T")


class Leases(Protocol):
    """Which process owns each table, when several share them (:class:`~nines.server.tables.owners.Owners`)."""

    async def drive(self, table: Table) -> float | None: ...

    async def moved(self, table: Table) -> None: ...

    def released(self, table: Table, origin: str) -> None: ...


class Spectators(Protocol):
    """Spectators' frames between processes (:class:`~nines.server.tables.fanout.Fanout`)."""

    def on_event(self, table: Table, event: TableEvent) -> None: ...

    async def keep_once(self) -> None: ...


class Tables(Protocol):
    """The tables of one process, as their helpers see them (the manager)."""

    store: Store
    broker: Broker
    config: ServerConfig
    instance: str
    tables: dict[str, Table]
    journal: MoveJournal
    closing: bool
    action_listeners: list[Callable[[Table], None]]

    @property
    def owners(self) -> Leases: ...

    @property
    def fanout(self) -> Spectators: ...

    async def get(self, table_id: str) -> Table: ...

    async def insert(self, spec: GameSpec, preset: str | None, options: dict[str, Any],
                     seats: list[StoredSeat], *, secret: MatchSecret | None, seed: int | None, hints: bool,
                     bot_delay_ms: int, public: bool, clock_s: int | None, away_s: int, stand_in: str) -> Table: ...

    def set_seats(self, table: Table, stored: list[StoredSeat]) -> None: ...

    def ensure_driver(self, table: Table) -> None: ...

    def forget_if_done(self, table: Table, *, from_driver: bool = False) -> None: ...

    def active_since(self) -> dt.datetime: ...

    async def think(self, decide: Callable[[Any], T], view: Any) -> T: ...

    def check_seq(self, table: Table, seq: int) -> None: ...

    async def commit_for(self, table: Table, seq: int, seat: str, action: Any, *, stand_in: bool, why: str) -> None: ...

    async def results_written(self) -> None: ...

    async def publish(self, table: Table, kind: str) -> None: ...

    async def follow(self, table: Table) -> None: ...

    async def catch_up(self, table: Table, force: bool = False) -> bool: ...
