"""What one client's HTTP connections may hold: how long to send a request, and how many at once.

uvicorn gives a connection no deadline before its request's head is complete, and none for the body,
and takes as many connections from one address as it is offered.  A client that opened a connection
and sent nothing, or half a head, or a head announcing 200 bytes of body and then 7 of them, held the
connection (and, for the body, a task of the application's) for as long as it liked; a server asked to
stop waited for the half-sent body for ever (SIGTERM did not stop ``nines serve``); and 1,100 idle
connections from one address used up a server's 1,024 file descriptors, after which every other client's
request failed.

:func:`guarded_http_protocol` is uvicorn's HTTP protocol with both bounds (``Limits``):

* ``request_s``: a timer runs whenever the connection waits for a request's head (from the connection's
  start, and from each answer's end while it is kept alive).  A head not complete in time is answered
  ``408 Request Timeout`` and the connection closed; a trickle of bytes does not restart the timer.  The
  body's deadline is :class:`~nines.server.guard.limits.BodyLimit`'s (the whole request in as many seconds).
* ``head_bytes``: a request's head (its request line and headers) is counted as its bytes arrive, before
  they reach the parser; one longer than the bound is answered ``414 URI Too Long`` (its request line not
  ended) or ``431 Request Header Fields Too Large`` and the connection closed.  httptools joins the pieces
  of a header (and uvicorn those of a URL) with ``bytes +=``: one connection trickling an endless header
  cost the event loop time growing with the square of its length (a person's move at another address
  waited 6.4 s for its acknowledgement, ``/health`` 11 to 14 s), and a 50 MB header was answered 200.
* a request body in chunks (``Transfer-Encoding``) is answered ``411 Length Required`` and the connection
  closed: its trailers are headers after the head's bound, joined with ``bytes +=`` as well.
* ``connections_per_address``: a connection over the count of its address's open ones is answered
  ``429 Too Many Requests`` and closed before anything is read.  A connection upgraded to a table socket
  leaves the count (table sockets have their own, ``sockets_per_address``).  The address is the
  connection's own: behind a reverse proxy every connection is the proxy's, so turn this off there (0)
  and let the proxy bound its clients.

``nines serve --shutdown-timeout`` closes whatever is still open when the server stops, and ``nines
serve`` raises its soft limit on open files to the hard one.
"""

from __future__ import annotations

import asyncio
import resource
from collections import Counter
from typing import ClassVar

import httptools

# the protocols uvicorn chooses itself with httptools and websockets installed (uvicorn[standard], a dependency of nines)
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from ..logs import log
from .limits import Limits, client_key, count_down

__all__ = ["QuietSocketProtocol", "guarded_http_protocol", "raise_open_files_limit"]


def _plain_response(status: bytes, message: str) -> bytes:
    body = message.encode()
    return (b"HTTP/1.1 " + status + b"\r\ncontent-type: text/plain; charset=utf-8\r\n"
            b"content-length: " + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n" + body)


class ChunksRefused(Exception):
    """Raised from the parser's callback to stop it: a request body in chunks (411, closed)."""


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol with the bounds of :func:`guarded_http_protocol` (set on the subclass it makes)."""

    seconds: float = Limits.request_s
    most: int = Limits.connections_per_address
    head_most: int = Limits.head_bytes
    url_too_long = head_too_long = no_length = too_slow = too_many = b""
    open_from: ClassVar[Counter[str]] = Counter()  # this server's open HTTP connections, by the client's address

    _head_timer: asyncio.TimerHandle | None = None
    _counted: str | None = None  # the address this connection is counted under, while it is
    _head_done = False  # the head of the request being read is complete (its body, if any, comes next)
    _head_seen = 0  # bytes read of the head being read (counted from the end of the last request)
    _line_ended = False  # the request line of that head has ended (past it, a long head is its headers)
    _refused = False  # answered 414 or 431: nothing more is read

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = client_key(str(self.client[0])) if self.client else "unknown"  # an IPv6 client by its /64
        if self.most and self.open_from[address] >= self.most:
            transport.write(self.too_many)
            transport.close()
            return
        self.open_from[address] += 1
        self._counted = address
        self._wait_for_head()  # a connection that sends nothing waits no longer than a slow head

    def _uncount(self) -> None:
        if self._counted is not None:
            count_down(self.open_from, self._counted)
            self._counted = None

    def _wait_for_head(self) -> None:
        self._stop_waiting()
        self._head_timer = self.loop.call_later(self.seconds, self._head_too_slow)

    def _stop_waiting(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.write(self.too_slow)
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        if self._head_done:  # a body: BodyLimit's to bound
            self._feed(data)
            return
        room = self.head_most - self._head_seen
        fits = data if len(data) <= room else data[:room]
        self._head_seen += len(fits)
        if not self._line_ended and b"\n" in fits:
            self._line_ended = True
        self._feed(fits)  # what the head may still hold: the parser never sees more of it
        if len(fits) == len(data) or self.transport.is_closing() or self.transport.get_protocol() is not self:
            return  # all of it read, or answered (400) and closing, or upgraded to a socket
        if self._head_ended():  # within its bound: the rest is its body (or the next request)
            self.data_received(data[len(fits):])
            return
        self._refuse_head()

    def _feed(self, data: bytes) -> None:
        """uvicorn's ``data_received``, but a request this protocol refused is not answered again (400) nor
        logged as an invalid one (its parser was stopped on purpose)."""
        self._unset_keepalive_if_required()
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()
        except httptools.HttpParserError:
            if self._refused:
                return
            message = "Invalid HTTP request received."
            self.logger.warning(message)
            self.send_400_response(message)

    def _head_ended(self) -> bool:
        return self._head_done  # (set by the parser's callback, from within data_received)

    def _refuse_head(self) -> None:
        self._refused = True
        self._stop_waiting()
        if self.cycle is not None and not self.cycle.response_complete:
            # a request piped behind one still being answered: that answer ends the connection
            self.cycle.keep_alive = False
            self.transport.pause_reading()
            return
        self.transport.write(self.head_too_long if self._line_ended else self.url_too_long)
        self.transport.close()

    def on_headers_complete(self) -> None:
        self._stop_waiting()  # the head is in: from here the body's deadline is BodyLimit's
        self._head_done = True
        if any(name == b"transfer-encoding" for name, _ in self.headers):
            # a body in chunks ends with trailers, headers that httptools joins with bytes += as it does a
            # head's, after the head's bound: an endless trailer held the event loop as an endless header
            # did.  No client of this server sends chunks (a browser's fetch and every HTTP library send a
            # small JSON body with Content-Length), so such a request is refused before it starts.
            self._refused = True
            if self.cycle is None or self.cycle.response_complete:
                self.transport.write(self.no_length)
            self.transport.close()
            raise ChunksRefused  # stops the parser (caught in _feed)
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        # what comes next is the next request's head (bytes of it in the read that ended this one are
        # parsed uncounted: one read, at most 256 kB, is parsed at a cost in proportion to its size)
        self._head_done = self._line_ended = False
        self._head_seen = 0

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # uvicorn armed its keep-alive timer: the connection waits for the next request's head (with a
        # request piped behind this one, that request started instead and nothing waits)
        if self.timeout_keep_alive_task is not None:
            self._wait_for_head()

    def handle_websocket_upgrade(self) -> None:
        # a table socket from here on: counted by the application's SocketGate, per address, not here
        # (its end is the socket protocol's, which never tells this one)
        self._stop_waiting()
        self._uncount()
        super().handle_websocket_upgrade()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        self._uncount()
        super().connection_lost(exc)


def guarded_http_protocol(limits: Limits) -> type[HttpToolsProtocol]:
    """uvicorn's ``http`` protocol class with ``limits.request_s`` to send each request's head, ``limits.head_bytes``
    for the head itself, no body in chunks, and at most ``limits.connections_per_address`` open connections from
    one address (0: no bound)."""

    class Guarded(GuardedHttpProtocol):
        head_most = limits.head_bytes
        seconds = limits.request_s
        most = limits.connections_per_address
        url_too_long = _plain_response(b"414 URI Too Long",
                                       f"the request's line is longer than the {head_most} bytes this server reads")
        head_too_long = _plain_response(b"431 Request Header Fields Too Large",
                                        f"the request's head is longer than the {head_most} bytes this server reads")
        no_length = _plain_response(b"411 Length Required", "send a request's body with Content-Length (not in chunks)")
        too_slow = _plain_response(b"408 Request Timeout", f"the request's head was not sent within {limits.request_s:g} s")
        too_many = _plain_response(b"429 Too Many Requests", f"this address has {limits.connections_per_address} "
                                   "connections open to this server, the most it may")
        open_from: ClassVar[Counter[str]] = Counter()  # this server's open HTTP connections, by the client's address

    return Guarded


class QuietSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's table-socket protocol, but a text frame of invalid UTF-8 is logged in one line at info level:
    uvicorn logs it with ``logger.exception`` (an error and its traceback each time, so any client could fill
    the logs).  The socket is closed with 1007 as uvicorn closes it."""

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text" and not self.close_sent:
            data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
            try:
                text = data.decode()
            except UnicodeDecodeError:
                self.frames = []
                client = self.client[0] if self.client else "unknown"
                log.info("socket.invalid_utf8", client=client_key(str(client)))
                self.conn.send_close(1007, "invalid UTF-8")
                self.handle_parser_exception()
                return
            self.frames = []
            self.queue.put_nowait({"type": "websocket.receive", "text": text})
            if not self.read_paused:
                self.read_paused = True
                self.transport.pause_reading()
            return
        super().send_receive_event_to_app()


def raise_open_files_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit (many systems start services at
    1,024, a few hundred connections' worth); the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError):  # a container may refuse: the limit stays as it was
            return soft
        return wanted
    return soft
