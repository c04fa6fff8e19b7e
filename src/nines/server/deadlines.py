"""How long a client may take to send a request: its head (the request line and headers) and its body.

uvicorn gives a connection no deadline before its request's head is complete, and none for the body:
a client that opened a connection and sent nothing, or half a head, or a head announcing 200 bytes of
body and then 7 of them, held the connection (and, for the body, a task of the application's) for as
long as it liked.  Such connections cost a client nothing to open, so a few hundred of them exhaust the
server's file descriptors; and a server asked to stop waited for the half-sent body for ever (SIGTERM
did not stop ``nines serve``).

* :func:`head_deadline_protocol`: uvicorn's HTTP protocol, with a timer that runs whenever the
  connection waits for a request's head (from the connection's start, and from each response's end
  while the connection is kept alive).  A head not complete in time is answered ``408 Request
  Timeout`` and the connection closed.  A trickle of bytes does not restart the timer.
* The body: :class:`~nines.server.limits.BodyLimit` gives the whole request, head to body's end, the
  same number of seconds (``Limits.request_s``).
* ``nines serve --shutdown-timeout``: whatever is still open when the server stops is closed after it.
"""

from __future__ import annotations

import asyncio

__all__ = ["head_deadline_protocol"]

# the protocol uvicorn chooses itself with httptools installed (uvicorn[standard], a dependency of nines)
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


def _timeout_response(seconds: float) -> bytes:
    message = f"the request's head was not sent within {seconds:g} s".encode()
    return (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
            b"content-length: " + str(len(message)).encode() + b"\r\nconnection: close\r\n\r\n" + message)


def head_deadline_protocol(seconds: float) -> type[HttpToolsProtocol]:
    """uvicorn's ``http`` protocol class whose connections have ``seconds`` to send each request's head."""

    class HeadDeadlineProtocol(HttpToolsProtocol):
        _head_timer: asyncio.TimerHandle | None = None

        def _wait_for_head(self) -> None:
            self._stop_waiting()
            self._head_timer = self.loop.call_later(seconds, self._head_too_slow)

        def _stop_waiting(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_too_slow(self) -> None:
            self._head_timer = None
            if self.transport.is_closing():
                return
            self.transport.write(_timeout_response(seconds))
            self.transport.close()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._wait_for_head()  # a connection that sends nothing waits no longer than a slow head

        def on_headers_complete(self) -> None:
            self._stop_waiting()  # the head is in: from here the body's deadline is the application's
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            # uvicorn armed its keep-alive timer: the connection waits for the next request's head (with a
            # request piped behind this one, that request started instead and nothing waits)
            if self.timeout_keep_alive_task is not None:
                self._wait_for_head()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_waiting()
            super().connection_lost(exc)

    return HeadDeadlineProtocol
