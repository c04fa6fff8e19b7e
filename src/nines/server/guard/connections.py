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

# the protocol uvicorn chooses itself with httptools installed (uvicorn[standard], a dependency of nines)
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .limits import Limits, client_key, count_down

__all__ = ["guarded_http_protocol", "raise_open_files_limit"]


def _plain_response(status: bytes, message: str) -> bytes:
    body = message.encode()
    return (b"HTTP/1.1 " + status + b"\r\ncontent-type: text/plain; charset=utf-8\r\n"
            b"content-length: " + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n" + body)


def guarded_http_protocol(limits: Limits) -> type[HttpToolsProtocol]:
    """uvicorn's ``http`` protocol class with ``limits.request_s`` to send each request's head and at most
    ``limits.connections_per_address`` open connections from one address (0: no bound)."""
    seconds = limits.request_s
    most = limits.connections_per_address
    too_slow = _plain_response(b"408 Request Timeout", f"the request's head was not sent within {seconds:g} s")
    too_many = _plain_response(b"429 Too Many Requests",
                               f"this address has {most} connections open to this server, the most it may")
    open_from: Counter[str] = Counter()  # this server's open HTTP connections, by the client's address

    class GuardedHttpProtocol(HttpToolsProtocol):
        _head_timer: asyncio.TimerHandle | None = None
        _counted: str | None = None  # the address this connection is counted under, while it is

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            address = client_key(str(self.client[0])) if self.client else "unknown"  # an IPv6 client by its /64
            if most and open_from[address] >= most:
                transport.write(too_many)
                transport.close()
                return
            open_from[address] += 1
            self._counted = address
            self._wait_for_head()  # a connection that sends nothing waits no longer than a slow head

        def _uncount(self) -> None:
            if self._counted is not None:
                count_down(open_from, self._counted)
                self._counted = None

        def _wait_for_head(self) -> None:
            self._stop_waiting()
            self._head_timer = self.loop.call_later(seconds, self._head_too_slow)

        def _stop_waiting(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_too_slow(self) -> None:
            self._head_timer = None
            if not self.transport.is_closing():
                self.transport.write(too_slow)
                self.transport.close()

        def on_headers_complete(self) -> None:
            self._stop_waiting()  # the head is in: from here the body's deadline is BodyLimit's
            super().on_headers_complete()

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

    return GuardedHttpProtocol


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
