"""Every reason a computer player gives for a hint can be said in English and in French.

The players give their reasons as :class:`nines.games.contract.Reason` (a message key and parameters, a
parameter possibly itself a keyed phrase); the page fills them into ``web/static/hints.json``.  This walks every
key written in the players' source, then lets every player that can give hints play deals of every game, and
checks each reason: keyed, its sentence in both languages, every parameter the sentence needs given, and no
parameter an English word (the page would show it as it is on a French page).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from nines.bots import make_player, players_for
from nines.games import get_game
from nines.games.contract import Reason
from nines.server.config import ServerConfig
from nines.server.wire.messages import HintMessage

from .message_keys import keys_in_source, placeholders

ROOT = Path(__file__).resolve().parents[1]
BOTS_SRC = ROOT / "src" / "nines" / "bots"
HINTS = json.loads((ROOT / "src" / "nines" / "web" / "static" / "hints.json").read_text(encoding="utf-8"))
REFUSALS = json.loads((ROOT / "src" / "nines" / "web" / "static" / "refusals.json").read_text(encoding="utf-8"))
LANGS = ("en", "fr")
ENGLISH_WORD = re.compile(r"[a-z]{3,}")


def test_every_key_the_players_write_has_both_languages() -> None:
    keys = keys_in_source(BOTS_SRC, written_out=True)
    assert len(keys) > 60, "the players' reasons are keyed"
    for lang in LANGS:
        missing = sorted(keys - set(HINTS[lang]))
        assert not missing, f"no {lang} sentence for {missing}"
    unused = sorted(set(HINTS["en"]) - keys)
    assert not unused, f"sentences no player gives: {unused}"


def test_both_languages_say_the_same_things_differently() -> None:
    assert set(HINTS["en"]) == set(HINTS["fr"])
    assert not set(HINTS["en"]) & set(REFUSALS["en"]), "a hint's key and a refusal's key never collide (the page merges them)"
    for key, english in HINTS["en"].items():
        french = HINTS["fr"][key]
        assert placeholders(french) == placeholders(english), key
        assert french != english, f"{key} is not translated"


def say(key: str, params: dict[str, Any], lang: str) -> str:
    """The sentence as the page fills it in (cards, seats and numbers as they are: enough to check the words)."""
    template = HINTS[lang][key]

    def fill(match: re.Match[str]) -> str:
        value = params[match.group(1)]
        if isinstance(value, dict):
            return say(value["key"], value["params"], lang)
        return " ".join(map(str, value)) if isinstance(value, list) else str(value)

    return re.sub(r"\{(\w+)\}", fill, template)


def check_sayable(key: str, params: dict[str, Any], english: str, seen: dict[str, str]) -> None:
    for lang in LANGS:
        assert key in HINTS[lang], f"{key} ({english}) has no {lang} sentence"
        needed = placeholders(HINTS[lang][key])
        assert needed <= set(params), f"{key}: the {lang} sentence needs {needed - set(params)} ({english})"
    for name, value in params.items():
        if isinstance(value, dict):
            check_sayable(value["key"], value["params"], english, seen)
        elif isinstance(value, str) and not name.endswith("seat") and name != "seat":
            assert not ENGLISH_WORD.search(value), f"{key}: the parameter {name}={value!r} would reach a French page as it is"
        elif isinstance(value, list):
            assert all(not ENGLISH_WORD.search(str(v)) for v in value), f"{key}: {name}={value!r}"
    seen.setdefault(key, english)


HINT_PLAYERS = ServerConfig().hint_players
EXPECTED = {
    "neuf": {"hint.random", "hint.neuf.ismcts_play", "hint.then_keep", "hint.neuf.solved_me"},
    "elyigit": {"hint.random", "hint.elyigit.bid", "hint.elyigit.ismcts_play", "hint.how.solved"},
    "rummy": {"hint.random", "hint.rummy.nothing_useful", "hint.rummy.race_discard", "hint.rummy.planner_play"},
}


@pytest.mark.parametrize("game", ["neuf", "elyigit", "rummy"])
def test_reasons_given_in_deals_can_be_said_in_both_languages(game: str) -> None:
    """Every player that can give hints (and rummy's planner) decides for the acting seat through deals."""
    spec = get_game(game)
    seen: dict[str, str] = {}
    names = [name for name in players_for(game) if name in HINT_PLAYERS or name == "planner"]
    assert set(HINT_PLAYERS) <= set(names)
    for index, name in enumerate(names):
        rng = random.Random(index)
        player = make_player(name, game, random.Random(16))
        state = spec.new_match(spec.options(None), seed=16 + index)
        budget = 200 if name in ("random", "basic") else 36
        for _ in range(budget):
            if state.is_over:
                break
            decision = player.decide(state.view(state.acting_seat))
            reason = decision.reason
            assert isinstance(reason, Reason), f"{name} gave an unkeyed reason: {reason!r}"
            check_sayable(reason.key, reason.params, str(reason), seen)
            assert "{" not in say(reason.key, reason.params, "en")
            # the message the table sends carries the key and parameters with the English sentence
            sent = HintMessage(seq=0, action=str(decision.action), reason=reason, player=name).model_dump()
            assert sent["key"] == reason.key and json.dumps(sent["params"]) and sent["reason"] == str(reason)
            # a search player's every move is costly: let the others move on at random between its decisions
            state.apply(decision.action if name in ("random", "basic") or rng.random() < 0.5 else rng.choice(state.legal_actions()))
    assert EXPECTED[game] <= set(seen), f"never met: {EXPECTED[game] - set(seen)}"
