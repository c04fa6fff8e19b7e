"""One-time claims: the address that moves a held seat to whichever browser opens it first.

A seat held by a person can be taken to another device: the seated browser asks for a
one-time link (``/<game>?t=<table>&claim=<seat>.<secret>``); the first browser to open it
gets the seat with a new token, and any browser that held it before now watches.  A link
used once is spent, and one not used within ``Limits.claim_s`` (15 minutes) no longer works: its secret
starts with the time it expires (hashed with the rest, so it cannot be changed).  The refusals a person may meet when taking a seat are said here too.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import TYPE_CHECKING

from ...games.contract import Reason
from ..logs import log
from ..wire.messages import DeviceLinkMessage, ErrorCode
from .table import Table, TableError, hash_token

if TYPE_CHECKING:
    from .protocols import Tables

__all__ = ["Claims", "claim_url", "new_claim", "own_token", "taken_message"]


def new_claim(seconds: float, now: float | None = None) -> str:
    """A one-time claim's secret, working for ``seconds``: the time it expires (hexadecimal seconds) and a random part."""
    expires = int((time.time() if now is None else now) + seconds)
    return f"{expires:x}.{secrets.token_urlsafe(18)}"


def claim_expired(secret: str, now: float | None = None) -> bool:
    """Whether a claim's secret is past the time it carries (one without a time, from before they expired, is)."""
    stamp, _, rest = secret.partition(".")
    try:
        expires = int(stamp, 16)
    except ValueError:
        return True
    return not rest or (time.time() if now is None else now) >= expires


class Claims:
    """Spends claims and makes claim links for the tables of one manager."""

    def __init__(self, manager: Tables) -> None:
        self.manager = manager

    async def claim(self, table_id: str, claim: str) -> tuple[Table, str, str]:
        """Spend a one-time claim (``seat.secret``): the seat gets a new token for this browser; any
        other browser holding the seat becomes a spectator.  Returns the table, seat and token."""
        table = await self.manager.get(table_id)
        seat, _, secret = claim.partition(".")
        if seat not in table.seats or not secret:
            raise TableError(ErrorCode.FORBIDDEN, Reason("server.claim_invalid", "this link is not a seat of this table; you can watch it"))
        if claim_expired(secret):
            minutes = round(self.manager.config.limits.claim_s / 60)
            raise TableError(ErrorCode.FORBIDDEN, Reason(
                "server.claim_expired", f"this link was not opened within {minutes} minutes and no longer works; ask the "
                "seated device for a new one. You can watch the table", minutes=minutes))
        token = secrets.token_urlsafe(24)
        async with table.lock:
            used = await asyncio.to_thread(self.manager.store.use_claim, table.id, seat, hash_token(secret), hash_token(token))
            if not used:
                raise TableError(ErrorCode.CONFLICT, claim_used_message(table, seat))
            table.seats[seat].token_hash = hash_token(token)
            table.seat_moved(seat)  # the old device now watches
            table.broadcast()
        log.info("seat.claimed", table=table.id, seat=seat)
        await self.manager.publish(table, "seats")
        return table, seat, token

    async def renew(self, table: Table, seat: str) -> tuple[str, str]:
        """A new token for a held ``seat`` (for the browser asking: any other holding the seat now watches) and a
        new one-time link to it, stored in one write: the token and the link's address."""
        token = secrets.token_urlsafe(24)
        claim = new_claim(self.manager.config.limits.claim_s)
        async with table.lock:
            await asyncio.to_thread(self.manager.store.renew_seat, table.id, seat, hash_token(token), hash_token(claim))
            table.seats[seat].token_hash = hash_token(token)
            table.seat_moved(seat)  # the old device now watches
            table.broadcast()
        log.info("seat.renewed", table=table.id, seat=seat)
        await self.manager.publish(table, "seats")
        return token, claim_url(table, seat, claim)

    async def device_link(self, table: Table, seat: str | None) -> DeviceLinkMessage:
        """A one-time address that moves ``seat`` to whichever browser opens it first."""
        if seat is None:
            raise TableError(ErrorCode.FORBIDDEN, Reason("server.device_seated", "only a seated player can move their seat to another device"))
        claim = new_claim(self.manager.config.limits.claim_s)
        await asyncio.to_thread(self.manager.store.set_claim, table.id, seat, hash_token(claim))
        return DeviceLinkMessage(url=claim_url(table, seat, claim))


def claim_url(table: Table, seat: str, claim: str) -> str:
    """The one-time address that seats the browser which opens it first (the page spends the claim
    and the address bar then shows only the table)."""
    return f"/{table.spec.id}?t={table.id}&claim={seat}.{claim}"


def open_seats(table: Table) -> str:
    return " ".join(s.seat for s in table.seats.values() if s.kind == "open")


def taken_message(table: Table, seat: str) -> Reason:
    others = open_seats(table)
    if others:
        return Reason("server.seat_taken_open", f"seat {seat} has already been taken; you can watch the table, or take "
                      f"another open seat: {others}", seat=seat, seats=others.split())
    return Reason("server.seat_taken", f"seat {seat} has already been taken; you can watch the table", seat=seat)


def claim_used_message(table: Table, seat: str) -> Reason:
    said = f"this link was already used: seat {seat} belongs to the browser that opened it first. You can watch the table"
    others = open_seats(table)
    if others:
        return Reason("server.claim_used_open", f"{said}, or take an open seat: {others}", seat=seat, seats=others.split())
    return Reason("server.claim_used", said, seat=seat)


def own_token(seat: str) -> Reason:
    return Reason("server.own_token", f"seat {seat} can only be used with its own token", seat=seat)
