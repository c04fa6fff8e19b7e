"""Describing games to the page: options with their kinds, defaults and documentation, presets, players.

The options dataclasses document each field with a docstring under it (python-chess
style); those strings are read from the source so the setup form can show them.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
import itertools
import textwrap
import threading
import types
import typing
from typing import Any

from ...bots import players_for
from ...games import GameSpec, available_games, get_game
from ...games.contract import options_to_dict


@functools.cache
def field_docs(cls: type) -> dict[str, str]:
    """The docstring written under each field of a dataclass (empty if none)."""
    docs: dict[str, str] = {}
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError, SyntaxError):
        return docs
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    for current, following in itertools.pairwise(body):
        if (
            isinstance(current, ast.AnnAssign)
            and isinstance(current.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            docs[current.target.id] = " ".join(following.value.value.split())
    return docs


def option_kind(hint: Any) -> dict[str, Any]:
    """How the form should ask for a value of this type."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        described = option_kind(inner[0]) if len(inner) == 1 else {"kind": "text"}
        return {**described, "optional": True}
    if origin is typing.Literal:
        return {"kind": "choice", "choices": list(args)}
    if hint is bool:
        return {"kind": "bool"}
    if hint is int:
        return {"kind": "int"}
    if origin is tuple:
        return {"kind": "list"}
    return {"kind": "text"}


def describe_options(spec: GameSpec) -> list[dict[str, Any]]:
    hints = typing.get_type_hints(spec.options_type)
    docs = field_docs(spec.options_type)
    defaults = options_to_dict(spec.presets[spec.default_preset])
    return [
        {"name": f.name, "default": defaults[f.name], "doc": docs.get(f.name, ""), **option_kind(hints[f.name])}
        for f in dataclasses.fields(spec.options_type)
    ]


def describe_game(spec: GameSpec) -> dict[str, Any]:
    default_state = spec.new_match(spec.options(), 0)
    return {
        "id": spec.id,
        "title": spec.title,
        "summary": spec.summary,
        "default_preset": spec.default_preset,
        "presets": {name: options_to_dict(opts) for name, opts in spec.presets.items()},
        "options": describe_options(spec),
        "players": list(players_for(spec.id)),
        "seats": list(default_state.seats),
    }


_described: list[list[dict[str, Any]]] = []  # the description, once worked out
_describing = threading.Lock()


def describe_games() -> list[dict[str, Any]]:
    """Every game described, worked out once per process: the description never changes while it runs.
    Worked out per request it cost 2.7 ms of CPU (``benchmarks/api_flood.py --kind games``: one client kept a
    core 91% busy), and the first requests at once parsed the games' source in threads together, which
    once failed inside ``ast.parse`` (``SystemError: AST constructor recursion depth mismatch``: a 500)."""
    with _describing:
        if not _described:
            _described.append([describe_game(get_game(game_id)) for game_id in available_games()])
        return _described[0]
