"""The FastAPI application: pages, the lobby API, the table sockets, health.

``create_app(config)`` builds everything from a :class:`ServerConfig`; ``nines serve``
runs it under uvicorn.  Requests and socket messages are typed (pydantic models in
:mod:`nines.server.wire.messages`) and each kind of socket message has its own handler.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import sys
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import orjson
from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ValidationError

from ..games import GAME_MODULES, UnknownGame, get_game
from ..games.contract import Reason, RulesError, options_to_dict
from ..web import STATIC_DIR
from .config import ServerConfig
from .guard.limits import BodyLimit, LiveTables, Rates, SocketGate, check_name, client_key, count_down, valid_table_id
from .http.describe import describe_games
from .http.seating import SEAT_COOKIE, own_name, set_seat_cookie
from .logs import log
from .records.replay import ReplayFrames, match_record
from .records.review import Reviews, review_job
from .runtime import CollectorPauses, settle
from .store.database import Store, StoreUnavailable
from .tables.manager import TableManager
from .tables.table import Table, TableError
from .wire.frames import DirectWriter, KeepServerSend, stop_reading
from .wire.messages import (
    CLIENT_MESSAGE,
    Act,
    AgainMessage,
    AgainRequest,
    AskDeviceLink,
    AskHint,
    Claim,
    CreateTable,
    ErrorCode,
    ErrorMessage,
    Hello,
    HttpAct,
    JoinSeat,
    Person,
    PlayAgain,
    ResolveOptions,
    Resync,
    Seated,
    SetPace,
)
from .wire.pubsub import Broker, LocalBroker, RedisBroker
from .wire.sockets import SocketConnection

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
HELLO_TIMEOUT_S = 15
HEALTH_TIMEOUT_S = 2


def error_response(error: TableError) -> JSONResponse:
    body = ErrorMessage(code=error.code, message=error.message, key=error.key, params=error.params).model_dump(mode="json")
    return JSONResponse(body, status_code=HTTP_STATUS[error.code])


SocketHandler = Callable[[TableManager, Table, SocketConnection, Any], Awaitable[BaseModel | None]]


async def _on_act(manager: TableManager, table: Table, conn: SocketConnection, message: Act) -> None:
    # acknowledged by the move's own task as soon as it is applied (TableManager.act), written at once
    await manager.act(table, conn.seat, message.seq, message.action, acknowledge=conn)


async def _on_hint(manager: TableManager, table: Table, conn: SocketConnection, message: AskHint) -> BaseModel:
    return await manager.hints.ask(table, conn.seat, message.seq)


async def _on_pace(manager: TableManager, table: Table, conn: SocketConnection, message: SetPace) -> None:
    await manager.set_pace(table, conn.seat, message.seq, message.delay_ms)


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


def make_broker(config: ServerConfig, instance: str) -> Broker:
    return RedisBroker(config.redis_url, instance) if config.redis_url else LocalBroker()


def create_app(config: ServerConfig | None = None) -> FastAPI:
    config = config or ServerConfig()
    instance = config.instance or uuid.uuid4().hex[:8]
    store = Store(config.database_url)
    manager = TableManager(store, make_broker(config, instance), ServerConfig(**{**config.__dict__, "instance": instance}))
    reviews = Reviews(store, processes=config.review_processes)
    manager.action_listeners.append(reviews.after_action)
    pauses = CollectorPauses()  # the garbage collector's pauses, reported by /health

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(store.migrate)
        pauses.install()
        # before the tables are loaded: the start-up heap frozen, and from then on what survives each collection
        # (a finished table is still freed, by reference counting; cycles dead since frozen by the reclaims)
        collector = settle() if config.settle else None
        await manager.start()
        reviews.start()
        log.info("server.started", instance=instance, database=_safe_url(config.database_url),
                 pubsub="redis" if config.redis_url else "local")
        if config.address:
            print(f"Nines is ready: open {config.address} in a browser (Ctrl+C stops the server)", file=sys.stderr, flush=True)
        try:
            yield
        finally:
            await manager.stop()
            reviews.close()
            store.close()
            pauses.remove()
            if collector is not None:
                collector.remove()
            log.info("server.stopped", instance=instance)

    app = FastAPI(title="Nines", lifespan=lifespan, docs_url="/api/docs", openapi_url="/api/openapi.json")
    app.state.store = store
    app.state.manager = manager
    app.state.reviews = reviews
    app.state.config = config
    limits = config.limits
    gate = SocketGate(limits)
    rates = Rates(limits)
    live_tables = LiveTables(limits)
    under_way: Counter[str] = Counter()  # API requests under way, by the client's address

    def is_live(table_id: str) -> bool:
        table = manager.tables.get(table_id)
        return table is not None and not table.state.is_over

    def counted_name(request: Request) -> Callable[[], None]:
        """Counts a name new to the database against its address's rate (``Limits.names_per_hour``): each is a
        row kept for good, and one client once added 130 a second for as long as it liked."""
        address = _address(request.client)

        def count() -> None:
            refusal = rates.new_name(address)
            if refusal is not None:
                raise TableError(ErrorCode.LIMIT, refusal)

        return count

    app.add_middleware(BodyLimit, max_bytes=limits.body_bytes, seconds=limits.request_s)

    @app.middleware("http")
    async def log_requests(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        started = time.perf_counter()
        if not request.url.path.startswith("/api/"):
            response = await call_next(request)
        else:
            # one address's API requests, whatever they ask: each costs the server 0.6 to 4 ms of CPU, and one client
            # sent 250 to 700 a second (benchmarks/api_flood.py); refused before anything is looked up.  And only so
            # many at once: their database work waits in a pool of a few threads shared with everyone
            address = _address(request.client)
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

    app.add_middleware(KeepServerSend)  # outermost: a socket's own send from the server, for wire.py

    @app.exception_handler(TableError)
    async def on_table_error(request: Request, error: TableError) -> JSONResponse:
        return error_response(error)

    @app.exception_handler(StoreUnavailable)
    async def on_unavailable(request: Request, error: StoreUnavailable) -> JSONResponse:
        log.warning("store.unavailable", path=request.url.path, error=str(error))
        return error_response(TableError(ErrorCode.UNAVAILABLE, UNAVAILABLE))

    @app.exception_handler(RequestValidationError)
    async def on_invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        detail = "; ".join(f"{'.'.join(str(p) for p in e['loc'][1:]) or 'body'}: {e['msg']}" for e in error.errors())
        # a check that says why in keyed words (a person's name): the page says it in the person's language
        said = [e["ctx"]["error"].args[0] for e in error.errors() if isinstance(e.get("ctx", {}).get("error"), ValueError)]
        if len(error.errors()) == 1 and said and isinstance(said[0], Reason):
            return error_response(TableError(ErrorCode.MALFORMED, detail, key=said[0].key, params=said[0].params))
        return error_response(TableError(ErrorCode.MALFORMED, detail or "malformed request"))

    # -- pages -----------------------------------------------------------------------

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    @app.get("/", include_in_schema=False)
    async def home() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/stats", include_in_schema=False)
    async def stats_page() -> FileResponse:
        return FileResponse(STATIC_DIR / "stats.html", headers={"Cache-Control": "no-cache"})

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(STATIC_DIR / "favicon.svg", media_type="image/svg+xml")

    @app.get("/health")
    async def health() -> dict[str, Any]:
        """Whether this process can reach its database and (when configured) Redis: ``degraded`` if not."""
        database = "ok"
        try:
            await asyncio.wait_for(asyncio.to_thread(store.ping), HEALTH_TIMEOUT_S)
        except Exception as error:  # noqa: BLE001 - reported, not raised: health says what is wrong
            database = f"error: {type(error).__name__}"
        redis = await manager.broker.health()
        return {
            "status": "ok" if database == "ok" and redis in ("ok", "local") else "degraded",
            "instance": instance,
            "tables": len(manager.tables),
            "database": database,
            "pubsub": "redis" if config.redis_url else "local",
            "redis": redis,
            "collector": pauses.summary(),
            "sockets": {"direct_frames": DirectWriter.written},  # messages written straight to the connection (wire.py)
        }

    # -- games -----------------------------------------------------------------------

    @app.get("/api/games", response_model=list[dict[str, Any]])
    async def games() -> Response:
        # described once per process, and encoded once: the same bytes for every page that opens
        return Response(await asyncio.to_thread(_games_body), media_type="application/json")

    @app.post("/api/games/{game_id}/resolve")
    async def resolve(game_id: str, body: ResolveOptions) -> dict[str, Any]:
        """The options a preset and overrides give, and the seats they make."""
        try:
            spec = get_game(game_id)
            options = spec.options(body.preset, body.options)
        except UnknownGame as error:
            raise TableError(ErrorCode.MALFORMED, str(error)) from None
        except RulesError as error:
            raise TableError(ErrorCode.MALFORMED, str(error), key=error.key, params=error.params) from None
        seats = spec.new_match(options, 0).seats
        return {"options": options_to_dict(options), "seats": list(seats)}

    # -- tables ----------------------------------------------------------------------

    @app.get("/api/tables", response_model=list[dict[str, Any]])
    async def list_tables(request: Request) -> Response:
        """Public tables only (a table is private unless made public): those with open seats carry their
        invitation, so a seat can be taken from the home page; the others are there to watch."""
        refusal = rates.lobby(_address(request.client))
        if refusal is not None:
            raise TableError(ErrorCode.LIMIT, refusal)
        # sent as encoded, not through the framework's encoder (a listing is fifty tables' data; every home page
        # asks for one every few seconds)
        return Response(orjson.dumps(await manager.listed()), media_type="application/json")

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request, response: Response) -> dict[str, Any]:
        address = _address(request.client)
        refusal = live_tables.refusal(address, is_live) or rates.create_table(address)
        if refusal is not None:
            raise TableError(ErrorCode.LIMIT, refusal)
        # the name becomes this browser's only if the table is made (a refused request once stored it all the same)
        claim = functools.partial(own_name, store, request, response, body.name, counted_name(request)) if body.name else None
        seated = await manager.create(body, claim)
        live_tables.add(address, seated.table.id)
        return seated.model_dump(mode="json")

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str) -> dict[str, Any]:
        table = await manager.get(table_id)
        manager.visited(table)
        return table.info().model_dump(mode="json")

    @app.post("/api/tables/{table_id}/join")
    async def join_table(table_id: str, body: JoinSeat, request: Request, response: Response) -> dict[str, Any]:
        claim = functools.partial(own_name, store, request, response, body.name, counted_name(request)) if body.name else None
        seated = await manager.join(table_id, body, claim)
        assert seated.seat is not None and seated.token is not None
        set_seat_cookie(request, response, table_id, seated.seat, seated.token)
        return seated.model_dump(mode="json")

    @app.post("/api/tables/{table_id}/claim")
    async def claim_seat(table_id: str, body: Claim, request: Request, response: Response) -> dict[str, Any]:
        """Spend a one-time seat link: this browser now holds the seat (an HttpOnly cookie scoped to
        the table's socket), and any other browser that held it watches instead."""
        table, seat, token = await manager.claims.claim(table_id, body.claim)
        set_seat_cookie(request, response, table_id, seat, token)
        return {"table": table.info().model_dump(mode="json"), "seat": seat}

    @app.post("/api/tables/{table_id}/again")
    async def play_again(table_id: str, body: AgainRequest) -> dict[str, Any]:
        """Play again (for programs; browsers ask over the socket): the new table, and the seat's token there."""
        table = await manager.get(table_id)
        seat = manager.authenticate(table, body.seat, body.token)
        new, token = await manager.play_again.again(table, seat, body.accept)
        return Seated(table=new.info(), seat=seat if token else None, token=token, invite=new.invite).model_dump(mode="json")

    @app.get("/api/tables/{table_id}/state")
    async def table_state(
        table_id: str,
        x_nines_seat: str | None = Header(default=None),
        x_nines_token: str | None = Header(default=None),
    ) -> dict[str, Any]:
        """The view of one seat (with its token) or of a spectator: the same as the socket sends."""
        table = await manager.get(table_id)
        seat = manager.authenticate(table, x_nines_seat, x_nines_token)
        manager.visited(table, seat)
        async with table.lock:
            return table.state_for(seat).model_dump(mode="json")

    @app.post("/api/tables/{table_id}/actions")
    async def table_act(table_id: str, body: HttpAct) -> dict[str, Any]:
        table = await manager.get(table_id)
        seat = manager.authenticate(table, body.seat, body.token)
        return (await manager.act(table, seat, body.seq, body.action)).model_dump(mode="json")

    replays = ReplayFrames()

    def count_read(request: Request) -> None:
        refusal = rates.read(_address(request.client))
        if refusal is not None:
            raise TableError(ErrorCode.LIMIT, refusal)

    @app.get("/api/tables/{table_id}/record")
    async def table_record(table_id: str, request: Request) -> Response:
        count_read(request)
        # a finished match's record is served as it was kept when the match ended, never replayed per request
        record = await asyncio.to_thread(store.finished_record, table_id) if valid_table_id(table_id) else None
        if record is None:
            table = await manager.get(table_id)
            async with table.lock:
                record = match_record(table)
        body = json.dumps(record, indent=1)
        filename = f"nines-{record['game']}-{table_id}.json"
        return Response(body, media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    @app.get("/api/tables/{table_id}/replay/{deal}")
    async def table_replay(table_id: str, deal: int, request: Request) -> dict[str, Any]:
        count_read(request)
        return await replays.get(await manager.get(table_id), deal)

    @app.get("/api/tables/{table_id}/review/{deal}")
    async def table_review(table_id: str, deal: int, request: Request) -> dict[str, Any]:
        """A finished deal reviewed by the exact solver (see docs/review.md); refused while it is in play."""
        count_read(request)
        table = await manager.get(table_id)
        async with table.lock:
            job = review_job(table, deal)
        return await reviews.get(job)

    # -- people ----------------------------------------------------------------------

    @app.post("/api/people")
    async def register_person(body: Person, request: Request, response: Response) -> dict[str, Any]:
        """Use a name: the first browser to use it owns it (a secret kept in an HttpOnly cookie)."""
        await own_name(store, request, response, body.name, counted_name(request))
        await asyncio.to_thread(store.touch_person, body.name)
        return {"name": body.name}

    @app.get("/api/people/{name}/stats")
    async def person_stats(name: str) -> dict[str, Any]:
        try:
            check_name(name)
        except ValueError:  # not a name anyone can have: nothing to look up
            return {"name": name, "known": False, "games": {}}
        await manager.results_written()  # every deal a socket has shown is counted (see TableManager._write_results)
        known = await asyncio.to_thread(store.person_exists, name)
        games = await asyncio.to_thread(store.person_stats, name) if known else {}
        return {"name": name, "known": known, "games": games}

    # -- the table socket --------------------------------------------------------------

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        address = _address(websocket.client)
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
                await _table_socket(websocket, table_id, address)
            finally:
                gate.release(address)
        finally:
            # nothing more is read from this socket: uvicorn would read on (and parse every frame) until the
            # client answers its close, for up to 10 s (a refused socket streaming tiny frames held the loop)
            stop_reading(websocket.scope)

    async def _table_socket(websocket: WebSocket, table_id: str, address: str) -> None:
        try:
            first = await asyncio.wait_for(websocket.receive_text(), timeout=HELLO_TIMEOUT_S)
            hello = Hello.model_validate_json(first)
            table = await manager.get(table_id)
            seat: str | None
            if hello.seat is not None:  # programs: the seat and its token
                seat = manager.authenticate(table, hello.seat, hello.token)
            else:  # browsers: the seat cookie, if this browser holds one; otherwise a spectator
                seat = manager.seat_of_cookie(table, websocket.cookies.get(SEAT_COOKIE))
            if seat is None and (crowded := gate.watch(table.id)) is not None:
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
            await _seated_socket(websocket, table, seat, address)
        finally:
            if seat is None:
                gate.unwatch(table.id)

    async def _seated_socket(websocket: WebSocket, table: Table, seat: str | None, address: str) -> None:
        conn = SocketConnection(websocket, seat, limits.queued_bytes, limits.stall_s)
        sent = rates.messages()  # this socket's own message rate
        together = gate.messages_of(address)  # and its address's sockets', all together
        pump = asyncio.create_task(conn.pump())
        try:
            # joining waits for the table's lock while a move holds it: cancelled there (the server stopping, an
            # ASGI server cancelling the handler as the socket closes), the socket still ends below (its pump,
            # left waiting for messages, held the socket for ever)
            await manager.attach(table, conn)
            log.info("socket.open", table=table.id, seat=seat or "spectator")
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
                if len(data) > limits.frame_bytes:
                    conn.send(ErrorMessage(code=ErrorCode.LIMIT, seq=table.seq,
                                           message=f"a message is at most {limits.frame_bytes} bytes; this one was not read"))
                    continue
                await _dispatch(manager, table, conn, data)
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

    @app.get("/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        """A game's page: its title and promise, the table, how to play, history and variants."""
        if game_id not in GAME_MODULES:
            # a person typed or followed a wrong address: a page that says so in their language, not JSON
            return FileResponse(STATIC_DIR / "missing.html", status_code=404, headers={"Cache-Control": "no-cache"})
        return FileResponse(STATIC_DIR / "game.html", headers={"Cache-Control": "no-cache"})

    return app


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


@functools.cache
def _games_body() -> bytes:
    return orjson.dumps(describe_games())


def _address(client: Any) -> str:
    """The client as the per-address bounds count it: its address as the connection shows it (behind a proxy,
    the proxy's), an IPv6 one by its /64 network (:func:`~nines.server.guard.limits.client_key`)."""
    return client_key(str(client.host)) if client is not None else "unknown"


def _safe_url(url: str) -> str:
    """A database URL without its password, for logs."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://***@{rest.split('@', 1)[1]}"
    return url


__all__ = ["GAME_MODULES", "create_app"]
