"""The web server: lobby (HTTP), tables (WebSocket), persistence, pub/sub, computer players.

``create_app(ServerConfig(...))`` gives the FastAPI application; ``nines serve`` runs it.

Where things live:

* ``app.py``: :func:`create_app`, which only assembles; ``config.py`` (:class:`ServerConfig`), ``logs.py``
  (structured logs), ``runtime.py`` (the process's garbage collector and interpreter lock settings);
* ``http/``: one router per area (lobby, tables, records, people, the table socket, pages, health), their
  dependencies, refusals as statuses, the request middleware, the seat and name cookies;
* ``tables/``: a table and everything that moves it along (the manager, moves, seats, the driver with its
  clock and stand-ins, claims, play again, hints, other processes' changes);
* ``records/``: what finished play leaves (records and replays, reviews, each person's results);
* ``store/``: the database (models, queries, the move journal, migrations);
* ``guard/``: bounds on what one client may ask (sizes, rates, origins, names, connections);
* ``wire/``: what travels (messages, patches, frames written to sockets, a socket's writes, pub/sub events).
"""

from .app import create_app
from .config import ServerConfig

__all__ = ["ServerConfig", "create_app"]
