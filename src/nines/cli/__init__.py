"""The ``nines`` command: play, simulate, replay (and more as the project grows)."""

from .app import app, main

__all__ = ["app", "main"]
