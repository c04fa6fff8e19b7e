"""Further ``nines`` sub-commands, one module each, registered by :func:`register_all`.

Each module here defines ``register(app: typer.Typer) -> None``.  Adding a command is
adding a module and its name to :data:`COMMAND_MODULES`; ``app.py`` stays as it is.
"""

from __future__ import annotations

import importlib

import typer

# module names under nines.cli.commands, in the order their commands appear in --help
COMMAND_MODULES = ("solve", "review", "tournament", "analyze", "serve", "ratings")


def register_all(app: typer.Typer) -> None:
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as error:
            if error.name == f"{__name__}.{name}":
                continue  # that command is not part of this version yet
            raise
        module.register(app)
