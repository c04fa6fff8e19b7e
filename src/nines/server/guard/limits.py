"""Bounds on what one client may ask of the server: sizes, counts, rates, origins, names.

One anonymous client could once slow or stop every table: 50 MB request bodies and 15 MB
socket frames were parsed on the event loop, a thousand spectator sockets exhausted file
descriptors, sockets that never read held hundreds of megabytes, and nothing limited how
often anyone could create tables, send messages or ask for hints.  Everything here is set
by :class:`Limits` (part of :class:`~nines.server.config.ServerConfig`; tests lower it):

* :class:`BodyLimit`: an ASGI middleware refusing request bodies over ``body_bytes``
  (413), whether announced by ``Content-Length`` or streamed, and bodies not sent whole within
  ``request_s`` (408; the request's head has the same deadline, and an address's open connections a bound:
  :mod:`.connections`);
* :class:`SocketGate`: sockets per client address, spectators per table, and the ``Origin``
  allow-list a browser's socket must come from;
* :class:`Rates`: API requests and tables created per minute, new names claimed and codes or passkeys tried per
  hour per address, and
  messages per second per socket, counted with the ``limits`` library (moving windows in memory);
* :class:`HintDesk`: one hint at a time per seat, and the answer kept per position;
* :func:`check_name`: a person's name has no control character, no bidirectional
  override and at least one visible character;
* :func:`valid_table_id`: a table id is looked up only if it could be one.

The rate and socket counts are per process: two processes behind Redis each apply them.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import ipaddress
import json
import re
import time
import unicodedata
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import icu
from limits import RateLimitItemPerHour, RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from ...games.contract import Reason

__all__ = [
    "BodyLimit",
    "HintDesk",
    "Limits",
    "Rates",
    "SocketGate",
    "LiveTables",
    "check_name",
    "client_key",
    "count_down",
    "name_key",
    "name_looks",
    "valid_table_id",
]


@dataclass(frozen=True)
class Limits:
    """What one client may ask of one server process (``nines serve`` sets some from its options)."""

    body_bytes: int = 64 * 1024
    """The largest HTTP request body; the largest real one (a new table) is under 2 kB."""

    request_s: float = 10.0
    """Seconds a client has to send a request's head, and again its whole request, body included (a real
    one takes milliseconds): a connection that sends nothing or half a request is closed after that."""

    head_bytes: int = 16 * 1024
    """The largest request head (request line and headers, counted as they arrive); a browser's is under 2 kB.
    A longer one is answered 414 (its request line) or 431 (its headers) and the connection closed: httptools
    joins a head's pieces with ``bytes +=``, a cost that grows with the square of the head's size."""

    connections_per_address: int = 100
    """Open HTTP connections from one client address (0: no bound; a browser opens about six to a server,
    and table sockets are counted apart).  Behind a reverse proxy every connection is the proxy's: 0 there."""

    frame_bytes: int = 16 * 1024
    """The largest socket message a client may send; a real one is under 200 bytes."""

    sockets_per_address: int = 40
    """Open table sockets from one client address (a household behind one router plays several tables)."""

    spectators_per_table: int = 60
    """Open spectators' sockets at one table, counted after the hello: a seat holder (authenticated by
    token or cookie) is always let in to their own table, within the per-address limit."""

    tables_per_minute: int = 12
    """Tables one client address may create in a minute."""

    messages_per_second: int = 20
    """Messages one socket may send in a second (a person sends one a move)."""

    messages_per_address: int = 100
    """Messages one client address's table sockets may send in a second, all together (0: no bound).  Each
    socket has its own rate too, but an address may open 40: 36 seated sockets asking for device links or
    setting the pace within their own rate wrote 680 rows a second and kept a core 85 to 92% busy."""

    lobby_per_minute: int = 60
    """Lobby listings one client address may ask for in a minute (the home page asks every 5 s; a listing
    costs the server some milliseconds of CPU)."""

    requests_per_minute: int = 1200
    """API requests (``/api/...``) one client address may make in a minute (0: no bound).  Each costs the
    server 0.6 to 4 ms of CPU (a table's view under its lock, statistics read from the database); a page
    makes a few when it opens and the home page one every 5 s.  Behind a reverse proxy every request is the
    proxy's: 0 there (or run uvicorn with ``--proxy-headers``)."""

    requests_at_once: int = 16
    """API requests one client address may have under way at once (0: no bound; a browser sends at most six at
    once to a server).  Their database work shares a pool of a few threads with everyone's: 64 at once from one
    address made ``/health`` wait 261 ms.  Behind a reverse proxy, 0 with ``requests_per_minute``."""

    names_per_hour: int = 60
    """Names one client address may claim for the first time in an hour (each is a row in the database for
    good; a household names its few players once, and using a name it owns again is not counted)."""

    name_tries_per_hour: int = 30
    """One-time codes one client address may try, and passkey sign-ins it may start, in an hour (a code has
    8 characters of 31: guessing one among the few waiting at any time takes billions of tries)."""

    name_codes_waiting: int = 3
    """One-time codes a name may have waiting (neither used nor expired) at once."""

    name_code_s: int = 600
    """Seconds a one-time code (and its link) may be used for."""

    passkeys_per_name: int = 10
    """Passkeys one name may have."""

    passkey_challenge_s: int = 300
    """Seconds a browser has to answer a passkey's challenge (registration or sign-in); it is used once."""

    reads_per_minute: int = 120
    """Records, replays and reviews of finished matches one client address may ask for in a minute
    (each may replay a whole match; the replay page asks for one deal at a time)."""

    queued_bytes: int = 1024 * 1024
    """Bytes waiting to be sent to one socket before it is dropped as a reader that stopped reading."""

    stall_s: float = 30.0
    """Seconds a socket's messages may wait for its reader to take what was written before it (its
    connection's buffers full) before it is dropped as a reader that stopped reading."""

    again_hold_s: float = 300.0
    """Seconds the seats of a match's people stay theirs at the next table (play again) while they have not
    answered: until then only the person who played it (the same name, owned by the same browser) may take it
    with the new table's invitation (a stranger holding it once took the seat of someone still deciding)."""

    claim_s: float = 900.0
    """Seconds a one-time seat link (a new table's, or "move to another device") works: one never opened
    no longer seats anyone after that (a link shown on a screen or in a chat once lasted for ever)."""

    live_tables_per_address: int = 20
    """Unfinished tables one client address may have created and still running (in this process): see
    :attr:`live_s` for those that no longer count."""

    live_s: float = 3600.0
    """A table counts against its address's :attr:`live_tables_per_address` while something happened at it (a
    move, a visit, a socket) in the last this many seconds, and, while it still waits for a friend, for as long
    since it was made; a table still waiting after that, with nobody there, is closed (kept in the database,
    opened again by its invitation).  Tables waiting or paused once counted until ``--idle-close`` (a day): one
    client behind a shared address locked every other out of making tables."""

    computer_threads: int = 2
    """Worker processes (``ServerConfig.thinking_processes``) or threads for computer players' decisions and
    hints, apart from the default pool the database calls use: many hints at once wait their turn instead of
    starving every request."""

    hint_cache: int = 2048
    """Hints kept (per table, seat and position), so asking again costs nothing."""

    origins: tuple[str, ...] = ()
    """Origins (``https://cards.example``) whose pages may open table sockets besides the server's own
    address; ``*`` allows every origin.  A client that sends no ``Origin`` (not a browser) is let in."""


# -- request bodies ------------------------------------------------------------------

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyLimit:
    """Refuse an HTTP request whose body is over ``max_bytes`` before the application parses it, or not
    all sent within ``seconds`` of the request's start."""

    def __init__(self, app: ASGIApp, max_bytes: int, seconds: float = Limits.request_s) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None:
            if not declared.isdigit():
                await self._refuse(send, 400, "Content-Length is a number of bytes")
                return
            if int(declared) > self.max_bytes:
                await self._refuse(send, 413, self._too_large())
                return
        received = 0
        started = refused = whole = False
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.seconds

        async def counted() -> Message:
            nonlocal received, refused, whole
            if refused:
                return {"type": "http.disconnect"}
            if whole:  # after the body, the application only listens for the client going away
                return await receive()
            try:
                # a body sent slowly or never (a head announcing 200 bytes, then 7) held the request, and a
                # server asked to stop, for ever
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                refused = True
                if not started:
                    await self._refuse(send, 408, f"the request's body was not sent within {self.seconds:g} s")
                return {"type": "http.disconnect"}
            if message["type"] == "http.request":
                whole = not message.get("more_body", False)
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    # answered here, at once; the application sees a client that went away
                    refused = True
                    if not started:
                        await self._refuse(send, 413, self._too_large())
                    return {"type": "http.disconnect"}
            return message

        async def tracked(message: Message) -> None:
            nonlocal started
            if refused:
                return  # the refusal was the answer
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        await self.app(scope, counted, tracked)

    def _too_large(self) -> str:
        return f"the request body is larger than the {self.max_bytes} bytes this server accepts"

    @staticmethod
    async def _refuse(send: Send, status: int, message: str) -> None:
        code = "malformed" if status == 400 else "limit"
        body = json.dumps({"type": "error", "code": code, "message": message, "key": f"server.{code}", "params": {}}).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


# -- sockets -------------------------------------------------------------------------


class SocketGate:
    """Counts open table sockets per client address and per table, and checks where a socket comes from."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._per_address: dict[str, int] = {}
        self._per_table: dict[str, int] = {}
        self._messages: dict[str, MessageWindow] = {}  # each address's sockets' messages, together

    def origin_refusal(self, origin: str | None, host: str | None) -> Reason | None:
        """Why a socket from this page may not open (``None``: it may).

        A browser always sends ``Origin``: a page of this server's own address, or one
        allowed by :attr:`Limits.origins`, may open sockets; another site's page may not
        (it would act with the visitor's seat).  Clients that are not browsers send none.
        """
        if origin is None or "*" in self.limits.origins:
            return None
        if origin in self.limits.origins:
            return None
        if host is not None and urlsplit(origin).netloc.lower() == host.lower():
            return None
        return Reason("server.limit_origin", f"sockets are not opened for pages of {origin[:80]}; open the table from this "
                      "server's own address", origin=origin[:80])

    def admit(self, address: str) -> Reason | None:
        """Count a socket in from this address, or say why not (``None``: admitted; call
        :meth:`release` when it closes).  Which table it may watch is decided after its hello."""
        if self._per_address.get(address, 0) >= self.limits.sockets_per_address:
            return Reason("server.limit_sockets", f"this address has {self.limits.sockets_per_address} table sockets open "
                          "already; close some first", count=self.limits.sockets_per_address)
        self._per_address[address] = self._per_address.get(address, 0) + 1
        return None

    def messages_of(self, address: str) -> MessageWindow | None:
        """The window all of an admitted address's sockets count their messages in (``None``: no bound)."""
        if not self.limits.messages_per_address:
            return None
        return self._messages.setdefault(address, MessageWindow(self.limits.messages_per_address, "server.limit_address_messages",
                                                                "this address's table sockets sent more than {most} "
                                                                "messages in the last second, together; slow down"))

    def release(self, address: str) -> None:
        count_down(self._per_address, address)
        if address not in self._per_address:
            self._messages.pop(address, None)

    def watch(self, table_id: str) -> str | None:
        """Count a spectator in at this table, or say why not (call :meth:`unwatch` when it leaves).
        Seat holders are not counted here: idle spectators never lock a player out of their table."""
        if self._per_table.get(table_id, 0) >= self.limits.spectators_per_table:
            return Reason("server.limit_spectators", f"this table has {self.limits.spectators_per_table} spectators already; "
                          "try again later", count=self.limits.spectators_per_table)
        self._per_table[table_id] = self._per_table.get(table_id, 0) + 1
        return None

    def unwatch(self, table_id: str) -> None:
        count_down(self._per_table, table_id)


def count_down(counts: MutableMapping[str, int], key: str) -> None:
    """One fewer of ``key`` in a per-address (or per-table) count; a key counted down to none is let go, so
    the count holds only what is open now."""
    left = counts.get(key, 0) - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)


# -- rates ---------------------------------------------------------------------------


class Rates:
    """Moving-window rate limits (the ``limits`` library, in memory)."""

    def __init__(self, limits: Limits) -> None:
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._tables = RateLimitItemPerMinute(limits.tables_per_minute)
        self._reads = RateLimitItemPerMinute(limits.reads_per_minute)
        self._lobby = RateLimitItemPerMinute(limits.lobby_per_minute)
        self._names = RateLimitItemPerHour(limits.names_per_hour)
        self._name_tries = RateLimitItemPerHour(limits.name_tries_per_hour)
        self._requests = RateLimitItemPerMinute(limits.requests_per_minute) if limits.requests_per_minute else None
        self.limits = limits

    def create_table(self, address: str) -> str | None:
        """Count a new table for this address, or say why not."""
        if self._limiter.hit(self._tables, "tables", address):
            return None
        return Reason("server.limit_tables", f"this address has created {self.limits.tables_per_minute} tables in the last "
                      "minute; wait a moment", count=self.limits.tables_per_minute)

    def read(self, address: str) -> str | None:
        """Count a record, replay or review asked for by this address, or say why not."""
        if self._limiter.hit(self._reads, "reads", address):
            return None
        return Reason("server.limit_reads", f"this address has asked for {self.limits.reads_per_minute} records, replays and "
                      "reviews in the last minute; wait a moment", count=self.limits.reads_per_minute)

    def lobby(self, address: str) -> str | None:
        """Count a lobby listing asked for by this address, or say why not."""
        if self._limiter.hit(self._lobby, "lobby", address):
            return None
        return Reason("server.limit_lobby", f"this address has asked for the list of tables {self.limits.lobby_per_minute} "
                      "times in the last minute; wait a moment", count=self.limits.lobby_per_minute)

    def request(self, address: str) -> str | None:
        """Count an API request of this address, or say why not."""
        if self._requests is None or self._limiter.hit(self._requests, "requests", address):
            return None
        return Reason("server.limit_requests", f"this address has made {self.limits.requests_per_minute} requests in the last "
                      "minute; wait a moment", count=self.limits.requests_per_minute)

    def request_at_once(self, address: str, under_way: int) -> str | None:
        """Why this address may not start another API request while ``under_way`` of its own are (``None``: it may)."""
        most = self.limits.requests_at_once
        if not most or under_way < most:
            return None
        return Reason("server.limit_at_once", f"this address has {most} requests under way; wait for their answers",
                      count=most)

    def new_name(self, address: str) -> str | None:
        """Count a name this address claims for the first time, or say why not (called from the database's
        thread, just before the name's row would be added: the library's storage takes its own lock)."""
        if self._limiter.hit(self._names, "names", address):
            return None
        return Reason("server.limit_names", f"this address has taken {self.limits.names_per_hour} new names in the last "
                      "hour; play under one of them, or wait", count=self.limits.names_per_hour)

    def name_try(self, address: str) -> str | None:
        """Count a one-time code tried, or a passkey sign-in started, by this address, or say why not."""
        if self._limiter.hit(self._name_tries, "name_tries", address):
            return None
        return Reason("server.limit_name_tries", f"this address has tried {self.limits.name_tries_per_hour} codes or passkeys "
                      "in the last hour; wait, or take the name from a device that holds it", count=self.limits.name_tries_per_hour)

    def messages(self) -> MessageWindow:
        """A new socket's own count of its messages (see :class:`MessageWindow`)."""
        return MessageWindow(self.limits.messages_per_second)


class MessageWindow:
    """One socket's messages: at most ``most`` in any one second (a moving window).

    Kept by the socket itself, as the times of its last ``most`` messages: no shared storage to
    look up, no expiry to schedule, and gone with the socket.  (The ``limits`` library's memory
    storage, used for the per-address limits above, starts a timer thread for its expiries; per
    message, on every socket, that cost more than the move itself.)
    """

    __slots__ = ("_key", "_most", "_said", "_times", "refused")

    def __init__(self, most: int, key: str = "server.limit_messages", said: str = "more than {most} messages a second; slow down") -> None:
        self._most = most
        self._key = key
        self._said = said
        self._times: deque[float] = deque(maxlen=most)
        self.refused = 0
        """Messages refused since the last one let through (see :attr:`flooding`)."""

    def refusal(self, now: float | None = None) -> Reason | None:
        """Count a message, or say why it is refused (a refused message is not counted)."""
        now = time.monotonic() if now is None else now
        if len(self._times) == self._most and now - self._times[0] < 1.0:
            self.refused += 1
            return Reason(self._key, self._said.format(most=self._most), count=self._most)
        self._times.append(now)
        self.refused = 0
        return None

    @property
    def flooding(self) -> bool:
        """The socket went on sending after :data:`FLOOD_REFUSALS` times its rate of refusals: not a person, nor a
        page that slows down when told (each refusal was answered; a flood of tiny frames once held the event
        loop for tens of seconds, answering each one)."""
        return self.refused > FLOOD_REFUSALS * self._most


FLOOD_REFUSALS = 10
"""A socket refused this many times its messages a second in a row, with none let through, is dropped."""


class LiveTables:
    """The unfinished tables each client address created (in this process), to bound them."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._by_address: dict[str, set[str]] = {}

    def refusal(self, address: str, is_live: Callable[[str], bool]) -> str | None:
        """Why this address may not create another table now (``None``: it may)."""
        live = {table_id for table_id in self._by_address.get(address, ()) if is_live(table_id)}
        if live:
            self._by_address[address] = live
        else:
            self._by_address.pop(address, None)
        if len(live) >= self.limits.live_tables_per_address:
            return Reason("server.limit_live", f"this address has {self.limits.live_tables_per_address} tables in play "
                          "already; finish or leave some before creating another", count=self.limits.live_tables_per_address)
        return None

    def add(self, address: str, table_id: str) -> None:
        self._by_address.setdefault(address, set()).add(table_id)


# -- hints ---------------------------------------------------------------------------


class HintDesk:
    """One hint worked out at a time per seat; each answer kept for its position."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._busy: set[tuple[str, str]] = set()
        self._kept: OrderedDict[tuple[str, str, int], Any] = OrderedDict()

    def kept(self, table_id: str, seat: str, seq: int) -> Any:
        key = (table_id, seat, seq)
        hint = self._kept.get(key)
        if hint is not None:
            self._kept.move_to_end(key)
        return hint

    def start(self, table_id: str, seat: str) -> bool:
        """Take the seat's turn at the desk (``False``: a hint for it is being worked out)."""
        if (table_id, seat) in self._busy:
            return False
        self._busy.add((table_id, seat))
        return True

    def finish(self, table_id: str, seat: str, seq: int, hint: Any | None) -> None:
        self._busy.discard((table_id, seat))
        if hint is not None:
            self._kept[(table_id, seat, seq)] = hint
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)


# -- names and ids -------------------------------------------------------------------

NAME_MAX = 40
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_INVISIBLE = frozenset({"Cf", "Mn", "Me", "Zs", "Zl", "Zp"})
# letters and signs that draw nothing: the Hangul fillers and the blank Braille pattern
_BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def check_name(name: str) -> str:
    """A person's name as shown to others, or :class:`ValueError` saying what is wrong with it.

    Refused: control characters (C0 and C1), the bidirectional controls that reorder what
    follows (``U+202E`` could make a name read as another), unassigned and private-use
    characters, ``<`` and ``>``, invisible format characters (zero-width spaces and joiners,
    soft hyphens; a joiner between emoji is kept) and every other default-ignorable character (variation
    selectors but an emoji's, the combining grapheme joiner, Hangul fillers), and names with nothing visible (only spaces,
    combining characters, Hangul fillers or the blank Braille pattern).
    """
    if not 1 <= len(name) <= NAME_MAX:
        raise ValueError(Reason("name.length", f"a name has 1 to {NAME_MAX} characters", most=NAME_MAX))
    for at, char in enumerate(name):
        category = unicodedata.category(char)
        if category == "Cc":
            raise ValueError(Reason("name.control", f"a name cannot hold control characters (U+{ord(char):04X})", code=f"U+{ord(char):04X}"))
        if char in _BIDI_CONTROLS:
            raise ValueError(Reason("name.reorder", f"a name cannot hold characters that reorder the text (U+{ord(char):04X})",
                                    code=f"U+{ord(char):04X}"))
        # zero-width spaces and joiners, soft hyphens, byte-order marks: "Al\u200bice" would look like "Alice".
        # The one kept: a zero-width joiner between two emoji, which draws one (👩‍👩‍👧 is a family).
        if category == "Cf" and not (char == "\u200d" and _joins_emoji(name, at)):
            raise ValueError(Reason("name.invisible", f"a name cannot hold invisible format characters (U+{ord(char):04X})",
                                    code=f"U+{ord(char):04X}"))
        # the rest of what draws nothing (Unicode's default-ignorables): the combining grapheme joiner, variation
        # selectors, Hangul fillers, Mongolian and Khmer marks: "Car\u034fol", "Carol\ufe0f" and "Carol\u3164" looked
        # like "Carol".  The one kept: a presentation selector after an emoji (❤️, 1️⃣), which draws it.
        if (_ignorable(char) and not (char == "\u200d" and _joins_emoji(name, at))
                and not (char in "\ufe0e\ufe0f" and at > 0 and _emoji(name[at - 1]))):
            raise ValueError(Reason("name.invisible", f"a name cannot hold invisible characters (U+{ord(char):04X})",
                                    code=f"U+{ord(char):04X}"))
        if category in ("Cn", "Co", "Cs"):
            raise ValueError(Reason("name.unassigned", f"a name cannot hold unassigned or private characters (U+{ord(char):04X})",
                                    code=f"U+{ord(char):04X}"))
        if char in "<>":
            raise ValueError(Reason("name.angle", "a name cannot hold < or >"))
    if all(unicodedata.category(char) in _INVISIBLE or char in _BLANK_LOOKING for char in name):
        raise ValueError(Reason("name.blank", "a name needs at least one visible letter, digit or sign"))
    return name


def _joins_emoji(name: str, at: int) -> bool:
    """Whether the zero-width joiner at ``at`` stands between two emoji (skin tones and the
    emoji presentation selector may follow the first)."""
    before = name[:at].rstrip("\ufe0f\U0001f3fb\U0001f3fc\U0001f3fd\U0001f3fe\U0001f3ff")
    after = name[at + 1 : at + 2]
    return bool(before) and bool(after) and unicodedata.category(before[-1]) == "So" and unicodedata.category(after) == "So"


def _ignorable(char: str) -> bool:
    return bool(icu.Char.hasBinaryProperty(char, icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT))


def _emoji(char: str) -> bool:
    return bool(icu.Char.hasBinaryProperty(char, icu.UProperty.EMOJI))


_SPOOF = icu.SpoofChecker()
"""ICU's spoof checker: :func:`name_looks` asks it for skeletons only (a const call, safe from any thread)."""


def name_looks(name: str) -> frozenset[str]:
    """What a name looks like: the keys (hashed) of its confusable skeletons (Unicode TS #39, from Unicode's
    ``confusables.txt``, by ICU), of the name as written and case-folded.  Two names look alike when they share
    one: "Carol" and "\u0421arol" (a Cyrillic Es), "C\u03b1rol" (a Greek alpha), "c\u0430rol", "Car\u034fol"; "Ian" and "lan"
    (a capital I and a small L) too, but not "ian" and "lan", which are told apart.  The skeleton drops what
    draws nothing (default-ignorables) and maps each character to its prototype; it is a key, never shown."""
    # not NFKC first: it changes how some characters look (U+03F9, a Greek C, becomes a capital sigma)
    written = _SPOOF.getSkeleton(0, name)
    # the skeleton folded again: a zero is a capital O's look-alike, and "Car0l" then reads as "carol"
    shapes = {written, _SPOOF.getSkeleton(0, name.casefold()), _SPOOF.getSkeleton(0, written.casefold())}
    # spaces draw nothing at the ends and look alike in a run ("Carol " and "Carol\u3000" look like "Carol")
    return frozenset(hashlib.sha256(" ".join(unicodedata.normalize("NFC", shape).split()).encode()).hexdigest()
                     for shape in shapes)


def name_key(name: str) -> str:
    """What a name is owned by: its NFKC case-folded form (hashed to a fixed length), so "Alice",
    "alice" and fullwidth "Alice" (U+FF21...) are one name with one owner.  Look-alikes that normalization does not
    join (a Cyrillic A in "Alice", Unicode's confusables) are kept apart by :func:`name_looks`."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return hashlib.sha256(folded.encode()).hexdigest()


@functools.lru_cache(maxsize=4096)
def client_key(host: str) -> str:
    """What the per-address bounds count a client under: its IPv4 address, or for IPv6 the /64 network it
    is in.  An IPv6 home or phone is given a whole /64 (2^64 addresses) and may send from any of them: counted
    per address, every bound here was as many times wider as addresses it cared to use.  An IPv4 address
    written as IPv6 (``::ffff:192.0.2.1``) is that IPv4 address."""
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])  # a scope (fe80::1%eth0) names the link, not the host
    except ValueError:
        return host  # not an IP address (a test client's name, a Unix socket)
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""What a table id can be: the server makes 11 letters and digits; the column holds 32."""


def valid_table_id(table_id: str) -> bool:
    """Whether ``table_id`` could name a table (anything else is not looked up at all)."""
    return TABLE_ID.fullmatch(table_id) is not None
