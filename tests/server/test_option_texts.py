"""Every option the setup page offers has a name and one sentence for players in English and French."""

from __future__ import annotations

import json
from pathlib import Path

from nines.server.http.describe import describe_games

TEXTS = json.loads((Path(__file__).resolve().parents[2] / "src" / "nines" / "web" / "static" / "options.json").read_text(encoding="utf-8"))


def test_every_option_of_every_game_is_named_and_explained_in_both_languages() -> None:
    for game in describe_games():
        for option in game["options"]:
            name = option["name"]
            for part in ("labels", "help"):
                assert name in TEXTS[part], f"{game['id']}: {name} has no {part}"
                english, french = TEXTS[part][name]
                assert english and french and english != french, f"{name}: {part} not translated"
            english, french = TEXTS["help"][name]
            # one short sentence, not a docstring: no code markup, no None
            for text in (english, french):
                assert len(text) <= 120 and text.endswith(".") and "``" not in text and "None" not in text, text
