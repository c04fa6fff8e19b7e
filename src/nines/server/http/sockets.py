"""The table socket: who it is (hello: a seat with its token, the seat cookie, or a spectator), the bounds
it is held to, and each kind of message it sends answered by its own handler.

What the socket is written is :class:`~nines.server.wire.sockets.SocketConnection`'s; what a message
does to the table is the manager's (:mod:`nines.server.tables`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ValidationError

from ...challenge import CHALLENGE_PRESET
from ..guard.limits import MessageWindow
from ..logs import log
from ..store.database import StoreUnavailable
from ..tables.challenges import Challenges
from ..tables.manager import TableManager
from ..tables.table import Table, TableError
from ..wire.frames import stop_reading
from ..wire.messages import (
    CLIENT_MESSAGE,
    Act,
    AgainMessage,
    AskDeviceLink,
    AskHint,
    ErrorCode,
    ErrorMessage,
    Hello,
    PlayAgain,
    Resync,
    SetPace,
)
from ..wire.sockets import SocketConnection
from .deps import Guards, GuardsDep, ManagerDep, client_address
from .errors import UNAVAILABLE
from .seating import SEAT_COOKIE
from .standing_deps import ChallengesDep, names_held

HELLO_TIMEOUT_S = 15

router = APIRouter()

SocketHandler = Callable[[TableManager, Table, SocketConnection, Any], Awaitable[BaseModel | None]]


async def _on_act(manager: TableManager, table: Table, conn: SocketConnection, message: Act) -> None:
    # acknowledged by the move's own task as soon as it is applied (TableManager.act), written at once
    await manager.act(table, conn.seat, message.seq, message.action, acknowledge=conn)


async def _on_hint(manager: TableManager, table: Table, conn: SocketConnection, message: AskHint) -> BaseModel:
    return await manager.hints.ask(table, conn.seat, message.seq)


async def _on_pace(manager: TableManager, table: Table, conn: SocketConnection, message: SetPace) -> None:
    await manager.moves.set_pace(table, conn.seat, message.seq, message.delay_ms)


async def _on_device_link(manager: TableManager, table: Table, conn: SocketConnection, message: AskDeviceLink) -> BaseModel:
    return await manager.claims.device_link(table, conn.seat)


async def _on_again(manager: TableManager, table: Table, conn: SocketConnection, message: PlayAgain) -> BaseModel:
    new, _token = await manager.play_again.again(table, conn.seat, message.accept)
    if not message.accept or conn.seat is None:
        return AgainMessage(table=new.id)
    # the browser takes its seat at the new table by a one-time claim (a socket cannot set its cookie)
    link = await manager.claims.device_link(new, conn.seat)
    return AgainMessage(table=new.id, url=link.url)


async def _on_resync(manager: TableManager, table: Table, conn: SocketConnection, message: Resync) -> None:
    async with table.lock:
        table.send_whole(conn)


async def _on_hello(manager: TableManager, table: Table, conn: SocketConnection, message: Hello) -> None:
    raise TableError(ErrorCode.MALFORMED, "this socket already said hello; open a new one to change seat")


SOCKET_HANDLERS: dict[type[BaseModel], SocketHandler] = {
    Act: _on_act,
    AskHint: _on_hint,
    SetPace: _on_pace,
    Hello: _on_hello,
    AskDeviceLink: _on_device_link,
    PlayAgain: _on_again,
    Resync: _on_resync,
}


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str, manager: ManagerDep, guards: GuardsDep,
                       challenges: ChallengesDep) -> None:
    address = client_address(websocket.client)
    gate = guards.gate
    # a page of another site may not open a socket (it would act with the visitor's seat)
    foreign = gate.origin_refusal(websocket.headers.get("origin"), websocket.headers.get("host"))
    too_many = None if foreign is not None else gate.admit(address)
    await websocket.accept()
    try:
        if foreign is not None or too_many is not None:
            code = ErrorCode.FORBIDDEN if foreign is not None else ErrorCode.LIMIT
            with contextlib.suppress(Exception):
                refusal = foreign or too_many
                assert refusal is not None
                await websocket.send_text(ErrorMessage(code=code, message=refusal, key=refusal.key,
                                                       params=refusal.params).model_dump_json())
                await websocket.close(code=1008)  # policy violation
            return
        try:
            await _table_socket(websocket, table_id, address, manager, guards, challenges)
        finally:
            gate.release(address)
    finally:
        # nothing more is read from this socket: uvicorn would read on (and parse every frame) until the
        # client answers its close, for up to 10 s (a refused socket streaming tiny frames held the loop)
        stop_reading(websocket.scope)


async def _table_socket(websocket: WebSocket, table_id: str, address: str, manager: TableManager,
                        guards: Guards, challenges: Challenges) -> None:
    try:
        first = await asyncio.wait_for(websocket.receive_text(), timeout=HELLO_TIMEOUT_S)
        hello = Hello.model_validate_json(first)
        table = await manager.get(table_id)
        seat: str | None
        if hello.seat is not None:  # programs: the seat and its token
            seat = manager.seats.authenticate(table, hello.seat, hello.token)
        else:  # browsers: the seat cookie, if this browser holds one; otherwise a spectator
            seat = manager.seats.seat_of_cookie(table, websocket.cookies.get(SEAT_COOKIE))
        if seat is None and table.preset == CHALLENGE_PRESET:
            # the day's deals: watched only by someone who has played them (the name's cookie says who)
            await challenges.guard(table.id, names_held(websocket, [hello.name] if hello.name else []))
        if seat is None and (crowded := guards.gate.watch(table.id)) is not None:
            raise TableError(ErrorCode.LIMIT, crowded)
    except StoreUnavailable:
        with contextlib.suppress(Exception):
            await websocket.send_text(ErrorMessage(code=ErrorCode.UNAVAILABLE, message=UNAVAILABLE).model_dump_json())
            await websocket.close(code=1013)  # try again later
        return
    except (TimeoutError, ValidationError, TableError, WebSocketDisconnect) as error:
        if isinstance(error, WebSocketDisconnect):
            return
        refusal = error if isinstance(error, TableError) else TableError(
            ErrorCode.MALFORMED, "say hello first: {\"type\": \"hello\", \"seat\": ..., \"token\": ...}")
        code = refusal.code
        with contextlib.suppress(Exception):
            await websocket.send_text(ErrorMessage(
                code=code, message=refusal.message, key=refusal.key, params=refusal.params).model_dump_json())
            await websocket.close(code=4400 if code is ErrorCode.MALFORMED else 4403)
        return
    try:
        await _seated_socket(websocket, table, seat, address, manager, guards)
    finally:
        if seat is None:
            guards.gate.unwatch(table.id)


async def _seated_socket(websocket: WebSocket, table: Table, seat: str | None, address: str, manager: TableManager,
                         guards: Guards) -> None:
    limits = guards.limits
    conn = SocketConnection(websocket, seat, limits.queued_bytes, limits.stall_s)
    sent = guards.rates.messages()  # this socket's own message rate
    together = guards.gate.messages_of(address)  # and its address's sockets', all together
    pump = asyncio.create_task(conn.pump())
    try:
        # joining waits for the table's lock while a move holds it: cancelled there (the server stopping, an
        # ASGI server cancelling the handler as the socket closes), the socket still ends below (its pump,
        # left waiting for messages, held the socket for ever)
        await manager.attach(table, conn)
        log.info("socket.open", table=table.id, seat=seat or "spectator")
        await _read(websocket, table, conn, sent, together, manager, limits.frame_bytes)
    except WebSocketDisconnect:
        pass
    finally:
        # the socket's going is counted even when this task is cancelled (the server stopping, a client
        # whose ASGI server cancels the handler as it closes): detached in a task of its own, which waits
        # for the table's lock if a move holds it.  Awaited here, cancelled mid-wait, the socket stayed
        # among the table's connections for ever: a seat shown as present, a finished table never freed
        detaching = asyncio.create_task(manager.detach(table, conn))
        _detaching.add(detaching)
        detaching.add_done_callback(_detaching.discard)
        conn.close()
        try:
            await asyncio.shield(detaching)
            with contextlib.suppress(Exception):
                await pump
        finally:
            log.info("socket.closed", table=table.id, seat=seat or "spectator")


async def _read(websocket: WebSocket, table: Table, conn: SocketConnection, sent: MessageWindow,
                together: MessageWindow | None, manager: TableManager, frame_bytes: int) -> None:
    """The socket's frames, each held to the socket's and its address's rates and to the frame size, until it closes."""
    seat = conn.seat
    while True:
        frame = await websocket.receive()
        if frame["type"] == "websocket.disconnect":
            break
        # every frame counts against the socket's rate, whatever it holds: uvicorn queues all the frames of
        # what it reads at once, and this loop takes them without the event loop's turn coming round
        too_fast = sent.refusal()
        if too_fast is None and together is not None:
            too_fast = together.refusal()
        if too_fast is not None:
            if sent.flooding:
                log.info("socket.flood_dropped", table=table.id, seat=seat or "spectator", refused=sent.refused)
                conn.drop()
                break
            conn.send(ErrorMessage(code=ErrorCode.LIMIT, message=too_fast, seq=table.seq, key=too_fast.key,
                                   params=too_fast.params))
            continue
        data = frame.get("text")
        if data is None:  # a binary frame: the protocol is JSON text
            conn.send(ErrorMessage(code=ErrorCode.MALFORMED, message="send JSON text, not binary frames", seq=table.seq))
            continue
        if len(data) > frame_bytes:
            conn.send(ErrorMessage(code=ErrorCode.LIMIT, seq=table.seq,
                                   message=f"a message is at most {frame_bytes} bytes; this one was not read"))
            continue
        await _dispatch(manager, table, conn, data)


async def _dispatch(manager: TableManager, table: Table, conn: SocketConnection, text: str) -> None:
    try:
        message = CLIENT_MESSAGE.validate_json(text)
    except ValidationError as error:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'message'}: {e['msg']}" for e in error.errors()[:3])
        conn.send(ErrorMessage(code=ErrorCode.MALFORMED, message=problems, seq=table.seq))
        return
    handler = SOCKET_HANDLERS[type(message)]
    if isinstance(message, Act):
        # in this task: the move is checked and joins the next commit at once, then runs to its end in a task
        # of its own (TableManager.act), so a socket closing mid-move never cuts it in half
        await _answer(manager, table, conn, handler, message)
        return
    # a socket closing mid-request must not cut it in half: it runs to its end on its own
    await asyncio.shield(_answer(manager, table, conn, handler, message))


async def _answer(manager: TableManager, table: Table, conn: SocketConnection, handler: SocketHandler, message: Any) -> None:
    """One request of a socket, answered by its own task, which also writes the answer (and the change it
    made) to the socket at once.  People first: the acknowledgement of a person's move is not queued behind
    the other tables' computer players, whose moves, committed with it, are woken after it (journal.py)."""
    try:
        reply = await handler(manager, table, conn, message)
    except TableError as error:
        log.info("refused", table=table.id, seat=conn.seat or "spectator", code=error.code.value)
        conn.send(ErrorMessage(code=error.code, message=error.message, seq=table.seq, key=error.key, params=error.params))
    except StoreUnavailable as error:
        # the move (or request) was not stored, so the table is as it was: say so and keep the socket open
        log.warning("store.unavailable", table=table.id, seat=conn.seat or "spectator", error=str(error))
        conn.send(ErrorMessage(code=ErrorCode.UNAVAILABLE, message=UNAVAILABLE, seq=table.seq))
    else:
        if reply is not None:
            conn.send(reply)
    with contextlib.suppress(Exception):  # a socket that closed meanwhile: its own task ends it
        await conn.flush()


_detaching: set[asyncio.Task[None]] = set()
"""Sockets' detaching tasks under way (held here: the event loop keeps only a weak reference to a task)."""
