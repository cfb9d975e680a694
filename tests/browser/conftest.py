"""Browser tests: Playwright driving Debian's Chromium against Daphne serving the real ASGI app
(HTTP + WebSockets + the timer loop) on the test database. See shared stack notes."""

from __future__ import annotations

import importlib
import os
import tempfile
from contextlib import contextmanager
from datetime import timedelta
from functools import partial
from pathlib import Path

import pytest
from playwright.sync_api import expect

# A loaded CI machine is slower than a laptop: allow more time than Playwright's 5 s default.
expect.set_options(timeout=15_000)

# Playwright's sync API keeps an asyncio loop running in the main thread; ORM use in these
# tests would otherwise raise SynchronousOnlyOperation.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Debian's chromium-headless-shell (the make file installs it): the same Blink and V8 as the
# full browser, without its browser UI and compositor, as Playwright itself runs headless. Eight
# phone-layout tests, in turns on this machine: Chromium's processes took 18 s of CPU instead
# of 43-56 s. The full browser where the shell is missing.
FULL_CHROMIUM = "/usr/bin/chromium"  # what the shell lacks: a notification permission to ask for
CHROMIUM = next(
    (path for path in ("/usr/bin/chromium-headless-shell", FULL_CHROMIUM) if Path(path).exists()), FULL_CHROMIUM
)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
    # One site under test (the test server; localhost for passkeys) and nothing cross-site to
    # keep apart: without a renderer per site, two browser modules took 37.7-43.0 s of CPU in
    # all against 37.6-44.7 with it, 7 % less over four pairs taken in turns
    "--disable-site-isolation-trials",
    "--disable-features=site-per-process,IsolateOrigins",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
DESKTOP = {"width": 1280, "height": 900}
# E-mail the forked server sends (sign-up codes) lands here, one file per message, for the tests to read.
MAIL_DIR = Path(tempfile.mkdtemp(prefix="sevn-mail-"))
PHONE = {"width": 360, "height": 780}


FAST_HASHER = "django.contrib.auth.hashers.MD5PasswordHasher"  # tests/conftest.py's


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


def _daphne_child_setup():
    """In the forked server: fresh asgiref executor (threads do not survive fork), the test
    database, and bots that move without their human-like pause."""
    from concurrent.futures import ThreadPoolExecutor

    from asgiref.sync import SyncToAsync
    from channels.testing.live import set_database_connection
    from django.conf import settings

    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
    # Passwords hashed as the tests hash them (tests/conftest.py's fast hasher first, the site's
    # after it): with PBKDF2's million rounds, every sign-up and log-in in a browser cost the
    # server 0.7 s of CPU, and every account the tests made for it as much again (some 180 s of
    # the suite's CPU, measured with py-spy)
    from django.contrib.auth import hashers

    settings.PASSWORD_HASHERS = [FAST_HASHER, *(name for name in settings.PASSWORD_HASHERS if name != FAST_HASHER)]
    hashers.get_hashers.cache_clear()
    hashers.get_hashers_by_algorithm.cache_clear()
    # The analysis loop's own waiter too: a test before the fork that ran an analysis started its
    # thread in the parent, and the child's copy of the executor, believing it has an idle
    # thread, would hand every job to a thread that does not exist (the replay waited forever)
    from game.live import analysing as analysis_loop

    analysis_loop._waiter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="analysis")
    set_database_connection()
    settings.SEVN_BOT_DELAY_MS = 0
    # Every browser test signs its people up and in from 127.0.0.1 on this one server, whose
    # cache keeps allauth's counts across tests: a limit per address (sign-ups, log-ins, codes
    # asked for) refused a later test with 429 (each is tested in tests/accounts). The limits per
    # account stay (test_accounts' paused password).
    from allauth.account import app_settings as account_settings

    settings.ACCOUNT_RATE_LIMITS = {
        action: ",".join(part for part in (rate or "").split(",") if part and not part.endswith("/ip")) or None
        for action, rate in account_settings.RATE_LIMITS.items()
    }
    # Analyses at the ordinary priority: beside the other worker's browser and server, one at
    # nice 19 got so little CPU that a replay waited past a minute, and as SCHED_IDLE (a core only
    # when nothing else wants one: never, in this phase) none finished (the priority itself:
    # tests/services/test_analysis.py)
    from game.registry import analysing

    analysing.NICE = 0
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(MAIL_DIR)
    # The app may have been imported in the test process before this fork (a socket test that
    # ran earlier), when there was no reactor to start the deadline loop and heartbeat with; the
    # child has its own reactor now (once per reactor: a fresh import here already started them).
    from game.live import timers

    timers.start_with_server()


@contextmanager
def _serving(django_db_blocker):
    """Daphne in a forked process serving the ASGI app on the (file-based) test database. Its
    clocks and absence sweep act on every table there, as do those of any other server started
    in the session (live_url's): patching the sweep before forking this one does not stop them."""
    from channels.testing.live import make_application
    from daphne.testing import DaphneProcess
    from django.db import connections
    from django.urls import get_resolver

    from tests.browser.static_files import StaticFromMemory

    # What each fork would otherwise import for itself, on its way up and at its first request:
    # the app (Channels' routing, the consumers) and the site's URLs (every view). Imported here
    # once, a fork is ready in 0.02 s of CPU instead of 0.25, and its first page costs 0.15 s
    # instead of 0.22-0.32 (the suite forks some 35 servers). An app imported before the fork is
    # a state the child already handles (_daphne_child_setup).
    importlib.import_module("sevn_site.asgi")
    get_resolver().url_patterns  # noqa: B018 - loads every view module

    process = DaphneProcess(
        "127.0.0.1",
        partial(make_application, static_wrapper=StaticFromMemory),
        setup=_daphne_child_setup,
    )
    with django_db_blocker.unblock():
        connections.close_all()  # an SQLite handle must not cross fork(): the child opens its own
        process.start()
        assert process.ready.wait(timeout=30), "daphne did not start"
    try:
        yield f"http://127.0.0.1:{process.port.value}"
    finally:
        process.terminate()
        # Daphne stops at once when no socket is open (the tests close their browsers first); one
        # whose stop hung (seen after a SIGTERM it took no note of) kept a worker 20 s
        process.join(timeout=5)
        if process.is_alive():
            process.kill()
            process.join()


# Presence's clocks shorter on a server a test forks of its own (quick_presence_url), by module
# name (this file imports no app module at its top). What is under test is that the heartbeat
# keeps people online past the sweep's thresholds (stale rows, away) and that someone who left is
# marked away after AWAY_AFTER, whatever those lengths are: past them takes 11 s here instead of
# a minute. A beat every second, and rows stale only after ten of them (the real clocks: three of
# ten seconds): a loaded machine that delays the beats by up to 9 s (the real slack is 20 s)
# shows nobody present as offline. At a fifth of each (a beat every 2 s, stale after 6 s), a run
# beside the whole suite showed a seat offline at the start.
QUICK_PRESENCE = {
    ("game.services.presence", "HEARTBEAT"): timedelta(seconds=1),
    ("game.services.presence", "STALE_AFTER"): timedelta(seconds=10),
    ("game.services.presence", "AWAY_AFTER"): timedelta(seconds=10),
    ("game.services.presence", "GRACE"): timedelta(seconds=3),
    ("game.services.play", "GRACE"): timedelta(seconds=3),
    ("game.live.watch", "CHECK_SECONDS"): 0.2,
    ("game.live.timers", "ABSENCE_CHECK_SECONDS"): 1,
}


@pytest.fixture
def quick_presence_url(django_db_blocker, monkeypatch):
    """A server of the test's own, forked with presence's clocks shorter (the fork inherits
    the patched modules; the session's server keeps the real ones, and its sweep, acting on the
    same database, finds these seats seen every HEARTBEAT: it takes nobody for gone)."""
    for (module, name), value in QUICK_PRESENCE.items():
        monkeypatch.setattr(importlib.import_module(module), name, value)
    with _serving(django_db_blocker) as url:
        yield url


@pytest.fixture(scope="session")
def live_url(django_db_setup, django_db_blocker):
    """One server for the session's browser tests."""
    with _serving(django_db_blocker) as url:
        yield url


@pytest.fixture(autouse=True)
def _rulebook(rulebook):
    """Every page of the site shows the rulebook's texts somewhere; keep them in place."""


class ConsoleWatch:
    """Console errors and uncaught page errors of every page a test opens."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def watch(self, context):
        context.on(
            "console",
            lambda message: (
                message.type == "error"
                and self.errors.append(f"console: {message.text} ({message.location.get('url', '')})")
            ),
        )
        context.on("weberror", lambda error: self.errors.append(f"page error: {error.error}"))
        return context


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "service_worker: this test's browsers install the site's service worker (the others block it)"
    )


@pytest.fixture(autouse=True)
def no_console_errors(request, monkeypatch):
    """Every browser test fails on any console error or uncaught page error anywhere it went.

    Its browsers block the site's service worker unless the test is marked `service_worker`
    (the tests of pushes, the installed app and the offline rulebook are): installed, it keeps
    an offline copy of every rulebook page in every language, so each new context asked the
    server for 15 pages and their files at once, for journeys that never go offline."""
    if "browser" not in request.fixturenames and "page" not in request.fixturenames:
        yield None
        return
    browser = request.getfixturevalue("browser")
    watch = ConsoleWatch()
    opened = browser.new_context
    workers = "allow" if request.node.get_closest_marker("service_worker") else "block"

    def new_context(*args, **kwargs):
        kwargs.setdefault("service_workers", workers)
        context = watch.watch(opened(*args, **kwargs))
        request.node.sevn_contexts.append(context)
        return context

    request.node.sevn_contexts = []
    monkeypatch.setattr(browser, "new_context", new_context)
    yield watch
    assert not watch.errors, "\n".join(watch.errors)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """A test's browsers are closed as it ends, before its fixtures' teardown stops a server of
    its own: a page left open would keep its socket, its clocks and its heartbeat going for the
    rest of the worker's session, and a server stopped under an open socket waits for it."""
    try:
        return (yield)
    finally:
        for context in getattr(item, "sevn_contexts", ()):
            if context in context.browser.contexts:
                context.close()


def screenshots_wanted(config) -> bool:
    """Pictures are taken when asked for (`make screenshots`, or SEVN_SCREENSHOTS=1), not on
    every run: nothing asserts on them, they are there to be looked at. Taken on every run, the
    373 of them cost some 50 s of CPU a suite (Chromium drawing whole pages, the PNG sent through
    Playwright's driver and written), about a twentieth of `make test` on two cores."""
    return bool(config.getoption("--screenshots") or os.environ.get("SEVN_SCREENSHOTS"))


class Shooter:
    """`shoot(target, name, full_page=True)`: a screenshot of a page (the whole page unless
    `full_page=False`) or of an element (a locator, as it is drawn) saved as <folder>/<name>.png
    when pictures are wanted, nothing otherwise; the test's steps are the same either way.
    Returns the file's path, or None."""

    def __init__(self, wanted: bool, folder: Path) -> None:
        self.wanted, self.folder = wanted, folder

    def __call__(self, target, name: str, full_page: bool = True) -> Path | None:
        if not self.wanted:
            return None
        path = self.folder / f"{name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        if hasattr(target, "goto"):  # a page
            target.screenshot(path=str(path), full_page=full_page)
        else:
            target.screenshot(path=str(path))
        return path


@pytest.fixture
def shoot(request) -> Shooter:
    """Save a screenshot under artifacts/screenshots/ when asked for (Shooter)."""
    return Shooter(screenshots_wanted(request.config), SCREENSHOTS)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    # Once the session-scoped sync Playwright starts, an asyncio loop stays "running" in the
    # main thread, and pytest-asyncio tests collected after it fail: run browser tests last.
    # (A test's fixturenames hold its whole closure: any test that starts Playwright, through
    # `page`, `browser`, `browser_type` or `playwright` itself, has "playwright" in it.)
    items.sort(key=lambda item: "playwright" in getattr(item, "fixturenames", ()))
