"""Refusals as HTTP answers: each error code's status, and the app's handlers for refused and malformed requests."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from ...games.contract import Reason
from ..logs import log
from ..store.database import StoreUnavailable
from ..tables.table import TableError
from ..wire.messages import ErrorCode, ErrorMessage

HTTP_STATUS = {
    ErrorCode.MALFORMED: 422,
    ErrorCode.STALE: 409,
    ErrorCode.FORBIDDEN: 403,
    ErrorCode.OUT_OF_TURN: 409,
    ErrorCode.ILLEGAL: 422,
    ErrorCode.MATCH_OVER: 409,
    ErrorCode.WAITING: 409,
    ErrorCode.HINTS_OFF: 403,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.CONFLICT: 409,
    ErrorCode.UNAVAILABLE: 503,
    ErrorCode.LIMIT: 429,
}
UNAVAILABLE = "the tables' database cannot be reached just now; nothing was done: try again in a moment"


def error_response(error: TableError) -> JSONResponse:
    body = ErrorMessage(code=error.code, message=error.message, key=error.key, params=error.params).model_dump(mode="json")
    return JSONResponse(body, status_code=HTTP_STATUS[error.code])


async def on_table_error(request: Request, error: TableError) -> JSONResponse:
    return error_response(error)


async def on_unavailable(request: Request, error: StoreUnavailable) -> JSONResponse:
    log.warning("store.unavailable", path=request.url.path, error=str(error))
    return error_response(TableError(ErrorCode.UNAVAILABLE, UNAVAILABLE))


async def on_invalid(request: Request, error: RequestValidationError) -> JSONResponse:
    detail = "; ".join(f"{'.'.join(str(p) for p in e['loc'][1:]) or 'body'}: {e['msg']}" for e in error.errors())
    # a check that says why in keyed words (a person's name): the page says it in the person's language
    said = [e["ctx"]["error"].args[0] for e in error.errors() if isinstance(e.get("ctx", {}).get("error"), ValueError)]
    if len(error.errors()) == 1 and said and isinstance(said[0], Reason):
        return error_response(TableError(ErrorCode.MALFORMED, detail, key=said[0].key, params=said[0].params))
    return error_response(TableError(ErrorCode.MALFORMED, detail or "malformed request"))


REFUSALS = {
    400: "Refused: a Content-Length that is not a number (code malformed).",
    403: "Refused: not this seat's token, not this table's invitation, or a link that is not (or no longer) one.",
    404: "Refused: no such table, seat or deal.",
    405: "Refused: the path does not take this method.",
    408: "Refused: the request's body was not sent in time (code limit).",
    409: "Refused: a seat or name already taken, a move out of turn or stale, a match not yet (or already) over.",
    413: "Refused: the body is larger than the server reads (code limit).",
    422: "Refused: the request is malformed, or the rules refuse the move or options (code malformed or illegal).",
    429: "Refused: one of this address's bounds (code limit): requests, tables, names, reads, busy workers.",
    503: "Refused: the tables' database cannot be reached just now; nothing was done (code unavailable).",
}
"""Every refusal an operation may answer, in the project's shape (:class:`ErrorMessage`)."""

API = (405, 422, 429)
"""What every ``/api`` operation may answer: another method (405), a path or header that is not one (422), this
address's bound on requests (429)."""
BODY = (400, 408, 413, 422)
"""What every operation with a body may answer (BodyLimit, then the body's validation)."""
STORE = (503,)
"""What an operation that reads or writes the database may answer."""


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` for a route: each status it may answer, described, with the refusal's model."""
    return {status: {"model": ErrorMessage, "description": REFUSALS[status]} for status in sorted(set(statuses))}


HTTP_CODES = {404: ErrorCode.NOT_FOUND, 403: ErrorCode.FORBIDDEN, 409: ErrorCode.CONFLICT, 429: ErrorCode.LIMIT,
              503: ErrorCode.UNAVAILABLE}
"""The code of a refusal the framework itself answers (an unknown route, a method a route does not take...)."""


async def on_http_error(request: Request, error: HTTPException) -> JSONResponse:
    """The framework's own refusals in the project's shape (FastAPI answers ``{"detail": ...}``)."""
    code = HTTP_CODES.get(error.status_code, ErrorCode.MALFORMED)
    body = ErrorMessage(code=code, message=str(error.detail), key=f"server.{code.value}").model_dump(mode="json")
    return JSONResponse(body, status_code=error.status_code, headers=error.headers)


def add_error_handlers(app: FastAPI) -> None:
    app.exception_handler(TableError)(on_table_error)
    app.exception_handler(StoreUnavailable)(on_unavailable)
    app.exception_handler(RequestValidationError)(on_invalid)
    app.exception_handler(HTTPException)(on_http_error)
