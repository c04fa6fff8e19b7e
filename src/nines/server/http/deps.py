"""What the routes reach through FastAPI's dependencies: one app's manager, store, reviews, config and guards.

``create_app`` keeps them on ``app.state``; a route asks for them by type (``manager: ManagerDep``), as
FastAPI's "bigger applications" layout does, so that each router is a module of its own and needs no
closure over the app.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from ..config import ServerConfig
from ..guard.limits import Limits, LiveTables, Rates, SocketGate, client_key
from ..records.replay import ReplayFrames
from ..records.review import Reviews
from ..runtime import CollectorPauses
from ..store.database import Store
from ..tables.manager import TableManager
from ..tables.table import TableError
from ..wire.messages import ErrorCode


@dataclass
class Guards:
    """One app's per-address bounds (:mod:`nines.server.guard.limits`): its table sockets, its rates, its
    tables in play, and its API requests under way."""

    limits: Limits
    gate: SocketGate
    rates: Rates
    live_tables: LiveTables
    under_way: Counter[str] = field(default_factory=Counter)  # API requests under way, by the client's address

    @classmethod
    def of(cls, limits: Limits) -> Guards:
        return cls(limits, SocketGate(limits), Rates(limits), LiveTables(limits))


def client_address(client: Any) -> str:
    """The client as the per-address bounds count it: its address as the connection shows it (behind a proxy,
    the proxy's), an IPv6 one by its /64 network (:func:`~nines.server.guard.limits.client_key`)."""
    return client_key(str(client.host)) if client is not None else "unknown"


def from_state(attribute: str) -> Callable[[HTTPConnection], Any]:
    """A dependency that reads one of the app's parts from ``app.state`` (its type is the ``Annotated`` one)."""

    def part(connection: HTTPConnection) -> Any:
        return getattr(connection.app.state, attribute)

    part.__name__ = f"app_state_{attribute}"
    return part


def utc_now() -> dt.datetime:
    """The time as the database keeps it: UTC, without a time zone."""
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


def _clock(connection: HTTPConnection) -> dt.datetime:
    """Now, by the app's clock (``app.state.clock``: :func:`utc_now`, or a test's)."""
    clock: Callable[[], dt.datetime] = connection.app.state.clock
    return clock()


def _address(connection: HTTPConnection) -> str:
    return client_address(connection.client)


ManagerDep = Annotated[TableManager, Depends(from_state("manager"))]
StoreDep = Annotated[Store, Depends(from_state("store"))]
ReviewsDep = Annotated[Reviews, Depends(from_state("reviews"))]
ReplaysDep = Annotated[ReplayFrames, Depends(from_state("replays"))]
ConfigDep = Annotated[ServerConfig, Depends(from_state("config"))]
GuardsDep = Annotated[Guards, Depends(from_state("guards"))]
PausesDep = Annotated[CollectorPauses, Depends(from_state("pauses"))]
AddressDep = Annotated[str, Depends(_address)]
NowDep = Annotated[dt.datetime, Depends(_clock)]


def refuse(refusal: str | None) -> None:
    """A bound's refusal (its reason, or ``None`` when there is none) raised as the 429 it answers."""
    if refusal is not None:
        raise TableError(ErrorCode.LIMIT, refusal)


def name_counter(request: Request, guards: GuardsDep) -> Callable[[], None]:
    """Counts a name new to the database against its address's rate (``Limits.names_per_hour``): each is a
    row kept for good, and one client once added 130 a second for as long as it liked."""
    address = client_address(request.client)

    def count() -> None:
        refuse(guards.rates.new_name(address))

    return count


NameCounterDep = Annotated[Callable[[], None], Depends(name_counter)]
