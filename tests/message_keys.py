"""Finding the message keys the code writes, for the tests that check each has its text in every language."""

from __future__ import annotations

import ast
import re
from pathlib import Path


def placeholders(template: str) -> set[str]:
    """The ``{name}`` parameters a message text fills in."""
    return set(re.findall(r"\{(\w+)\}", template))


def keys_in_source(folder: Path, *, also_of: bool = False, written_out: bool = False) -> set[str]:
    """The first argument of every ``Reason(...)`` under ``folder`` (and of every ``Error.of(...)`` with
    ``also_of``), both branches of an ``if``.  ``written_out``: every such key must be a literal, so that
    no key escapes the search."""
    found: set[str] = set()

    def constants(node: ast.AST) -> list[str]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [node.value]
        if isinstance(node, ast.IfExp):
            return constants(node.body) + constants(node.orelse)
        return []

    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            if (isinstance(func, ast.Name) and func.id == "Reason") or (
                also_of and isinstance(func, ast.Attribute) and func.attr == "of"
            ):
                keys = constants(node.args[0])
                assert keys or not written_out, f"{path.name}:{node.lineno}: a key is written out, so the tests can find it"
                found.update(keys)
    return found
