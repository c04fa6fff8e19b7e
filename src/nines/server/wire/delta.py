"""What changed between two states a socket is shown, as a short list of changes.

After every move a socket used to receive its whole view again, which grows with the match
(every trick, every deal's score line).  Now it receives a ``patch``: the changes that turn the
state it last received into the new one.  A history that grew is sent as the items added to
its end, so a patch is about as long as what happened, not as long as the match.  A client
that missed a patch (its ``base`` is not the revision the client holds) asks for the whole
state again (``resync``).

A change is a short JSON list, ``path`` being the keys and list positions leading to the value:

- ``["s", path, value]``: set the value at ``path`` (a new key, or a replaced value);
- ``["a", path, items]``: append ``items`` to the list at ``path``;
- ``["d", path]``: delete the key at ``path``.

``apply(old, diff(old, new)) == new`` for JSON values whose fields keep their type from one state to the
next, as views do: parts that compare equal are passed over without being walked, and Python counts
``0 == False`` and ``1 == 1.0`` equal (the tests check it on random values, keys in order too);
``web/static/js/delta.js`` applies the same changes in the browser.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any, Protocol

import orjson

from ...games.contract import copy_record

Path = list[str | int]
Change = list[Any]


def diff(old: Any, new: Any) -> list[Change]:
    """The changes that turn ``old`` into ``new`` (both plain JSON values)."""
    changes: list[Change] = []
    _diff(old, new, [], changes)
    return changes


def _diff(old: Any, new: Any, path: Path, changes: list[Change]) -> None:
    if old is new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        if len(old) != len(new) or list(old) != list(new):  # the same keys in the same order (nearly always): no key went
            if not _same_order(old, new):
                changes.append(["s", path, new])  # keys are shown in order (seats, say): keep it exact
                return
            changes.extend(["d", [*path, key]] for key in old if key not in new)
        for key, value in new.items():
            if key not in old:
                changes.append(["s", [*path, key], value])
                continue
            before = old[key]
            if before is value or before == value:  # equal parts are passed over at C speed, not walked
                continue
            if _walked(before, value):
                _diff(before, value, [*path, key], changes)
            else:  # a value of its own (no call to say so: most changes of a move are these)
                changes.append(["s", [*path, key], value])
        return
    if isinstance(old, list) and isinstance(new, list):
        common = min(len(old), len(new))
        if len(new) < len(old):
            # a list that shrank (a new deal clears the trick): sent whole unless only its tail went
            changes.append(["s", path, new])
            return
        inner: list[Change] = []
        for index in range(common):
            before, value = old[index], new[index]
            if before is value or before == value:
                continue
            if _walked(before, value):
                _diff(before, value, [*path, index], inner)
            else:
                inner.append(["s", [*path, index], value])
        if len(inner) > 1 and len(inner) * 2 > common:
            changes.append(["s", path, new])  # most of it changed: the new list is shorter to say
            return
        changes.extend(inner)
        if len(new) > common:
            changes.append(["a", path, new[common:]])
        return
    if type(old) is not type(new) or old != new:
        changes.append(["s", path, new])


def _walked(old: Any, new: Any) -> bool:
    """Whether two unequal values are compared part by part (two objects, or two lists): anything else is set whole."""
    return (isinstance(old, dict) and isinstance(new, dict)) or (isinstance(old, list) and isinstance(new, list))


def _same_order(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Whether setting new keys at the end and deleting gone ones gives ``new``'s order of keys."""
    kept = [key for key in old if key in new]
    return list(new)[: len(kept)] == kept


def apply(document: Any, changes: list[Change]) -> Any:
    """A copy of ``document`` with the changes made (the document itself is left as it was)."""
    return _changed(copy_record(document), changes, copy_record)


def _changed(document: Any, changes: list[Change], take: Callable[[Any], Any]) -> Any:
    """``document`` with the changes made in place, each value put in as ``take`` gives it (the new document:
    a change at the top replaces it)."""
    root = [document]  # a holder, so that a change at the top is like any other
    for change in changes:
        op, path = change[0], [0, *change[1]]
        parent = root
        for key in path[:-1]:
            parent = parent[key]
        last = path[-1]
        if op == "s":
            parent[last] = take(change[2])
        elif op == "a":
            parent[last].extend(take(change[2]))
        elif op == "d":
            del parent[last]
        else:
            raise ValueError(f"unknown change {op!r}")
    return root[0]


class Socket(Protocol):
    seat: str | None

    def send_text(self, text: str) -> None: ...


class Shown:
    """What each socket of one table was last shown, so that the next change reaches it as a patch.

    Each change gets a revision number.  Every distinct body (one per seat, one for spectators)
    is built, compared and serialized once per change, and the same text is queued to every
    socket that shows it.  A socket whose last revision is not the one the patch starts from
    (it opened, or asked again, in between) gets the whole state instead.

    With several processes, the spectators' frames of a table are worked out by the process that owns it
    (``tables/fanout.py``) and the others forward them as they came (:meth:`forward`), keeping the state they
    lead to for sockets that join.  The revisions of each process start at a random number, so that a patch of
    one never seems to follow a state another sent.
    """

    def __init__(self) -> None:
        self.rev = random.randrange(1 << 40)  # (under 2**53: a number a page's JavaScript holds exactly)
        self._bodies: dict[str | None, tuple[int, dict[str, Any]]] = {}  # per seat: last revision sent, body
        self._delivered: dict[int, int] = {}  # id(socket) -> revision it holds
        self._kept: tuple[int, dict[str, Any]] | None = None  # the spectators' state another process last sent
        self._kept_text: str | None = None  # ...as a whole state's text, once a socket needed it

    def change(self, sockets: Iterable[Socket], body_for: Callable[[str | None], dict[str, Any]],
               also: tuple[str | None, ...] = ()) -> dict[str | None, _Plan]:
        """Queue every socket what changed (call under the table's lock, after the change); the views ``also``
        are worked out even when no socket here shows them (the spectators', for other processes).  The plan of
        each view worked out."""
        sockets = list(sockets)
        if not sockets and not also:
            return {}
        self.rev += 1
        plans: dict[str | None, _Plan] = {seat: self._plan(seat, _body(body_for(seat))) for seat in also}
        for socket in sockets:
            plan = plans.get(socket.seat)
            if plan is None:
                plan = plans[socket.seat] = self._plan(socket.seat, _body(body_for(socket.seat)))
            held = self._delivered.get(id(socket))
            if held == plan.rev:
                continue  # nothing changed in this view
            if held == plan.base and plan.patch is not None:
                socket.send_text(plan.patch)
            else:
                socket.send_text(plan.whole())
            self._delivered[id(socket)] = plan.rev
        for seat, plan in plans.items():
            self._bodies[seat] = (plan.rev, plan.body)
        if None in plans:
            self._kept = self._kept_text = None  # shown from here: what another process sent is behind
        return plans

    def _plan(self, seat: str | None, body: dict[str, Any]) -> _Plan:
        before = self._bodies.get(seat)
        if before is None:
            return _Plan(self.rev, None, body, None)
        base, old = before
        changes = diff(old, body)
        if not changes:
            return _Plan(base, base, old, None)  # the same view: it keeps its revision
        patch = {"type": "patch", "seq": body["seq"], "rev": self.rev, "base": base, "changes": changes}
        return _Plan(self.rev, base, body, _text(patch))

    def whole(self, socket: Socket, body: dict[str, Any]) -> None:
        """Queue one socket the whole state (it opened, or asked for it again)."""
        body = _body(body)
        before = self._bodies.get(socket.seat)
        if before is not None and before[1] == body:
            rev = before[0]  # it holds what the others hold: the next patch suits it too
        else:
            self.rev += 1
            rev = self.rev
            self._bodies[socket.seat] = (rev, body)
            # the others of this seat hold an older body: their next message is a whole state
        socket.send_text(_full(body, rev))
        self._delivered[id(socket)] = rev

    def forget(self, socket: Socket) -> None:
        self._delivered.pop(id(socket), None)

    def last_rev(self, seat: str | None) -> int | None:
        """The revision of the last state of ``seat``'s view worked out here (``None``: none yet)."""
        before = self._bodies.get(seat)
        return None if before is None else before[0]

    def last_whole(self, seat: str | None) -> tuple[int, str] | None:
        """The last state of ``seat``'s view worked out here, as the revision and text of a whole state."""
        before = self._bodies.get(seat)
        return None if before is None else (before[0], _full(before[1], before[0]))

    def forward(self, sockets: Iterable[Socket], rev: int, base: int | None, text: str) -> bool:
        """Queue the spectators' sockets a frame another process worked out: a whole state (``base`` None), or a
        patch from revision ``base``, the very text it came as.  A socket holding neither ``base`` nor ``rev``
        (it joined, or asked again) gets the whole state it leads to.  ``False``, nothing sent: a patch from a
        state not kept here (a frame was missed): the caller asks for the whole."""
        kept = self._kept
        if base is None:
            body = _body(orjson.loads(text))
            self._kept_text = text
        elif kept is not None and kept[0] == base:
            # the kept state is this object's own (parsed from frames, never shared): changed in place
            body = _changed(kept[1], orjson.loads(text)["changes"], _same)
            self._kept_text = None
        else:
            self._kept = self._kept_text = None
            return False
        self._kept = (rev, body)
        for socket in sockets:
            held = self._delivered.get(id(socket))
            if held == rev:
                continue
            socket.send_text(text if base is None or held == base else self._kept_whole())
            self._delivered[id(socket)] = rev
        return True

    @property
    def kept_rev(self) -> int | None:
        """The revision of the spectators' state kept from another process's frames (``None``: none kept)."""
        return None if self._kept is None else self._kept[0]

    def kept_whole(self, socket: Socket) -> bool:
        """Queue one spectator's socket the whole state another process's frames lead to; ``False`` if none is kept."""
        if self._kept is None:
            return False
        socket.send_text(self._kept_whole())
        self._delivered[id(socket)] = self._kept[0]
        return True

    def _kept_whole(self) -> str:
        assert self._kept is not None
        if self._kept_text is None:
            self._kept_text = _full(self._kept[1], self._kept[0])
        return self._kept_text


class _Plan:
    """What one view's sockets are sent for one change: a patch from ``base``, or the whole body."""

    __slots__ = ("_whole", "base", "body", "patch", "rev")

    def __init__(self, rev: int, base: int | None, body: dict[str, Any], patch: str | None) -> None:
        self.rev = rev
        self.base = base
        self.body = body
        self.patch = patch
        self._whole: str | None = None

    def whole(self) -> str:
        if self._whole is None:
            self._whole = _full(self.body, self.rev)
        return self._whole

    def frame(self) -> tuple[int, int | None, str] | None:
        """This change of the view for other processes' sockets: its revision, the revision it starts from
        (``None``: a whole state) and its text; ``None`` when the view did not change."""
        if self.patch is not None:
            assert self.base is not None
            return self.rev, self.base, self.patch
        if self.base is None:
            return self.rev, None, self.whole()
        return None


def _same(value: Any) -> Any:
    return value


def _body(message: dict[str, Any]) -> dict[str, Any]:
    """The state's data without its ``type`` and ``rev`` (a body made without them is taken as it is: kept, never changed)."""
    if "type" not in message and "rev" not in message:
        return message
    return {key: value for key, value in message.items() if key not in ("type", "rev")}


def _full(body: dict[str, Any], rev: int) -> str:
    return _text({"type": "state", **body, "rev": rev})


def _text(message: dict[str, Any]) -> str:
    """A message as the JSON text sent (orjson: a few times faster than ``json``, and every view's message
    after every move is encoded)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
