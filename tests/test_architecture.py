"""The shape of the code: no import circle anywhere in ``src/nines``, and the server in pieces a reader can hold.

Both are read from the source with :mod:`ast` (nothing is imported).  An import counts wherever it is
written: at the top of a module, inside a function, or under ``if TYPE_CHECKING:`` (a circle only the type
checker sees is still a circle a reader has to untangle).  ``from package import name`` is an edge to the
module ``package.name`` when there is one, otherwise to the package itself (its ``__init__``).

The sizes are held for ``src/nines/server`` only: elsewhere some classes are larger by design for now (each
game's rules state, ``RummyState`` above all) and some functions longer (``nines serve``'s options).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "nines"
SERVER = PACKAGE / "server"

LONGEST_FUNCTION = 80
"""Lines, from the ``def`` (or its first decorator) to the end of its body, docstring and comments included."""
LARGEST_CLASS = 400
"""Lines, from the ``class`` (or its first decorator) to the end of its body."""


def _modules() -> dict[str, tuple[Path, bool]]:
    """Every module of the package by its dotted name, with its file and whether it is a package."""
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        modules[".".join(parts)] = (path, is_package)
    return modules


def _is_compiled(package_dir: Path, name: str) -> bool:
    """A compiled extension module (``solver/_core``): a module, but not one of ours to follow."""
    return (package_dir / f"{name}.pyi").exists() or any(package_dir.glob(f"{name}.*.so"))


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, (path, is_package) in modules.items():
        package = name if is_package else name.rpartition(".")[0]
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                edges.update(alias.name for alias in node.names if alias.name in modules)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                for alias in node.names:
                    submodule = f"{target}.{alias.name}"
                    if submodule in modules:
                        edges.add(submodule)
                    elif target in modules and not _is_compiled(modules[target][0].parent, alias.name):
                        edges.add(target)
        edges.discard(name)
        graph[name] = edges
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    cycles.append(sorted(component))
    return cycles


def test_no_module_in_src_imports_itself_through_others() -> None:
    graph = import_graph()
    assert "nines.server.tables.manager" in graph and graph["nines.server.app"], "the graph was not read"
    assert import_cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert import_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []


def _sizes(root: Path) -> list[tuple[int, str, str]]:
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
                assert node.end_lineno is not None
                kind = "class" if isinstance(node, ast.ClassDef) else "function"
                found.append((node.end_lineno - first + 1, kind, f"{path.relative_to(SRC)}:{node.lineno} {node.name}"))
    return found


@pytest.mark.parametrize(("kind", "most"), [("function", LONGEST_FUNCTION), ("class", LARGEST_CLASS)])
def test_the_server_has_no_function_or_class_too_long_to_read(kind: str, most: int) -> None:
    sizes = [(lines, where) for lines, found_kind, where in _sizes(SERVER) if found_kind == kind]
    assert sizes, "nothing was measured"
    assert [f"{where}: {lines} lines" for lines, where in sizes if lines > most] == []
