"""Browser tests: a real server on a loopback port, driven by Debian's headless Chromium through Playwright."""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import pytest

CHROMIUM = os.environ.get("NINES_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}  # the most common laptop screen



class LiveServer:
    """``nines serve`` in a thread: uvicorn with the real app, on a fresh SQLite file."""

    def __init__(self, data: Path) -> None:
        import uvicorn

        from nines.server import ServerConfig, create_app
        from nines.server.guard.limits import Limits

        self.port = 0  # the system picks a free port as the server binds (a port found free beforehand may be taken by then)
        self.url = ""
        # one server for the whole session, every table from 127.0.0.1: the cap on unfinished tables per
        # address (20) would refuse tables once the suite has left that many unfinished, and the suite makes
        # more than the 12 tables a minute one address may create (and its pages ask for the lobby more than 60 times a
        # minute); the whole suite's API requests come from that one address too (the per-address request rate is for a
        # household's few browsers, not for every test's pages and helpers at once)
        self.app = create_app(ServerConfig(database_url=f"sqlite:///{data / 'nines.db'}", bot_delay_ms=60, log_json=False, review_processes=False, thinking_processes=False,
                                           limits=Limits(live_tables_per_address=10_000, tables_per_minute=10_000,
                                                         lobby_per_minute=10_000, requests_per_minute=0)))
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_config=None, access_log=False, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 60  # a bound on failure only (a loaded machine starts slowly)
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.05)
        self.port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)

    def api(self, method: str, path: str, body: Any = None) -> Any:
        import httpx

        response = httpx.request(method, self.url + path, json=body, timeout=10)
        response.raise_for_status()
        return response.json()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("server"))
    server.start()
    yield server
    server.stop()


# One browser a test module, not a session: Playwright's sync API keeps its event loop running in the main
# thread while it is started, so any other test of this process that calls asyncio.run() after a browser test
# was refused ("cannot be called from a running event loop") in a random order (make test-random).
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        pytest.skip("Chromium is not installed (.ci/run installs it with apt-get)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


NO_AUTOPLAY: dict[str, Any] = {"autoplay": False}

PREFS_COOKIE = "nines_test_prefs"
# A kept context's pages start with the settings the test gave (Pages.new's ``prefs``), sent as a cookie for the
# loopback hosts: written into a storage that holds none yet, before any of the page's own scripts run.
PREFS_FROM_COOKIE = f"""(() => {{
  try {{
    const found = document.cookie.match(/(?:^|;\\s*){PREFS_COOKIE}=([^;]*)/);
    if (found && localStorage.getItem('nines.prefs') === null) localStorage.setItem('nines.prefs', decodeURIComponent(found[1]));
  }} catch (e) {{ /* a page without storage (about:blank) */ }}
}})()"""
LOOPBACK_HOSTS = ("127.0.0.1", "localhost")


@dataclass
class Kept:
    """A browser context kept for the module's tests, with its one page and what it visited."""

    context: Any
    page: Any
    cdp: Any
    key: tuple[Any, ...]
    origins: set[str] = field(default_factory=set)


class Contexts:
    """Browser contexts that a module's tests take in turn on one test worker, each made new again between tests.

    A fresh context costs Chromium about 0.85 s of CPU more than a kept one (a renderer process and a storage
    partition; measured: 1.22 s against 0.38 s a first page), and the browser tests open some two hundred of them.
    Between tests a context is emptied of everything a person's browser keeps: the page goes to about:blank
    (its sockets and timers end), cookies, permissions and every kind of storage of each origin it visited are
    cleared, and any other page it opened is closed.  One that fails to empty is closed, never kept."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.free: dict[tuple[Any, ...], list[Kept]] = {}

    def take(self, viewport: dict[str, int], locale: str, prefs: dict[str, Any], options: dict[str, Any]) -> Kept:
        key = (locale, *sorted(options.items()))
        free = self.free.get(key)
        if free:
            kept = free.pop()
            kept.page.set_viewport_size(viewport)
        else:
            context = self.browser.new_context(viewport=viewport, locale=locale, **options)
            context.add_init_script(PREFS_FROM_COOKIE)
            page = context.new_page()
            kept = Kept(context, page, context.new_cdp_session(page), key)
            page.on("framenavigated", lambda frame, kept=kept: kept.origins.add(_origin(frame.url)))
            # a bound on failure only: with both cores kept busy by stress-ng on a loaded 2-core machine (load 40),
            # a table page took over 15 s to draw its felt (test_games_in_the_browser, twice in a random-order run)
            page.set_default_timeout(60_000)
        value = quote(json.dumps(prefs))
        kept.context.add_cookies([{"name": PREFS_COOKIE, "value": value, "domain": host, "path": "/"} for host in LOOPBACK_HOSTS])
        return kept

    def give_back(self, kept: Kept) -> None:
        try:
            for other in kept.context.pages:
                if other is not kept.page:
                    other.close()
            kept.page.goto("about:blank")
            kept.context.clear_cookies()
            kept.context.clear_permissions()
            for origin in kept.origins - {"null"}:
                kept.cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
            kept.origins.clear()
        except Exception:  # noqa: BLE001 - a context that cannot be emptied is not kept
            kept.context.close()
            return
        self.free.setdefault(kept.key, []).append(kept)

    def close(self) -> None:
        for free in self.free.values():
            for kept in free:
                kept.context.close()
        self.free.clear()


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") else "null"


@pytest.fixture(scope="module")
def contexts(browser: Any) -> Iterator[Contexts]:
    kept = Contexts(browser)
    yield kept
    kept.close()


class Pages:
    """A test's browser pages, each in a context of its own (a separate person: own storage, own cookies), watched
    for script errors.  The contexts come from the module's :class:`Contexts`, emptied since their last test; a
    module that sets ``FRESH_CONTEXTS = True`` gets new ones (its tests drive the browser through its own
    protocol: a virtual authenticator)."""

    def __init__(self, contexts: Contexts, fresh: bool = False) -> None:
        self.kept_contexts = contexts
        self.fresh = fresh
        self.taken: list[Kept] = []
        self.contexts: list[Any] = []
        self.watched: list[tuple[Any, str, Any]] = []
        self.errors: list[str] = []

    def new(self, viewport: dict[str, int] = DESKTOP, locale: str = "en-CA", prefs: dict[str, Any] | None = None,
            **options: Any) -> Any:
        """A page in a context of its own. ``prefs``: the page's settings as saved by the person, before it loads.
        By default autoplay is off: a page that plays a lone legal card by itself 450 ms after the turn comes
        races a test that is still clicking or counting (a busy CI machine lost that race); the autoplay test
        turns it on."""
        saved = NO_AUTOPLAY if prefs is None else prefs
        if self.fresh:
            context = self.kept_contexts.browser.new_context(viewport=viewport, locale=locale, **options)
            self.contexts.append(context)
            # only into a fresh storage: what the page saves later (a name, a setting) must survive the next address
            context.add_init_script(
                f"if (localStorage.getItem('nines.prefs') === null) localStorage.setItem('nines.prefs', {json.dumps(json.dumps(saved))})")
            page = context.new_page()
            page.set_default_timeout(60_000)  # a bound on failure only (see Contexts.take)
        else:
            kept = self.kept_contexts.take(viewport, locale, saved, options)
            self.taken.append(kept)
            page = kept.page
        self._watch(page, "pageerror", lambda error: self.errors.append(f"{page.url}: {error}"))
        self._watch(page, "console", lambda message: self.errors.append(f"{page.url}: {message.text}") if message.type == "error" else None)
        return page

    def _watch(self, page: Any, event: str, handler: Any) -> None:
        page.on(event, handler)
        self.watched.append((page, event, handler))

    def close(self) -> None:
        for page, event, handler in self.watched:
            page.remove_listener(event, handler)
        for kept in self.taken:
            self.kept_contexts.give_back(kept)
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(contexts: Contexts, request: pytest.FixtureRequest) -> Iterator[Pages]:
    made = Pages(contexts, fresh=getattr(request.module, "FRESH_CONTEXTS", False))
    yield made
    made.close()
    assert not made.errors, "errors in the page:\n" + "\n".join(made.errors)


SETTLED = "() => document.getAnimations().every((a) => a.playState !== 'running')"


def settle(page: Any) -> None:
    """Wait until no animation runs (a card still flying to the trick is drawn over the seat it comes from), until
    the page's deadline (60 s: a bound on failure only; 5 s was not generous on a loaded machine)."""
    page.wait_for_function(SETTLED)


NEXT_FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"


def next_frames(page: Any) -> None:
    """Until the page has drawn two more frames: what a drawing left for its next frame (``requestAnimationFrame``:
    a scroll put back, a box fitted) is done, however long the frames take."""
    page.wait_for_function(NEXT_FRAMES)


STEADY = """([selector, frames]) => new Promise((done) => {
  const box = () => {
    const el = document.querySelector(selector);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.width, r.height, scrollX, scrollY].join();
  };
  let last = box(), same = 0;
  const look = () => {
    const now = box();
    same = now !== null && now === last ? same + 1 : 0;
    last = now;
    if (same >= frames) done(true); else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})"""


def steady(page: Any, selector: str, frames: int = 3) -> None:
    """Until the box of ``selector`` (and the page's scroll) stayed the same over ``frames`` animation frames: a
    smooth scroll or a layout still moving has come to rest (waited for, not a fixed time assumed long enough)."""
    page.wait_for_function(STEADY, arg=[selector, frames])


def screenshot(page: Any, name: str, full_page: bool = False) -> Path:
    """The page as it rests (after any card's flight), kept under build/screenshots/ to look at."""
    settle(page)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path
