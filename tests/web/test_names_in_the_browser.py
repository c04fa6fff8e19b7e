"""A name on every device, in the browser: a passkey made with Chromium's virtual authenticator brings the name back
to a browser whose cookies (and storage) were cleared; a one-time link gives the name to a second browser and a
wrong code is refused in the page's language; the profile page offers the code to a browser holding the name only; at phone and laptop size, in English and French, axe-clean.

WebAuthn needs a secure context: ``http://localhost`` is one (``http://127.0.0.1`` is too, but a relying party id
cannot be an IP address), so these pages are opened at localhost on the session's server."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

import pytest

from .conftest import Pages, screenshot
from .seating import SIZES
from .test_accessibility import serious_violations

pytestmark = pytest.mark.browser
# a virtual authenticator is attached to a page through its own protocol session: new contexts, never kept ones
FRESH_CONTEXTS = True

WORDS = {
    "en": {"title": "Your name on other devices", "held": "This browser holds the name {name}.",
           "passkeys": "Passkeys for this name: 1.", "noName": "Choose a name above", "taken": "You play as {name} on this device now.",
           "wrong": "This code is not one the server gave"},
    "fr": {"title": "Votre nom sur d'autres appareils", "held": "Ce navigateur détient le nom {name}.",
           "passkeys": "Clés d'accès pour ce nom\u00a0: 1.", "noName": "Choisissez un nom plus haut", "taken": "Vous jouez sous le nom {name} sur cet appareil.",
           "wrong": "Ce code n'est pas un code donné par le serveur"},
}


def local(live_server: Any) -> str:
    return str(live_server.url).replace("127.0.0.1", "localhost")


def virtual_authenticator(page: Any) -> tuple[Any, str]:
    """A platform authenticator (a phone's or laptop's own) that verifies its user at once; its session and id."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    added = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True, "isUserVerified": True}})
    return cdp, str(added["authenticatorId"])


def save_name(page: Any, name: str) -> None:
    page.fill("#person-name", name)
    page.click(".name-field button[type=submit]")


def state_text(page: Any) -> str:
    text: str = page.inner_text("#your-name .names-state")
    return text


def toast_says(page: Any, words: str) -> None:
    page.wait_for_function("(words) => { const t = document.getElementById('toast'); return !!t && t.textContent.includes(words); }",
                           arg=words)


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_passkey_brings_the_name_back_after_the_cookies_are_cleared(pages: Pages, live_server: Any, lang: str, size: str) -> None:
    words = WORDS[lang]
    name = f"Pass {lang} {size}"
    page = pages.new(locale=f"{lang}-CA", **SIZES[size])
    cdp, authenticator = virtual_authenticator(page)
    page.goto(local(live_server) + "/")
    page.wait_for_selector("#your-name h2")
    assert page.text_content("#names-title") == words["title"]  # drawn in capitals by the style sheet
    assert words["noName"] in state_text(page)

    save_name(page, name)
    page.wait_for_selector("#passkey-add")
    assert state_text(page).startswith(words["held"].format(name=name))
    page.click("#passkey-add")
    page.wait_for_function("(words) => document.querySelector('#your-name .names-state').textContent.includes(words)",
                           arg=words["passkeys"])
    credentials = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    assert len(credentials) == 1 and credentials[0]["isResidentCredential"] and credentials[0]["rpId"] == "localhost"

    page.click("#name-code")
    page.wait_for_selector("#name-code-value")
    assert re.fullmatch(r"[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}", page.inner_text("#name-code-value"))
    page.locator("#your-name").scroll_into_view_if_needed()
    screenshot(page, f"names-{lang}-{size}")
    found = serious_violations(page)
    assert not found, found

    # the cookies and the page's storage cleared: this browser no longer holds the name, nor remembers it
    page.context.clear_cookies()
    page.evaluate("localStorage.clear()")
    page.reload()
    page.wait_for_selector("#passkey-sign-in")
    assert words["noName"] in state_text(page)
    assert page.evaluate("fetch('/api/people', {method: 'POST', headers: {'Content-Type': 'application/json'}, "
                         f"body: JSON.stringify({{name: {name!r}}})}}).then((r) => r.status)") == 409
    pages.errors[:] = [e for e in pages.errors if "409" not in e]  # that refusal was asked for (the browser logs it)

    page.click("#passkey-sign-in")
    toast_says(page, words["taken"].format(name=name))
    page.wait_for_selector("#passkey-add")
    assert page.input_value("#person-name") == name
    assert state_text(page).startswith(words["held"].format(name=name))
    assert page.evaluate("fetch('/api/people', {method: 'POST', headers: {'Content-Type': 'application/json'}, "
                         f"body: JSON.stringify({{name: {name!r}}})}}).then((r) => r.status)") == 200
    found = serious_violations(page)
    assert not found, found


@pytest.mark.parametrize(("lang", "size"), [("en", "laptop"), ("fr", "phone")])
def test_a_one_time_link_gives_the_name_to_a_second_browser(pages: Pages, live_server: Any, lang: str, size: str) -> None:
    words = WORDS[lang]
    name = f"Link {lang} {size}"
    laptop = pages.new(locale=f"{lang}-CA", **SIZES["laptop"])
    laptop.goto(local(live_server) + "/")
    save_name(laptop, name)
    laptop.wait_for_selector("#name-code")
    # the profile shows the browser holding the name how to take it elsewhere
    profile = f"{local(live_server)}/people/{quote(name)}"
    laptop.goto(profile)
    laptop.click("#name-code")
    link = laptop.get_attribute("#name-code-link", "href")
    assert link is not None and link.startswith(local(live_server) + "/#take=")
    laptop.wait_for_selector(".profile h1")
    found = serious_violations(laptop)
    assert not found, found

    phone = pages.new(locale=f"{lang}-CA", **SIZES[size])
    phone.goto(profile)  # another browser's profile page offers nothing of the kind
    phone.wait_for_selector(".profile h1")
    phone.wait_for_function("!document.querySelector('#your-name') || document.querySelector('#your-name').hidden")
    assert not phone.is_visible("#name-code")
    phone.goto(local(live_server) + "/")
    phone.wait_for_selector("#take-code")
    phone.fill("#take-code", "2222-2222")
    phone.click(".take-code button[type=submit]")
    toast_says(phone, words["wrong"])
    pages.errors[:] = [e for e in pages.errors if "403" not in e]  # that refusal was asked for (the browser logs it)

    phone.goto(link)
    toast_says(phone, words["taken"].format(name=name))
    assert "#take" not in phone.url  # the spent code leaves the address bar
    phone.wait_for_selector("#name-code")
    assert phone.input_value("#person-name") == name
    assert state_text(phone).startswith(words["held"].format(name=name))
    found = serious_violations(phone)
    assert not found, found
