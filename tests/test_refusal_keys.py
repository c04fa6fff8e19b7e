"""Every refusal the rules or the server can give has a sentence in English and in French.

The rules raise errors with a message key and parameters (``nines.games.contract.Reason``); the page fills
them into ``web/static/refusals.json``.  This walks every key written in the rules, and plays random deals of
every game trying moves the rules refuse (cards that may not be played, moves of another phase, moves out of
turn, moves written wrongly), checking each refusal's key and parameters against both languages.
"""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path
from typing import Any

import pytest

from nines.games import get_game
from nines.games.contract import IllegalAction, MatchOver, OptionsError, OutOfTurn, RulesError
from nines.server.wire.messages import ErrorCode

from .message_keys import keys_in_source, placeholders

ROOT = Path(__file__).resolve().parents[1]
GAMES_SRC = ROOT / "src" / "nines" / "games"
TABLE = json.loads((ROOT / "src" / "nines" / "web" / "static" / "refusals.json").read_text(encoding="utf-8"))
LANGS = ("en", "fr")


def test_the_rules_write_their_keys_and_every_one_has_both_languages() -> None:
    keys = keys_in_source(GAMES_SRC, also_of=True)
    assert len(keys) > 100, "the rules' refusals are keyed"
    keys |= {cls.default_key for cls in (RulesError, IllegalAction, OutOfTurn, MatchOver, OptionsError)}
    for lang in LANGS:
        missing = sorted(keys - set(TABLE[lang]))
        assert not missing, f"no {lang} sentence for {missing}"


def test_every_server_refusal_has_both_languages() -> None:
    for lang in LANGS:
        missing = [code.value for code in ErrorCode if f"server.{code.value}" not in TABLE[lang]]
        assert not missing, f"no {lang} sentence for the server's {missing}"


def test_every_keyed_server_refusal_has_both_languages() -> None:
    """The server's own refusals of a table's life (seats, names, links, limits) are keyed where they are raised."""
    found: set[str] = set()
    for path in (ROOT / "src" / "nines" / "server").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Reason" and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    found.add(first.value)
    assert {"server.seat_taken", "server.name_owned", "server.claim_used", "name.angle", "server.limit_tables"} <= found
    for lang in LANGS:
        missing = sorted(found - set(TABLE[lang]))
        assert not missing, f"no {lang} sentence for {missing}"


def test_both_languages_say_the_same_things_differently() -> None:
    assert set(TABLE["en"]) == set(TABLE["fr"])
    for key, english in TABLE["en"].items():
        french = TABLE["fr"][key]
        assert placeholders(french) == placeholders(english), key
        assert french != english, f"{key} is not translated"


def refusal(state: Any, action: str, by: str | None = None) -> RulesError | None:
    try:
        state.check(state.parse_action(action), by=by)
    except RulesError as error:
        return error
    return None


def check_sayable(error: RulesError, seen: dict[str, str]) -> None:
    for lang in LANGS:
        assert error.key in TABLE[lang], f"{error.key} ({error}) has no {lang} sentence"
        needed = placeholders(TABLE[lang][error.key])
        assert needed <= set(error.params), f"{error.key}: the {lang} sentence needs {needed - set(error.params)} ({error})"
    seen.setdefault(error.key, str(error))


def tries(state: Any) -> list[str]:
    """Moves to offer at this position: every card of the deck, every call, every rummy gesture on the hand."""
    view = state.view(state.acting_seat)
    hand = [str(c) for c in getattr(view, "hand", [])]
    words = ["exchange", "keep", "pass", "bid 1", "bid 5", "bid 9", "bid 12", "trump H", "trump NT", "draw stock",
             "draw discard", "play 9X", "discard 9X", "fold", ""]
    moves = [f"play {c}" for c in hand] + ["play AS", "play 2C"]
    if state.game_id == "rummy":
        moves += [f"discard {c}" for c in hand] + ["discard AS"]
        moves += [f"lay {' '.join(hand[i:i + n])}" for n in (1, 3, 4) for i in range(max(1, len(hand) - n))]
        moves += [f"extend {s} {c}" for s in ("H", "S", "9") for c in hand[:3]] + [f"swap H {c}" for c in hand[:2]]
        moves += ["lay JK", "lay JK=JK 7H 8H", "extend X 9H", "swap H JK", "lay", "extend H", "swap H", "discard"]
    return words + moves


@pytest.mark.parametrize("game", ["neuf", "elyigit", "rummy"])
def test_refusals_met_in_random_deals_can_be_said_in_both_languages(game: str) -> None:
    spec = get_game(game)
    seen: dict[str, str] = {}
    rng = random.Random(16)
    presets = [None] + [name for name in spec.presets if name != spec.default_preset][:4]
    for preset in presets:
        state = spec.new_match(spec.options(preset), seed=rng.randrange(1000))
        for _ in range(160):
            if state.is_over:
                break
            for move in tries(state):
                error = refusal(state, move)
                if error is not None:
                    check_sayable(error, seen)
            other = next(s for s in state.seats if s != state.acting_seat)
            error = refusal(state, state.legal_actions()[0].__str__(), by=other)
            assert isinstance(error, OutOfTurn)
            check_sayable(error, seen)
            state.apply(rng.choice(state.legal_actions()))
    expected = {"turn.not_yours", "syntax.card"} | {
        "neuf": {"neuf.exchange_now", "play.follow_suit", "play.not_in_hand", "syntax.neuf"},
        "elyigit": {"auction.too_high", "trump.now", "play.follow_suit", "syntax.elyigit"},
        "rummy": {"rummy.draw_first", "rummy.drawn_already", "rummy.not_in_hand", "syntax.rummy"},
    }[game]
    assert expected <= set(seen), f"never met: {expected - set(seen)}"


@pytest.mark.parametrize("game", ["neuf", "elyigit", "rummy"])
def test_refused_options_can_be_said_in_both_languages(game: str) -> None:
    spec = get_game(game)
    seen: dict[str, str] = {}
    tried = [{"no_such_option": 1}]
    for option in spec.options_type.__dataclass_fields__:
        tried += [{option: "nonsense"}, {option: -5}, {option: 99}, {option: ""}]
    for overrides in tried:
        try:
            spec.options(None, overrides)
        except OptionsError as error:
            check_sayable(error, seen)
    with pytest.raises(OptionsError) as refused:
        spec.options("no-such-preset")
    check_sayable(refused.value, seen)
    assert "options.unknown" in seen and "options.preset" in seen
