"""People at a table: a seat taken by its invitation, a seat's token checked, sockets coming and going, visits."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import secrets
import time
from collections.abc import Awaitable, Callable

from ...games.contract import Reason
from ..logs import log
from ..store.database import SeatTaken, StoreUnavailable
from ..wire.messages import ErrorCode, JoinSeat, Seated
from .claims import own_token, taken_message
from .protocols import Tables
from .table import Connection, Table, TableError, hash_token


class Seats:
    """Who sits at and watches the tables: joining, tokens and seat cookies, sockets attached and detached."""

    def __init__(self, manager: Tables) -> None:
        self.manager = manager

    async def join(self, table_id: str, request: JoinSeat, claim_name: Callable[[], Awaitable[None]] | None = None) -> Seated:
        """Take an open seat by the table's invitation; ``claim_name`` (the person's name made theirs) is awaited
        once the invitation, the match and the seat are known to be good (a join refused for any of them once
        stored the name all the same)."""
        table = await self.manager.get(table_id)
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
                await asyncio.to_thread(self.manager.store.take_seat, table.id, request.seat, hash_token(token), request.name)
            except SeatTaken:
                self.manager.set_seats(table, await asyncio.to_thread(self.manager.store.seats_of, table.id))
                raise TableError(ErrorCode.CONFLICT, taken_message(table, request.seat)) from None
            seat.kind, seat.person, seat.token_hash = "human", request.name, hash_token(token)
            table.seen_at[request.seat] = time.monotonic()
            table.turn_changed()  # the match may start now: the clock starts with it
            table.broadcast()
        if request.name:
            await asyncio.to_thread(self.manager.store.touch_person, request.name)
        log.info("seat.taken", table=table.id, seat=request.seat)
        await self.manager.publish(table, "seats")
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

    async def attach(self, table: Table, connection: Connection) -> None:
        async with table.lock:
            with contextlib.suppress(StoreUnavailable):  # shown as it is known here; followed when the store is back
                await self.manager.catch_up(table)  # events from other processes may have been lost (pub/sub outage)
            table.connections.add(connection)
            table.active_at = time.monotonic()
            if connection.seat is None:
                table.send_whole(connection)
            else:
                table.send_whole(connection)
                table.broadcast()  # everyone sees the seat is connected (and no longer stood in)
        table.wake.set()
        self.manager.ensure_driver(table)

    async def detach(self, table: Table, connection: Connection) -> None:
        async with table.lock:
            table.connections.discard(connection)
            table.shown.forget(connection)
            now = time.monotonic()
            table.active_at = now
            if connection.seat is not None:
                table.seen_at[connection.seat] = now  # gone from now: the grace period starts
                if not self.manager.closing:
                    table.broadcast()
        table.wake.set()
        self.manager.forget_if_done(table)

    def visited(self, table: Table, seat: str | None = None) -> None:
        """Someone asked for the table over HTTP: it counts as watched for a while (a seat's person, as here)."""
        now = time.monotonic()
        table.watched_until = max(table.watched_until, now + self.manager.config.watch_grace_s)
        table.active_at = now
        if seat is not None:
            table.seen_at[seat] = now
        table.wake.set()
        self.manager.ensure_driver(table)
