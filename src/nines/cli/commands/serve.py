"""``nines serve``: the web tables, where people play in the browser."""

from __future__ import annotations

from pathlib import Path

import typer

_PER_CLIENT = " (0: no bound; behind a reverse proxy, 0 unless it passes the client's address)."
"""How a per-address bound on requests reads behind a proxy (uvicorn takes the client's address from the
proxy's X-Forwarded-For when the proxy runs on this machine)."""


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (0.0.0.0 for every interface)."),
        port: int = typer.Option(8000, "--port", help="Port to listen on."),
        database_url: str | None = typer.Option(
            None, "--database-url", envvar="NINES_DATABASE_URL",
            help="SQLAlchemy URL of the database (default: a SQLite file in --data-dir; postgresql://... also works).",
        ),
        data_dir: Path = typer.Option(Path("data"), "--data-dir", help="Folder for the default SQLite file."),
        redis_url: str | None = typer.Option(
            None, "--redis-url", envvar="NINES_REDIS_URL",
            help="Share table events with other server processes through Redis pub/sub (redis://host:port/0).",
        ),
        bot_delay: float = typer.Option(0.9, "--bot-delay", help="Seconds a computer player waits before moving (tables can change it)."),
        idle_close: float = typer.Option(
            24.0, "--idle-close",
            help="Hours after which a table nobody moved in or opened is closed (kept in the database, gone from memory and the lobby).",
        ),
        away: int = typer.Option(60, "--away", help="Seconds a person may be disconnected before a stand-in plays for them (tables may set their own)."),
        log_format: str = typer.Option("json", "--log-format", help="json (one object per line) or text."),
        log_level: str = typer.Option("info", "--log-level", help="debug, info, warning or error."),
        allow_origin: list[str] = typer.Option(
            [], "--allow-origin",
            help="Another site whose pages may open table sockets (https://cards.example; repeat for more; * for any). "
                 "Pages of this server's own address always may.",
        ),
        tables_per_minute: int = typer.Option(12, "--tables-per-minute", min=1, help="Tables one address may create in a minute."),
        requests_per_minute: int = typer.Option(
            1200, "--requests-per-minute", min=0,
            help="API requests one address may make in a minute" + _PER_CLIENT,
        ),
        requests_at_once: int = typer.Option(
            16, "--requests-at-once", min=0,
            help="API requests one address may have under way at once" + _PER_CLIENT,
        ),
        sockets_per_address: int = typer.Option(40, "--sockets-per-address", min=1, help="Table sockets one address may hold open."),
        request_timeout: float = typer.Option(
            10.0, "--request-timeout", min=0.5,
            help="Seconds a client has to send a request's head, and its whole request (a connection that sends nothing or half a request is closed).",
        ),
        connections_per_address: int = typer.Option(
            100, "--connections-per-address", min=0,
            help="Open HTTP connections one address may hold (0: no bound; behind a reverse proxy, 0 and let the proxy bound them).",
        ),
        shutdown_timeout: int = typer.Option(
            10, "--shutdown-timeout", min=1,
            help="Seconds a stopping server waits for open requests and sockets before closing them.",
        ),
        passkey_rp_id: str = typer.Option(
            "", "--passkey-rp-id",
            help="The domain passkeys for names are made for (cards.example; they work on its subdomains too). Default: the host each request came to.",
        ),
        passkey_origin: list[str] = typer.Option(
            [], "--passkey-origin",
            help="An origin whose pages may register and use passkeys (https://cards.example; repeat for more). Default: each request's own.",
        ),
        review_processes: bool = typer.Option(
            True, "--review-processes/--review-threads",
            help="Review finished deals in worker processes (the tables in play never wait for a review) or in threads of the server.",
        ),
        thinking_processes: bool = typer.Option(
            True, "--thinking-processes/--thinking-threads",
            help="Computer players think in worker processes at a lower priority (a person's move never waits behind "
                 "their thinking) or in threads of the server.",
        ),
        anchor: int = typer.Option(
            24, "--anchor", min=0, max=500,
            help="Anchor matches each game's computer players are rated from: at start, a game with fewer gets the missing "
                 "ones played by a worker process at the lowest priority (0: none).",
        ),
        no_anchor: bool = typer.Option(False, "--no-anchor", help="Play no anchor matches (as --anchor 0)."),
    ) -> None:
        """Serve the web tables: open the printed address and play in the browser."""
        import uvicorn

        from ...server import ServerConfig, create_app
        from ...server.config import default_database_url
        from ...server.guard.connections import QuietSocketProtocol, guarded_http_protocol, raise_open_files_limit
        from ...server.guard.limits import Limits
        from ...server.logs import configure

        if log_format not in ("json", "text"):
            raise typer.BadParameter("json or text", param_hint="--log-format")
        configure(json_lines=log_format == "json", level=log_level)
        raise_open_files_limit()  # a service started at 1,024 open files ran out at a few hundred connections
        shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
        config = ServerConfig(
            database_url=database_url or default_database_url(data_dir),
            redis_url=redis_url,
            bot_delay_ms=max(0, int(bot_delay * 1000)),
            idle_close_s=max(60.0, idle_close * 3600),
            away_s=max(5, away),
            log_json=log_format == "json",
            address=f"http://{shown}:{port}/",
            review_processes=review_processes,
            thinking_processes=thinking_processes,
            anchor_matches=0 if no_anchor else anchor,
            passkey_rp_id=passkey_rp_id,
            passkey_origins=tuple(passkey_origin),
            settle=True,
            limits=Limits(origins=tuple(allow_origin), tables_per_minute=tables_per_minute,
                          sockets_per_address=sockets_per_address, request_s=request_timeout,
                          connections_per_address=connections_per_address, requests_per_minute=requests_per_minute,
                          requests_at_once=requests_at_once),
        )
        # no per-message compression: after each move a socket gets a patch of a few hundred bytes, and
        # compressing it for every socket cost the server more than sending it (benchmarks/server_load.py)
        uvicorn.run(create_app(config), host=host, port=port, log_config=None, access_log=False, log_level=log_level,
                    ws_max_size=config.limits.frame_bytes,  # a larger frame is refused before it is read
                    ws_per_message_deflate=False,
                    ws=QuietSocketProtocol,  # uvicorn's, logging a frame of invalid UTF-8 without a traceback
                    # a head not sent in time: 408, closed; an address over its open connections: 429, closed
                    http=guarded_http_protocol(config.limits),
                    # a stopping server waited for ever for a request whose body never came; not for longer now
                    timeout_graceful_shutdown=shutdown_timeout)
