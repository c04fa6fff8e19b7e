"""The web server: lobby (HTTP), tables (WebSocket), persistence, pub/sub, computer players.

``create_app(ServerConfig(...))`` gives the FastAPI application; ``nines serve`` runs it.
"""

from .app import create_app
from .config import ServerConfig

__all__ = ["ServerConfig", "create_app"]
