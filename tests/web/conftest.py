"""Browser tests: a real server on a loopback port, driven by Debian's headless Chromium through Playwright."""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


class Pages:
    """New browser contexts (each a separate person: own storage, own cookies), watched for script errors."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def new(self, viewport: dict[str, int] = DESKTOP, locale: str = "en-CA", prefs: dict[str, Any] | None = None,
            **options: Any) -> Any:
        """A page in a fresh context. ``prefs``: the page's settings as saved by the person, before it loads.
        By default autoplay is off: a page that plays a lone legal card by itself 450 ms after the turn comes
        races a test that is still clicking or counting (a busy CI machine lost that race); the autoplay test
        turns it on."""
        context = self.browser.new_context(viewport=viewport, locale=locale, **options)
        self.contexts.append(context)
        saved = NO_AUTOPLAY if prefs is None else prefs
        # only into a fresh storage: what the page saves later (a name, a setting) must survive the next address
        context.add_init_script(
            f"if (localStorage.getItem('nines.prefs') === null) localStorage.setItem('nines.prefs', {json.dumps(json.dumps(saved))})")
        page = context.new_page()
        # a bound on failure only: with both cores kept busy by stress-ng on a loaded 2-core machine (load 40), a
        # table page took over 15 s to draw its felt (test_games_in_the_browser, twice in a random-order run)
        page.set_default_timeout(60_000)
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: {error}"))
        page.on("console", lambda message: self.errors.append(f"{page.url}: {message.text}") if message.type == "error" else None)
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(browser: Any) -> Iterator[Pages]:
    made = Pages(browser)
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
