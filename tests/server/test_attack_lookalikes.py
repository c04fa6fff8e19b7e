"""Attack: names that look like another person's.

Found by the ninth round's probe: "Carol" and "Car\\u034fol" (a combining grapheme joiner), "Carol\\ufe0f" (a
variation selector), "Carol\\u3164" (a Hangul filler) were different names with different owners, and so were
Cyrillic and Greek look-alikes ("\\u0421arol").  Now invisible characters (Unicode's default-ignorables, but a
joiner between emoji and an emoji's presentation selector) are refused in a name, and names are compared by
their confusable skeleton (Unicode TS #39, ICU's spoof checker): a name whose skeleton another name owns is
refused (409).  The look-alikes tried are drawn from the library's own confusables data: every character whose
skeleton is that of a letter of the names below, put in that letter's place.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable

import icu
import pytest
from starlette.testclient import TestClient

from nines.server.guard.limits import check_name, name_looks

from .helpers import another_browser

NAMES = ("Carol", "Maria", "Olivia", "Bex")


@functools.cache
def _confusables() -> dict[str, list[str]]:
    """For each letter of :data:`NAMES`, every other character whose skeleton is that letter's (from ICU's
    confusables data, as the server reads it)."""
    spoof = icu.SpoofChecker()
    letters = {spoof.getSkeleton(0, letter): letter for letter in set("".join(NAMES))}
    found: dict[str, list[str]] = {letter: [] for letter in letters.values()}
    for code in range(0x110000):
        char = chr(code)
        if unicodedata.category(char) in ("Cn", "Co", "Cs", "Cc"):
            continue
        letter = letters.get(spoof.getSkeleton(0, char))
        if letter is not None and char != letter:
            found[letter].append(char)
    return found


def _look_alikes(name: str) -> list[str]:
    """``name`` with each of its letters replaced, one at a time, by each of its confusables."""
    return [name[:at] + alike + name[at + 1:] for at, letter in enumerate(name) for alike in _confusables()[letter]]


def _ignorables() -> list[str]:
    found = icu.UnicodeSet("[:Default_Ignorable_Code_Point:]")
    return [char for char in found if len(char) == 1]


def test_the_confusables_data_has_look_alikes_for_every_letter_tried() -> None:
    # the list below is not a hand list: hundreds of characters from every script
    counts = {letter: len(alikes) for letter, alikes in _confusables().items()}
    assert all(count >= 5 for count in counts.values()), counts
    assert sum(counts.values()) > 300
    for expected in ("\u0421", "\u03f9", "\u0430", "\u03b1", "\u043e", "\u03bf", "\u0406", "\u0399"):  # Cyrillic and Greek
        assert any(expected in alikes for alikes in _confusables().values()), expected


def test_every_look_alike_of_a_name_shares_its_look() -> None:
    for name in NAMES:
        looks = name_looks(name)
        for alike in _look_alikes(name):
            assert name_looks(alike) & looks, (name, alike, [f"U+{ord(c):04X}" for c in alike])


@pytest.mark.parametrize("alike", ["Car\u034fol", "Carol\ufe0f", "Carol\u3164", "C\u034farol", "Carol\ufe00", "Carol\U000e0100",
                                   "Car\u180bol", "Carol\u17b4", "Carol\u115f", "Carol\uffa0", "Carol\u2064", "Carol\U000e0041"])
def test_invisible_marks_are_refused_in_a_name(alike: str) -> None:
    with pytest.raises(ValueError, match="invisible"):
        check_name(alike)


def test_every_default_ignorable_is_refused_inside_a_name_and_none_changes_a_look() -> None:
    ignorables = _ignorables()
    assert len(ignorables) > 4000  # the set is Unicode's, not a hand list
    for char in ignorables:
        with pytest.raises(ValueError):
            check_name(f"Car{char}ol")
        assert name_looks(f"Car{char}ol") & name_looks("Carol"), f"U+{ord(char):04X}"


@pytest.mark.parametrize(("owned", "alike"), [("Carol", "Carol "), ("Carol", " Carol"), ("Carol", "Carol\u00a0"),
                                               ("Carol", "Carol\u3000"), ("Ann Lee", "Ann  Lee"), ("Carol", "Car0l"),
                                               ("Carol", "CAR0L"), ("Carol", "CaroI")])
def test_spaces_at_the_ends_or_in_a_run_and_a_zero_for_an_o_look_alike(owned: str, alike: str) -> None:
    # found attacking the skeletons: TS #39 keeps spaces, and maps 0 to a capital O only
    assert name_looks(owned) & name_looks(alike), alike


@pytest.mark.parametrize("name", ["\u2764\ufe0f", "1\ufe0f\u20e3 Ann", "\U0001f469\u200d\U0001f469\u200d\U0001f467", "\u263a\ufe0e"])
def test_an_emojis_own_selectors_and_joiners_are_kept(name: str) -> None:
    assert check_name(name) == name


@pytest.mark.databases
def test_a_name_whose_look_another_owns_is_refused_and_different_names_are_not(make_client: Callable[..., TestClient]) -> None:
    with make_client() as owner:
        other = another_browser(owner)
        for name in NAMES:
            assert owner.post("/api/people", json={"name": name}).status_code == 200, name
        tried = 0
        for name in NAMES:
            for alike in [*_look_alikes(name), name.upper(), name.lower().replace("a", "\u0430"),
                          name.replace("l", "I").replace("i", "\u0456"), f"{name[:2]}\u034f{name[2:]}", name + "\ufe0f", name + "\u3164"]:
                refused = other.post("/api/people", json={"name": alike})
                assert refused.status_code in (409, 422), (alike, refused.status_code, [f"U+{ord(c):04X}" for c in alike])
                if refused.status_code == 409:
                    assert "belongs to someone else" in refused.json()["message"]
                tried += 1
            # the owner's own name is still theirs; and a new table under a look-alike is refused, nothing made
            assert owner.post("/api/people", json={"name": name}).status_code == 200
        assert tried > 300
        made = other.post("/api/tables", json={"game": "neuf", "name": "\u0421arol",
                                               "seats": {"S": {"kind": "me"}, "W": {"kind": "bot", "bot": "basic"},
                                                         "E": {"kind": "bot", "bot": "basic"}}})
        assert made.status_code == 409, made.text
        assert other.get("/api/tables").json() == []
        # names that only look near are anyone's: a small L is not a small I, nor Carl Carol
        for name in ("Carl", "Carole", "Karol", "lan", "Marla", "Bez"):
            assert other.post("/api/people", json={"name": name}).status_code == 200, name
        # ... but a capital I looks like the small L someone owns
        third = another_browser(owner)
        assert third.post("/api/people", json={"name": "Ian"}).status_code == 409
        assert third.post("/api/people", json={"name": "ian"}).status_code == 200
