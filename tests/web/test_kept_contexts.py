"""The browser tests' kept contexts (conftest.Contexts): a context handed to the next test holds nothing of the last."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import DESKTOP, NO_AUTOPLAY, PREFS_COOKIE, Contexts

pytestmark = pytest.mark.browser


def test_a_kept_context_holds_nothing_of_its_last_test(contexts: Contexts, live_server: Any) -> None:
    kept = contexts.take(DESKTOP, "en-CA", {"autoplay": True}, {})
    page = kept.page
    page.goto(live_server.url + "/")
    page.wait_for_selector(".setup #game-neuf")
    # the settings the test gave are the page's from its first load
    assert json.loads(page.evaluate("localStorage.getItem('nines.prefs')")) == {"autoplay": True}
    page.evaluate("localStorage.setItem('left', 'behind'); sessionStorage.setItem('left', 'behind')")
    kept.context.add_cookies([{"name": "left", "value": "behind", "url": live_server.url}])
    kept.context.grant_permissions(["clipboard-read"], origin=live_server.url)
    kept.context.new_page().goto(live_server.url + "/stats")  # a second page of the same person
    contexts.give_back(kept)

    again = contexts.take(DESKTOP, "en-CA", NO_AUTOPLAY, {})
    assert again is kept, "a context given back is taken again for the same locale and device"
    assert again.context.pages == [again.page] and again.page.url == "about:blank"
    again.page.goto(live_server.url + "/")
    again.page.wait_for_selector(".setup #game-neuf")
    assert again.page.evaluate("[localStorage.getItem('left'), sessionStorage.getItem('left')]") == [None, None]
    assert json.loads(again.page.evaluate("localStorage.getItem('nines.prefs')")) == NO_AUTOPLAY
    assert {c["name"] for c in again.context.cookies()} == {PREFS_COOKIE}
    assert again.page.evaluate("navigator.permissions.query({name: 'clipboard-read'}).then((p) => p.state)") != "granted"
    contexts.give_back(again)
