"""How a server is configured: addresses, storage, pub/sub, pace of computer players."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .limits import Limits

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

    hint_players: tuple[str, ...] = ("expert", "ismcts", "basic", "random")
    """Players asked for hints, strongest first; the first one available for the game is used."""

    log_json: bool = True
    """Structured logs: one JSON object per line (``False``: plain text)."""

    instance: str = ""
    """A name for this process in logs and pub/sub (random when empty)."""

    address: str = ""
    """Where people open the tables (``http://localhost:8000/``): printed once the server is ready."""

    limits: Limits = field(default_factory=Limits)
    """Sizes, counts, rates and origins one client is held to (:mod:`nines.server.limits`)."""

    def sqlite_path(self) -> Path | None:
        """The file behind a SQLite URL (``None`` for other databases or in-memory SQLite)."""
        prefix = "sqlite:///"
        if not self.database_url.startswith(prefix):
            return None
        path = self.database_url[len(prefix):]
        if not path or path == ":memory:":
            return None
        return Path(path)
