"""Refusals as HTTP answers: each error code's status, and the app's handlers for refused and malformed requests."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

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


def add_error_handlers(app: FastAPI) -> None:
    app.exception_handler(TableError)(on_table_error)
    app.exception_handler(StoreUnavailable)(on_unavailable)
    app.exception_handler(RequestValidationError)(on_invalid)
