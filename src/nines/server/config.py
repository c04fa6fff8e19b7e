"""How a server is configured: addresses, storage, pub/sub, pace of computer players."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .guard.limits import Limits

DEFAULT_DATA_DIR = Path("data")


def default_database_url(data_dir: Path = DEFAULT_DATA_DIR) -> str:
    """A SQLite file in the data folder (created on start-up)."""
    return f"sqlite:///{data_dir / 'nines.db'}"


@dataclass(frozen=True)
class ServerConfig:
    """Everything :func:`nines.server.create_app` needs; the ``nines serve`` options map onto it."""

    database_url: str = default_database_url()
    """SQLAlchemy URL: ``sqlite:///path/file.db`` (default under ``./data``) or ``postgresql://...``."""

    redis_url: str | None = None
    """When set, table events are shared with other server processes through Redis pub/sub."""

    bot_delay_ms: int = 900
    """Default pause before a computer player moves, so a person can follow the play."""

    away_s: int = 60
    """A person disconnected this long is played by a stand-in until they come back (tables may set their own)."""

    stand_in: str = "basic"
    """The computer player that stands in for an absent or out-of-time person (tables may choose another)."""

    watch_grace_s: float = 30.0
    """A table asked for over HTTP (its state, its info) or just made counts as watched this long."""

    idle_close_s: float = 24 * 3600.0
    """A table nobody moved in or opened for this long is closed: kept in the database, gone from memory
    and the lobby, rebuilt when opened again."""

    watchdog_s: float = 5.0
    """How often the watchdog looks for tables that should be moving but are not, and for idle tables."""

    hint_players: tuple[str, ...] = ("expert", "ismcts", "basic", "random")
    """Players asked for hints, strongest first; the first one available for the game is used."""

    review_processes: bool = True
    """Reviews of finished deals are worked out in worker processes (``False``: threads of this process).
    Processes keep the review's own Python off the server's interpreter lock, so the tables in play never
    wait for it; threads start faster and use less memory (the tests use them)."""

    thinking_processes: bool = True
    """Computer players (and hints) think in worker processes, :attr:`Limits.computer_threads` of them
    (``False``: threads of this process).  Processes keep the searches' Python off the server's interpreter
    lock, so a person's move never waits behind an expert's thinking, and the experts use every core; threads
    start faster, use less memory and can be patched (the tests use them)."""

    log_json: bool = True
    """Structured logs: one JSON object per line (``False``: plain text)."""

    instance: str = ""
    """A name for this process in logs and pub/sub (random when empty)."""

    address: str = ""
    """Where people open the tables (``http://localhost:8000/``): printed once the server is ready."""

    settle: bool = False
    """Once started, freeze the start-up heap and set the collector's thresholds and the interpreter's
    switch interval for serving (:func:`nines.server.runtime.settle`): process-wide, so ``nines serve``
    sets it, not an application made inside another program (the tests)."""

    passkey_rp_id: str = ""
    """The relying party passkeys are registered for: the site's domain (``cards.example``; a passkey made for it
    works on its subdomains too).  Empty: the host each request was sent to."""

    passkey_origins: tuple[str, ...] = ()
    """The origins (``https://cards.example``) whose pages may register and use passkeys.  Empty: the origin each
    request was sent to (its scheme, ``https`` behind a proxy that says so, and host)."""

    limits: Limits = field(default_factory=Limits)
    """Sizes, counts, rates and origins one client is held to (:mod:`nines.server.guard.limits`)."""

    today: Callable[[], dt.date] = field(default=lambda: dt.datetime.now(dt.UTC).date())
    """The day (UTC) of the daily challenge: the tests give a fixed one."""

    challenge_key: bytes | None = None
    """The key each day's challenge deals are drawn from (HMAC-SHA256 with the day and the game); ``None``:
    each day's secret is drawn at random the first time it is asked for, and kept in the database."""

    challenge_bot: str | None = None
    """The computer player of every challenge table (``None``: each challenge's own, ``expert``)."""

    rate_matches: bool = True
    """Rate every finished match at a web table with a person (not casual, not practice, not a challenge)."""

    anchor_matches: int = 0
    """The anchor matches (among computer players) each game's ratings should come from: at start, a game with
    fewer gets the missing ones played in a worker process at the lowest priority (:mod:`nines.server.anchoring`).
    0: none; ``nines serve`` sets 24 (``--anchor N``, ``--no-anchor``), an app made inside another program (the
    tests) plays none unless it asks."""

    anchor_players: tuple[str, ...] = ("random", "basic", "ismcts", "expert")
    """The computer players of the anchor matches (those a game has)."""

    def sqlite_path(self) -> Path | None:
        """The file behind a SQLite URL (``None`` for other databases or in-memory SQLite)."""
        prefix = "sqlite:///"
        if not self.database_url.startswith(prefix):
            return None
        path = self.database_url[len(prefix):]
        if not path or path == ":memory:":
            return None
        return Path(path)
