"""Game records (``nines-record/1``): replay a record through the rules and check it.

A record holds the options, the seed (or, for a match dealt from a secret and once it is
over, the ``secret``) and every action; replaying rebuilds the match
from those alone (event sourcing) and checks that the hands dealt, the results and
the scores come out exactly as written.  No I/O here: callers read and write files.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .games import UnknownGame, get_game
from .games.contract import RECORD_FORMAT, GameState, RulesError
from .randomness import DealSource, MatchSecret

__all__ = ["RecordError", "deal_source", "rebuild", "replay"]


class RecordError(ValueError):
    """A record is malformed, or replaying it does not give what it says."""


def rebuild(record: Mapping[str, Any]) -> GameState:
    """Rebuild the match a record describes by replaying its actions (no checks of results)."""
    return _replay(record, check=False)


def replay(record: Mapping[str, Any]) -> GameState:
    """Replay a record, checking every deal, action, result and score against it."""
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
    source = deal_source(record)
    state = spec.new_match(options, source)
    deals = record["deals"]
    for index, deal in enumerate(deals):
        number = deal.get("number", index + 1)
        current = state.record()["deals"]
        if index >= len(current):
            raise RecordError(f"deal {number}: the match was already over after deal {index}")
        if check and current[index].get("hands") != deal.get("hands"):
            raise RecordError(f"deal {number}: the hands dealt from {_source_words(source)} differ from the record's")
        for step, entry in enumerate(deal.get("actions", []), start=1):
            where = f"deal {number}, action {step} ({_describe(entry)})"
            try:
                action = state.action_from_record(entry)
                if entry.get("seat") != state.to_act:
                    raise RecordError(f"{where}: the record says {entry.get('seat')} acted but {state.to_act} was to act")
                state.apply(action)
            except RulesError as error:
                raise RecordError(f"{where}: {error}") from None
            except (KeyError, TypeError) as error:
                raise RecordError(f"{where}: malformed action entry ({error})") from None
        if check:
            mine = state.record()["deals"][index]
            for key in ("result", "scores"):
                if key in deal and mine.get(key) != deal[key]:
                    raise RecordError(f"deal {number}: the {key} replayed ({mine.get(key)}) differ from the record's ({deal[key]})")
    if check and "winners" in record and list(record["winners"]) != state.winners:
        raise RecordError(f"the winners replayed ({state.winners}) differ from the record's ({record['winners']})")
    return state


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
