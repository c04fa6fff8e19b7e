"""What a browser keeps so that its seats and its name stay its own.

* A held seat: an HttpOnly, SameSite=Strict cookie ``nines_seat`` scoped to the table's socket
  path (``/ws/tables/<id>``), holding ``seat.token``.  Nothing a person can copy (the address
  bar, a link) carries it, so a table's address opened in another browser makes a spectator.
  The server keeps only a hash of the token and compares in constant time.
* A name: the first browser to use a name owns it.  Its secret lives in an HttpOnly cookie per
  name (``nines_name_<digest>``); the database keeps its hash.  Another browser is refused
  the name, so nobody else plays under it or changes its statistics, unless the name was taken
  there (a one-time code, a passkey: :mod:`.names`); that browser has a secret of its own.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Callable

from fastapi import Request, Response

from ...games.contract import Reason
from ..store.database import Store
from ..tables.table import TableError, hash_token
from ..wire.messages import ErrorCode

SEAT_COOKIE = "nines_seat"
SEAT_COOKIE_DAYS = 30
NAME_COOKIE_DAYS = 400


def is_secure(request: Request) -> bool:
    return request.url.scheme in ("https", "wss") or request.headers.get("x-forwarded-proto") == "https"


def set_seat_cookie(request: Request, response: Response, table_id: str, seat: str, token: str) -> None:
    """This browser holds ``seat`` at ``table_id``: the socket's hello will be authenticated by it."""
    response.set_cookie(
        SEAT_COOKIE, f"{seat}.{token}", max_age=SEAT_COOKIE_DAYS * 86400, path=f"/ws/tables/{table_id}",
        httponly=True, samesite="strict", secure=is_secure(request),
    )


def name_cookie(name: str) -> str:
    """The cookie holding the secret of one name (names may hold any printable character)."""
    return "nines_name_" + hashlib.sha256(name.encode()).hexdigest()[:16]


async def own_name(store: Store, request: Request, response: Response, name: str,
                   new_name: Callable[[], None] | None = None) -> None:
    """Refuse a name another browser owns; a new name becomes this browser's (its secret is set).
    ``new_name`` is called before a name new to the database is stored, and may refuse it by raising
    (the server bounds the new names one address claims: each is a row kept for good)."""
    secret, fresh = browser_name_secret(request, name)
    if not await asyncio.to_thread(store.own_name, name, hash_token(secret), new_name):
        raise name_owned(name)
    if fresh:
        set_name_cookie(request, response, name, secret)


def browser_name_secret(request: Request, name: str) -> tuple[str, bool]:
    """The secret this request's browser holds for ``name``, or a new one (then ``True``: once the name is
    the browser's, :func:`set_name_cookie` gives it)."""
    secret = request.cookies.get(name_cookie(name))
    if secret is None:
        return secrets.token_urlsafe(24), True
    return secret, False


def name_owned(name: str) -> TableError:
    """The refusal of a name another browser owns."""
    return TableError(
        ErrorCode.CONFLICT,
        Reason("server.name_owned", f"the name {name!r} belongs to someone else (the first browser to use a name keeps it); "
               "choose another name, or if it is yours, take it here with a code from a device that holds it, or your "
               "passkey", name=name),
    )


def set_name_cookie(request: Request, response: Response, name: str, secret: str) -> None:
    """This browser holds ``name`` by ``secret`` (the database keeps its hash)."""
    response.set_cookie(name_cookie(name), secret, max_age=NAME_COOKIE_DAYS * 86400, path="/", httponly=True,
                        samesite="lax", secure=is_secure(request))


def name_secret_hash(request: Request, name: str) -> str | None:
    """The hash of the secret this request's browser holds for ``name`` (``None``: it holds none)."""
    secret = request.cookies.get(name_cookie(name))
    return None if secret is None else hash_token(secret)
