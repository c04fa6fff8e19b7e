"""The lock (uv.lock) and the ranges (pyproject.toml) agree: what the README's commands install is what the
package asks for.

``make run`` and ``make test`` install with ``uv sync --locked``, which refuses a lock that no longer matches
pyproject.toml; these tests say the same thing offline, in the suite, and name what disagrees.  After changing a
range: ``.tools/bin/uv lock`` (adds or moves only what the change needs) or ``make lock`` (the newest of all)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent

Wanted = tuple[str, frozenset[str], str, str | None]  # name, extras, version range, extra of the project


def _pyproject() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _lock() -> dict[str, Any]:
    return tomllib.loads((ROOT / "uv.lock").read_text(encoding="utf-8"))


def _project_in_lock(lock: dict[str, Any]) -> dict[str, Any]:
    name = canonicalize_name(_pyproject()["project"]["name"])
    (entry,) = [p for p in lock["package"] if p["name"] == name]
    return entry


def _wanted_by_pyproject() -> set[Wanted]:
    project = _pyproject()["project"]
    wanted: set[Wanted] = set()
    groups: list[tuple[str | None, list[str]]] = [(None, project["dependencies"])]
    groups += list(project.get("optional-dependencies", {}).items())
    for extra, lines in groups:
        for line in lines:
            requirement = Requirement(line)
            wanted.add((canonicalize_name(requirement.name), frozenset(requirement.extras),
                        str(requirement.specifier), extra))
    return wanted


def _wanted_by_lock() -> set[Wanted]:
    wanted: set[Wanted] = set()
    for entry in _project_in_lock(_lock())["metadata"]["requires-dist"]:
        marker = entry.get("marker")
        extra = marker.removeprefix("extra == '").removesuffix("'") if marker else None
        specifier = str(Requirement(f"x{entry.get('specifier', '')}").specifier)  # the same spelling as above
        wanted.add((canonicalize_name(entry["name"]), frozenset(entry.get("extras", [])), specifier, extra))
    return wanted


def test_the_lock_was_made_from_these_ranges() -> None:
    in_pyproject, in_lock = _wanted_by_pyproject(), _wanted_by_lock()
    assert in_pyproject == in_lock, (
        "pyproject.toml and uv.lock disagree; run `.tools/bin/uv lock` (or `make lock`) and commit uv.lock.\n"
        f"only in pyproject.toml: {sorted(in_pyproject - in_lock, key=str)}\n"
        f"only in uv.lock: {sorted(in_lock - in_pyproject, key=str)}"
    )


def test_every_locked_version_is_inside_its_range() -> None:
    lock = _lock()
    versions: dict[str, list[Version]] = {}
    for entry in lock["package"]:
        if "version" in entry:
            versions.setdefault(entry["name"], []).append(Version(entry["version"]))
    for name, _extras, specifier, _extra in _wanted_by_pyproject():
        locked = versions.get(name)
        assert locked, f"{name} is asked for but not in uv.lock"
        for version in locked:  # one per Python version range where they differ
            assert Requirement(f"{name}{specifier}").specifier.contains(version, prereleases=True), (
                f"uv.lock holds {name} {version}, outside {specifier or 'any'}"
            )


def test_the_python_range_and_the_builders_match() -> None:
    pyproject, lock = _pyproject(), _lock()
    assert lock["requires-python"] == pyproject["project"]["requires-python"]
    constraints = {Requirement(line) for line in pyproject["tool"]["uv"]["build-constraint-dependencies"]}
    locked = {Requirement(f"{c['name']}{c['specifier']}") for c in lock["manifest"]["build-constraints"]}
    assert {str(c) for c in constraints} == {str(c) for c in locked}
    assert all(str(c.specifier).startswith("==") for c in constraints), "the solver core's builder is pinned"


def test_every_locked_file_has_a_hash() -> None:
    """A locked install checks each file it downloads against the hash the lock recorded."""
    for entry in _lock()["package"]:
        if "editable" in entry.get("source", {}):
            continue
        files = [entry["sdist"]] if "sdist" in entry else []
        files += entry.get("wheels", [])
        assert files, f"{entry['name']} has no file in uv.lock"
        assert all(str(f.get("hash", "")).startswith("sha256:") for f in files), entry["name"]
