"""A first table, for someone who has never played: on a phone and on a laptop, the screen says what to do now and
holds what is needed to do it (the trump of a trick game, which on a phone lay below the table, out of sight)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Pages, next_frames, screenshot, settle, steady
from .driving import tap
from .seating import SIZES, open_table, outside_the_screen

pytestmark = pytest.mark.browser

MY_TURN = ".status-line.my-turn"
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def status(page: Any) -> str:
    return page.locator(".status-line").inner_text()


def says_what_to_play(page: Any, name: str, trump: str) -> None:
    """At the player's turn to play a card: the status names the trump and asks for a card, on the screen."""
    page.wait_for_selector(f"{MY_TURN} >> text=highlighted")
    text = status(page)
    screenshot(page, name)
    assert f"Trump {trump}" in text, f"{name}: the trump is not on the screen: {text!r}"
    assert "Play a highlighted card" in text, f"{name}: the status does not say what to do: {text!r}"
    assert not outside_the_screen(page, ".status-line .deal-label", ".status-line .status-text")


@pytest.mark.parametrize("size", list(SIZES))
def test_le_neuf_names_the_trump_and_asks_for_a_card(pages: Pages, live_server: Any, size: str) -> None:
    page = open_table(pages, live_server, "neuf", size)
    page.wait_for_selector(f"{MY_TURN} >> text=Exchange your whole hand")
    # the first deal's trump is hearts (the cycle of RULES.md), known from the deal's start
    assert "Trump ♥" in status(page)
    tap(page, "[data-action=keep]")
    says_what_to_play(page, f"first-neuf-play-{size}", "♥")


@pytest.mark.parametrize("size", list(SIZES))
def test_elyigit_names_the_trump_once_chosen(pages: Pages, live_server: Any, size: str) -> None:
    page = open_table(pages, live_server, "elyigit", size, seed=11)
    page.wait_for_selector(f"{MY_TURN} .status-text >> text=Bid more tricks")
    assert "Trump" not in status(page), "no trump is named before the auction is won"
    # the highest bid: nobody can bid over it, so this seat names trumps, then plays
    tap(page, ".bid-row button.bid >> nth=-1")
    page.wait_for_selector(f"{MY_TURN} >> text=name the trump suit")
    named = page.locator("[data-action^='trump ']").first.get_attribute("data-action").split()[1]
    tap(page, f"[data-action='trump {named}']")
    # the first card to play may be the dummy's (its own prompt) or this seat's own
    page.wait_for_function("document.querySelector('.status-line.my-turn') && document.querySelector('.hand.controlled button.card.legal')")
    text = status(page)
    screenshot(page, f"first-elyigit-play-{size}")
    assert (SUITS.get(named) and f"Trump {SUITS[named]}" in text) or (named == "NT" and "No trumps" in text), \
        f"the trump is not on the screen: {text!r}"
    assert "Play a highlighted card" in text or "Play for the dummy" in text, f"the status does not say what to do: {text!r}"
    assert not outside_the_screen(page, ".status-line .deal-label", ".status-line .status-text")


# all computer players, a match of one deal: the table is over by the time the page opens
SHORT = {"neuf": {"start_score": 1}, "elyigit": {"target": 1}, "rummy": {"players": 3, "hands": 1}}
OUTCOME = {"neuf": "Score change", "elyigit": "Score change", "rummy": "Totals"}


def finished_table(pages: Pages, live_server: Any, game: str, size: str) -> Any:
    from .seating import SEATS

    seats = {seat: {"kind": "bot", "bot": "basic"} for seat in SEATS[game]}
    created = live_server.api("POST", "/api/tables", {"game": game, "seats": seats, "options": SHORT[game],
                                                      "bot_delay_ms": 0, "seed": 5, "public": False})
    page = pages.new(**SIZES[size])
    page.goto(f"{live_server.url}/{game}?t={created['table']['id']}")
    page.wait_for_selector(".notice.over", timeout=60_000)
    return page


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", ["neuf", "elyigit", "rummy"])
def test_the_deal_summary_opens_on_its_outcome(pages: Pages, live_server: Any, game: str, size: str) -> None:
    """How the deal went for each player (the score change, the totals) shows as the summary opens, before the
    hands and the tricks (on a phone they filled three screens above it), with a close button a finger can hit."""
    page = finished_table(pages, live_server, game, size)
    # it opens by itself when a deal ends while watching, drawn from the same message as the match's end (no fixed
    # 300 ms to wait for it)
    if not page.locator("dialog.summary-dialog").count():
        if page.locator(".tools-toggle").is_visible():
            page.locator(".tools-toggle").click()
        page.click("[data-tool=summary]")
    dialog = page.locator("dialog.summary-dialog")
    outcome = dialog.locator(".summary table.sheet")
    outcome.wait_for()
    steady(page, "dialog.summary-dialog .summary table.sheet")  # at rest where it opened: not a fixed 200 ms
    screenshot(page, f"first-{game}-summary-{size}")
    heading = outcome.locator("xpath=preceding-sibling::h3[1]").inner_text()
    assert heading == OUTCOME[game]
    shown = page.evaluate("""() => {
      const d = document.querySelector('dialog.summary-dialog'), r = d.getBoundingClientRect();
      const t = d.querySelector('.summary table.sheet').getBoundingClientRect();
      return {scrolled: d.scrollTop, inside: t.top >= r.top && t.bottom <= Math.min(r.bottom, innerHeight)};
    }""")
    assert shown == {"scrolled": 0, "inside": True}, f"{game} {size}: the outcome is not in sight as the summary opens"
    close = dialog.locator(".dialog-head .icon-button").bounding_box()
    if size == "phone":
        assert close["width"] >= 44 and close["height"] >= 44, f"the close button is {close['width']} x {close['height']} px"


@pytest.mark.parametrize("size", list(SIZES))
def test_rummy_first_round_says_how_to_discard(pages: Pages, live_server: Any, size: str) -> None:
    """Once the card is drawn, the status asks for a card to be selected (Discard is greyed until one is): it said
    "draw, then discard", the draw already made, and a newcomer pressed the greyed button."""
    page = open_table(pages, live_server, "rummy", size)
    page.wait_for_selector(f"{MY_TURN} >> text=Draw a card")
    tap(page, "button[data-pile=stock].legal")
    page.wait_for_selector("[data-action=discard][disabled]")
    page.wait_for_function("!document.querySelector('.status-line').textContent.includes('Draw a card')")
    text = page.locator(".status-line .status-text").inner_text()
    screenshot(page, f"first-rummy-discard-{size}")
    assert text.startswith("Your turn — Select a card, then discard it"), text
    assert not outside_the_screen(page, ".status-line .status-text", "[data-action=discard]")


@pytest.mark.parametrize("size", list(SIZES))
def test_rummy_indicator_box_keeps_its_shape(pages: Pages, live_server: Any, size: str) -> None:
    """The indicator's badge stays the size of a card's name, and "End the session after this hand" takes at most two
    lines (it sat in the badge's column: the badge stretched to 160 px and the button broke into three lines)."""
    page = open_table(pages, live_server, "rummy", size)
    button = page.locator(".trump-box [data-action='end session']")
    button.wait_for()
    page.evaluate("document.querySelector('.trump-box').scrollIntoView({block: 'center'})")
    screenshot(page, f"first-rummy-indicator-{size}")
    badge = page.locator(".trump-box .suit-badge").bounding_box()
    line = page.evaluate("parseFloat(getComputedStyle(document.querySelector(\".trump-box [data-action='end session']\")).lineHeight) || 24")
    box = button.bounding_box()
    assert badge["width"] <= 80, f"the indicator's badge is {badge['width']} px wide"
    assert box["height"] <= line * 2 + 24, f"the session button is {box['height']} px high: it wraps"


@pytest.mark.parametrize("size", list(SIZES))
def test_the_answers_to_a_question_stay_together(pages: Pages, live_server: Any, size: str) -> None:
    """Exchange and Keep side by side under the table (on a laptop the question beside them pushed Keep alone onto
    the next line, under the question's start)."""
    page = open_table(pages, live_server, "neuf", size)
    page.wait_for_selector(f"{MY_TURN} >> text=Exchange your whole hand")
    screenshot(page, f"first-neuf-answers-{size}")
    tops = page.eval_on_selector_all(".choice-row button", "bs => bs.map(b => Math.round(b.getBoundingClientRect().top))")
    assert len(tops) == 2 and abs(tops[0] - tops[1]) <= 2, f"Exchange and Keep at {tops}"
    assert not outside_the_screen(page, "[data-action=exchange]", "[data-action=keep]")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_replay_shows_the_whole_table(pages: Pages, live_server: Any, size: str) -> None:
    """The replay of a finished Le Neuf match: the whole table, every hand open, lies inside the dialog under the
    step buttons (on a phone the side hands stood one card a row, the table three screens high, South's hand out of
    sight)."""
    page = finished_table(pages, live_server, "neuf", size)
    if page.locator("dialog.summary-dialog").count():  # (opened with the match's end, if at all: no fixed 300 ms)
        page.keyboard.press("Escape")
        page.wait_for_function("!document.querySelector('dialog')")
    page.click("[data-tool=replay]")
    page.wait_for_selector(".replay-felt .felt .pos-bottom .hand.open")
    for step in range(8):
        if step in (0, 7):
            settle(page)
            screenshot(page, f"first-neuf-replay-{step}-{size}")
            place = page.evaluate("""() => {
              const d = document.querySelector('dialog.replay-dialog').getBoundingClientRect();
              const f = document.querySelector('.replay-felt .felt').getBoundingClientRect();
              return {felt: Math.round(f.bottom), dialog: Math.round(Math.min(d.bottom, innerHeight))};
            }""")
            assert place["felt"] <= place["dialog"], f"step {step}: the table ends at {place['felt']} px, the dialog at {place['dialog']}"
            assert not outside_the_screen(page, "[data-step=next]", ".replay-felt .pos-bottom .hand.open .card")
        page.click("[data-step=next]")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_home_page_leads_straight_to_starting_a_table(pages: Pages, live_server: Any, size: str) -> None:
    """The first screen of the home page holds a way to the form that starts a table (on a phone the form began two
    screens down, under the three games), and following it shows the form's start under the sticky header."""
    page = pages.new(**SIZES[size])
    page.goto(live_server.url + "/")
    page.wait_for_selector(".setup button[type=submit]")
    screenshot(page, f"first-home-{size}")
    assert not outside_the_screen(page, "[data-go=start]")
    tap(page, "[data-go=start]")
    page.wait_for_function("window.scrollY > 0")
    steady(page, "#start-title")  # the scroll at rest, not a fixed 300 ms after it began
    screenshot(page, f"first-home-start-{size}")
    place = page.evaluate("""() => ({
      header: document.querySelector('.topbar').getBoundingClientRect().bottom,
      title: document.querySelector('#start-title').getBoundingClientRect().top,
      game: document.querySelector('.setup .game-tabs').getBoundingClientRect().bottom,
      screen: innerHeight})""")
    assert place["header"] <= place["title"] and place["game"] <= place["screen"], place


SETS_BOX = "document.querySelector('.table-sets')"
SCROLLED_TO_THE_END = """() => new Promise((done) => {
  const box = document.querySelector('.table-sets');
  const end = box.scrollHeight - box.clientHeight;
  if (Math.abs(box.scrollTop - end) < 1) { done({ top: box.scrollTop }); return; }
  box.addEventListener('scroll', () => done({ top: box.scrollTop }), { once: true });  // after the page's own handler
  box.scrollTop = end;
})"""


@pytest.mark.parametrize("size", list(SIZES))
def test_rummy_sets_stay_where_scrolled(pages: Pages, live_server: Any, size: str) -> None:
    """Once the sets on the table outgrow their box, the person scrolls it to see the lower ones; a tap on a card of
    the hand (which draws the table anew) leaves the box where it was: it sprang back to the top, hiding them again."""
    from .driving import choose_first, clear_selection, rummy_turn_drawn, select_cards

    page = open_table(pages, live_server, "rummy", size, seed=38)
    for _ in range(60):
        legal = rummy_turn_drawn(page)
        if page.evaluate(f"{SETS_BOX}.scrollHeight > {SETS_BOX}.clientHeight + 4"):
            # scrolled to its end, and read once the box's scroll event was handled (the page keeps where the box
            # was scrolled then): waited for, not a fixed 100 ms
            before = page.wait_for_function(SCROLLED_TO_THE_END).json_value()["top"]
            # a card no set takes (a set that takes the selected card is brought into sight on purpose)
            takers = {w.split("=")[0] for a in legal if a.split()[0] in ("extend", "swap") for w in a.split()[2:]}
            codes = page.eval_on_selector_all(".rummy-hand button.card", "cs => cs.map(c => c.dataset.code)")
            index = next(i for i, code in enumerate(codes) if code not in takers)
            tap(page, f".rummy-hand button.card >> nth={index}")
            page.wait_for_selector(".rummy-hand button.card.selected")
            next_frames(page)  # the box is put back where it was on the frame after the drawing: not a fixed 200 ms
            screenshot(page, f"first-rummy-sets-scrolled-{size}")
            after = page.evaluate(f"{SETS_BOX}.scrollTop")
            assert before > 0 and abs(after - before) <= 2, f"the sets' box was scrolled to {before} px, after a tap {after}"
            return
        seq = page.locator(".table-shell").get_attribute("data-seq")
        lays = [a for a in legal if a.startswith("lay ")]
        if lays and select_cards(page, [w.split("=")[0] for w in lays[0].split()[1:]]):
            tap(page, "[data-action=lay]:not([disabled])")
            choose_first(page, seq)
        else:
            discard = [a for a in legal if a.startswith("discard ")][-1]
            assert select_cards(page, [discard.split()[1]])
            tap(page, "[data-action=discard]:not([disabled])")
        page.wait_for_function(f"document.querySelector('.table-shell').dataset.seq !== '{seq}'")
        clear_selection(page)
    pytest.fail("the sets on the table never outgrew their box")
