"""Real-browser fixtures: a live server, Debian's chromium driven by Playwright, a tablet and
phones as separate browser contexts, and screenshots into tests/artifacts/.

Why plain ``playwright`` rather than pytest-playwright: we need one browser with several contexts
of different devices in one test, Debian's chromium with our own launch arguments, and no
``playwright install``; a few fixtures here are simpler than overriding the plugin's.

Every test in this folder is marked ``browser`` and skipped, with the reason, when chromium or
playwright is missing; on CI (``CI=true``) that is a failure instead, since CI must run them.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from app.web.admission import NEW_TABLES_WINDOW_S
from app.web.factory import create_app

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page, Playwright

HERE = Path(__file__).resolve().parent
ARTIFACTS = HERE.parent / "artifacts"
CHROMIUM = os.environ.get("COUP_CHROMIUM", "/usr/bin/chromium")
# Without the background-networking flags chromium keeps dialling out, which this closed
# network refuses (TOOLING.md). Never `playwright install`: it downloads a browser.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TABLET = {"viewport": {"width": 1280, "height": 800}, "device_scale_factor": 1, "has_touch": True}
PHONE_DEVICE = "Pixel 7"


def _missing() -> str | None:
    """Why the browser tests can't run here, or None."""
    reason = os.environ.get("COUP_BROWSER_SKIP")  # set by tasks.py when chromium can't be had
    if reason:
        return reason
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[dev]')"
    if not Path(CHROMIUM).exists():
        return f"no chromium at {CHROMIUM} (apt-get install chromium, or set COUP_CHROMIUM)"
    return None


def _on_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = _missing()
    for item in items:
        if HERE not in item.path.parents:
            continue
        item.add_marker(pytest.mark.browser)
        if reason is not None and not _on_ci():
            item.add_marker(pytest.mark.skip(reason=f"browser tests skipped: {reason}"))


class HourPerTest:
    """The clock of the limit on new tables (app/web/admission.py), moved on by the limit's
    whole window before each browser test: the tests share one server and one client address,
    and without it the eleventh table of the session would be refused."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.skipped = 0.0

    def __call__(self) -> float:
        return self.clock() + self.skipped

    def next_test(self) -> None:
        self.skipped += NEW_TABLES_WINDOW_S


@pytest.fixture(scope="session")
def live_app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The Flask app behind :func:`live_server`, with its own temporary instance folder."""
    app = create_app(str(tmp_path_factory.mktemp("instance")), {"TESTING": True})
    admission = app.extensions["tables"].admission
    admission.clock = HourPerTest(admission.clock)
    return app


@pytest.fixture(autouse=True)
def every_test_a_fresh_device(live_app: Any) -> None:
    """Each test starts an hour after the one before for the limit on new tables
    (NEW_TABLES_PER_DEVICE in NEW_TABLES_WINDOW_S), as a device that made none lately."""
    live_app.extensions["tables"].admission.clock.next_test()


@pytest.fixture(scope="session")
def live_server(live_app: Any) -> Iterator[str]:
    """Base URL (``http://127.0.0.1:PORT``, no trailing slash) of the app served in a thread."""
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, live_app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)
        server.server_close()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    reason = _missing()
    if reason is not None:
        if _on_ci():
            pytest.fail(f"CI must run the browser tests: {reason}")
        pytest.skip(reason)
    from playwright.sync_api import expect, sync_playwright

    # Waits, not limits: on a busy two-core machine a live update can take seconds; a screen
    # that never shows what it should still fails, only later.
    expect.set_options(timeout=15_000)
    with sync_playwright() as running:
        yield running


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """Headless Debian chromium, one per test session."""
    launched = playwright.chromium.launch(
        executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
    )
    try:
        yield launched
    finally:
        launched.close()


@pytest.fixture
def new_context(browser: Browser, live_server: str) -> Iterator[Callable[..., BrowserContext]]:
    """Factory of isolated browser contexts (own cookies: one per device) on the live server.

    Keyword arguments go to ``browser.new_context``. Contexts close after the test.
    """
    contexts: list[BrowserContext] = []

    def make(**options: Any) -> BrowserContext:
        context = browser.new_context(base_url=live_server, **options)
        context.set_default_timeout(30_000)  # a wait, not a limit: a busy machine is slow
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def tablet(new_context: Callable[..., BrowserContext]) -> Page:
    """A page on a landscape tablet (1280x800, touch): the public referee screen."""
    return new_context(**TABLET).new_page()


@pytest.fixture
def new_phone(
    playwright: Playwright, new_context: Callable[..., BrowserContext]
) -> Callable[[], Page]:
    """Factory of phone pages (Pixel 7, touch), each in its own context, like separate phones."""

    def make() -> Page:
        return new_context(**playwright.devices[PHONE_DEVICE]).new_page()

    return make


@pytest.fixture
def phone(new_phone: Callable[[], Page]) -> Page:
    """One phone page, for tests that need only one."""
    return new_phone()


@pytest.fixture
def screenshot() -> Callable[[Page, str], Path]:
    """``screenshot(page, name)`` saves ``tests/artifacts/<name>.png`` and returns its path."""

    def take(page: Page, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{re.sub(r'[^A-Za-z0-9_.-]+', '-', name)}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


# -- the production server in a subprocess, for restarts -----------------------------------


@pytest.fixture
def server_process(tmp_path: Path) -> Iterator[Any]:
    """A stopped :class:`ServerProcess` with its own instance folder; killed after the test."""
    from serverkit import ServerProcess

    server = ServerProcess(tmp_path / "instance", tmp_path / "server.log")
    try:
        yield server
    finally:
        server.kill()
