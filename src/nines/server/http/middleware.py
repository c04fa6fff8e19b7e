"""What every HTTP request goes through: an address's API requests bounded (rate, and at once), and a log line."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from fastapi import Request, Response

from ..guard.limits import count_down
from ..logs import log
from ..tables.table import TableError
from ..wire.messages import ErrorCode
from .deps import Guards, client_address
from .errors import error_response


async def log_requests(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
    started = time.perf_counter()
    if not request.url.path.startswith("/api/"):
        response = await call_next(request)
    else:
        # one address's API requests, whatever they ask: each costs the server 0.6 to 4 ms of CPU, and one client
        # sent 250 to 700 a second (benchmarks/api_flood.py); refused before anything is looked up.  And only so
        # many at once: their database work waits in a pool of a few threads shared with everyone
        guards: Guards = request.app.state.guards
        rates, under_way = guards.rates, guards.under_way
        address = client_address(request.client)
        refusal = rates.request_at_once(address, under_way[address]) or rates.request(address)
        if refusal is not None:
            return error_response(TableError(ErrorCode.LIMIT, refusal))
        under_way[address] += 1
        try:
            response = await call_next(request)
        finally:
            count_down(under_way, address)
    if request.url.path.startswith("/static/"):
        response.headers["Cache-Control"] = "no-cache"
    elif request.url.path != "/health":
        log.info("http", method=request.method, path=request.url.path, status=response.status_code,
                 ms=round((time.perf_counter() - started) * 1000, 1))
    return response
