"""Game records (``nines-record/1``): replay a record through the rules and check it.

A record holds the options, the seed (or, for a match dealt from a secret and once it is
over, the ``secret``) and every action; replaying rebuilds the match from those alone
(event sourcing).  Everything else a record holds (hands, tricks,
the rummy stock and table, results, scores, the score sheet, the winners) follows
from them, so :func:`replay` writes the record of the match it rebuilt and compares
it with the given one field by field: a record that says anything the rules did not
do is refused with the first difference (deal, action, field, what the replay gives,
what the record says).  Only :data:`UNCHECKED` fields, which the rules cannot know,
are taken on trust.  docs/records.md describes the format.  No I/O here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .games import UnknownGame, get_game
from .games.contract import ACTION_NOTES, RECORD_FORMAT, GameState, RulesError
from .randomness import DealSource, MatchSecret

__all__ = ["ACTION_NOTES", "UNCHECKED", "RecordError", "deal_source", "rebuild", "replay"]

UNCHECKED = frozenset({"players", "table"})
"""Top-level fields read as information only: who sat where, and the web table's id."""


_INPUTS = frozenset({"format", "game", "seed", "secret", "deals"})
"""What the replay is made from, or checked as it goes (deals).  The options are compared as the
replay writes them: every option, defaults included."""


class RecordError(ValueError):
    """A record is malformed, or replaying it does not give what it says."""


def rebuild(record: Mapping[str, Any]) -> GameState:
    """Rebuild the match a record describes by replaying its actions (no checks of results)."""
    return _replay(record, check=False)


def replay(record: Mapping[str, Any]) -> GameState:
    """Replay a record, checking every field of it against the match the replay rebuilds."""
    return _replay(record, check=True)


def _replay(record: Mapping[str, Any], check: bool) -> GameState:
    if not isinstance(record, Mapping):
        raise RecordError("a record is a JSON object")
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a Nines record: 'format' should be {RECORD_FORMAT!r}, found {record.get('format')!r}")
    for key in ("game", "options", "seed", "deals"):
        if key not in record:
            raise RecordError(f"the record has no {key!r}")
    try:
        spec = get_game(record["game"])
        options = spec.options_from_record(record["options"])
    except (UnknownGame, RulesError) as error:
        raise RecordError(str(error)) from None
    deals = record["deals"]
    if not isinstance(deals, list) or not all(isinstance(d, Mapping) for d in deals):
        raise RecordError("'deals' is a list of deal objects")
    source = deal_source(record)
    state = spec.new_match(options, source)
    limit = record.get("deal_limit")
    if limit is not None:
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise RecordError("'deal_limit' is a whole number of deals, at least 1")
        state.deal_limit = limit
    for index, deal in enumerate(deals):
        number = deal.get("number", index + 1)
        # the replay's own record is only read here: shared_record() hands out finished deals' kept records
        # rather than a copy of every deal at every step
        if index >= len(state.shared_record()["deals"]):
            raise RecordError(f"deal {number}: the match was already over after deal {index}")
        if check:
            dealt = state.shared_record()["deals"][index].get("hands")
            if dealt != deal.get("hands"):
                raise RecordError(
                    f"deal {number}: the hands dealt from {_source_words(source)} differ from the record's; "
                    + _first_difference(dealt, deal.get("hands"), "hands")
                )
        actions = deal.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError(f"deal {number}: 'actions' is a list")
        for step, entry in enumerate(actions, start=1):
            where = f"deal {number}, action {step} ({_describe(entry)})"
            if not isinstance(entry, Mapping):
                raise RecordError(f"{where}: an action is an object with its 'seat' and 'action'")
            bad_note = next((k for k in ACTION_NOTES if k in entry and not isinstance(entry[k], bool)), None)
            if bad_note is not None:
                raise RecordError(f"{where}: {bad_note!r} is a note, true or false (found {entry[bad_note]!r})")
            try:
                action = state.action_from_record(entry)  # notes of who decided are not read
                if entry.get("seat") != state.to_act:
                    raise RecordError(f"{where}: the record says {entry.get('seat')} acted but {state.to_act} was to act")
                state.apply(action)
            except RulesError as error:
                raise RecordError(f"{where}: {error}") from None
            except (KeyError, TypeError, ValueError) as error:
                raise RecordError(f"{where}: malformed action entry ({error})") from None
        if check:
            _check_deal(state.shared_record()["deals"][index], deal, number)
    if check:
        _check_match(state.shared_record(), record)
    return state


def _check_deal(mine: Mapping[str, Any], theirs: Mapping[str, Any], number: Any) -> None:
    """Every field of one deal against the replay: actions one by one, then the rest in order."""
    for key in _keys(mine, theirs):
        if key == "actions":
            if len(mine["actions"]) != len(theirs["actions"]):
                raise RecordError(
                    f"deal {number}: field 'actions' differs: the replay's deal has {len(mine['actions'])} actions, "
                    f"the record's {len(theirs['actions'])} (the deal ended at action {len(mine['actions'])})"
                )
            for step, (ours, given) in enumerate(zip(mine["actions"], theirs["actions"], strict=True), start=1):
                if ours != _without_notes(given):
                    raise RecordError(f"deal {number}, action {step} ({_describe(given)}): " + _first_difference(ours, given, ""))
            continue
        if mine.get(key, _MISSING) != theirs.get(key, _MISSING):
            raise RecordError(f"deal {number}: " + _first_difference(mine.get(key, _MISSING), theirs.get(key, _MISSING), key))


def _check_match(mine: Mapping[str, Any], theirs: Mapping[str, Any]) -> None:
    """The match's own fields (deals were checked one by one as they were replayed)."""
    if len(mine["deals"]) != len(theirs["deals"]):
        raise RecordError(
            f"the replay has {len(mine['deals'])} deals (the last one begun when the one before ended), "
            f"the record {len(theirs['deals'])}: the record differs from its replay"
        )
    for key in _keys(mine, theirs):
        if key in UNCHECKED or key in _INPUTS:
            continue
        if mine.get(key, _MISSING) != theirs.get(key, _MISSING):
            raise RecordError(_first_difference(mine.get(key, _MISSING), theirs.get(key, _MISSING), key))


def _without_notes(entry: Mapping[str, Any]) -> Mapping[str, Any]:
    """An action's own fields, without the notes of who decided it (compared with the replay's)."""
    if not any(k in entry for k in ACTION_NOTES):
        return entry
    return {k: v for k, v in entry.items() if k not in ACTION_NOTES}


class _Missing:
    def __repr__(self) -> str:
        return "nothing"


_MISSING: Any = _Missing()


def _keys(mine: Mapping[str, Any], theirs: Mapping[str, Any]) -> list[str]:
    """The replay's fields in its order, then any field only the record has."""
    return list(mine) + [k for k in theirs if k not in mine]


def _first_difference(ours: Any, given: Any, path: str) -> str:
    """Where two JSON values first differ, as "field 'a.b[2]': the replay gives X, the record says Y"."""
    if isinstance(ours, Mapping) and isinstance(given, Mapping):
        for key in _keys(ours, given):
            a, b = ours.get(key, _MISSING), given.get(key, _MISSING)
            if a != b:
                return _first_difference(a, b, f"{path}.{key}" if path else str(key))
    elif isinstance(ours, Sequence) and isinstance(given, Sequence) and not isinstance(ours, str) and not isinstance(given, str):
        for i, (a, b) in enumerate(zip(ours, given, strict=False)):  # the lengths are compared after
            if a != b:
                return _first_difference(a, b, f"{path}[{i}]")
        if len(ours) != len(given):
            return f"field '{path}' differs: the replay gives {len(ours)} entries, the record {len(given)}"
    if given is _MISSING:
        return f"field '{path}' is missing: the replay gives {ours!r}"
    if ours is _MISSING:
        return f"field '{path}' is not part of such a record (the record says {given!r})"
    return f"field '{path}' differs: the replay gives {ours!r}, the record says {given!r}"


def deal_source(record: Mapping[str, Any]) -> DealSource:
    """Where a record's deals come from: its ``secret`` (a match dealt from a secret) or its int ``seed``."""
    secret = record.get("secret")
    if secret is not None:
        try:
            return MatchSecret.from_hex(secret)
        except ValueError as error:
            raise RecordError(f"the record's secret cannot be read: {error}") from None
    seed = record.get("seed")
    if seed is None:
        raise RecordError(
            "the record has neither a seed nor a secret: a match dealt from a secret carries its secret "
            "only once the match is over, so its deals cannot be rebuilt before then"
        )
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise RecordError(f"the record's seed is a whole number, not {seed!r}")
    try:
        return int(seed)
    except ValueError:
        raise RecordError(f"the record's seed is a whole number, not {seed!r}") from None


def _source_words(source: DealSource) -> str:
    return "the record's secret" if isinstance(source, MatchSecret) else f"seed {source}"


def _describe(entry: Any) -> str:
    if isinstance(entry, Mapping):
        return " ".join(str(v) for v in entry.values())
    return repr(entry)
