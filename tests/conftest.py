"""Shared test settings: no bot pause, fast hashing, and the in-memory channel layer; how the
suite is shared between pytest-xdist's workers."""

from __future__ import annotations

from pathlib import Path

import pytest

# Modules on the machine's own PostgreSQL and Redis (their usual ports): one xdist worker runs
# them one after another (test_redis_layer counts every command the Redis server runs, and
# test_two_servers empties a database of it).
SHARED_SERVICES = (
    "tests/scaleout/test_redis_layer.py",
    "tests/scaleout/test_two_servers.py",
    "tests/scaleout/test_services_on_postgres.py",
    "tests/bench/test_turn_based_bench.py",
)
# Folders whose modules each run on one worker: each builds a stack of its own (module-scoped,
# deploy/local_stack.py, on free ports) that a module split between workers would build twice;
# two modules' stacks may run at once, one on each worker.
ONE_WORKER_PER_MODULE = ("tests/scaleout/",)
# What takes longest starts first (xdist hands work out in collection order, the groups above
# first, largest first: a long test handed out last keeps one worker busy while the other has
# nothing left). Measured with --durations on this machine; browser tests still come after all
# others on each worker (tests/browser/conftest.py keeps this order among them).
LONGEST_FIRST = (
    "tests/games/sevn/bots/test_strength.py",
    "tests/games/sevn/bots/test_rating_simulation.py",
    "tests/fair/test_verify.py",
    "tests/accounts/test_verification_settings.py",
    "tests/bench/test_latency_bench.py",
    "tests/games/sevn/bots/test_policies.py",
    "tests/runtime/test_hardening.py",
    "tests/accounts/test_signup.py",
    "tests/runtime/test_production_settings.py",
    "tests/live/test_move_parser.py",
    "tests/fair/test_fair_deal.py",
    "tests/fair/test_records.py",
    "tests/models/test_migrations.py",
    "tests/games/sevens/test_properties.py",
    "tests/browser/test_busy.py",
    "tests/browser/test_table_polish.py",
    "tests/browser/test_sevens_table.py",
    "tests/browser/test_table_feel.py",
    "tests/browser/test_table_fit.py",
    "tests/browser/test_chat.py",
)


@pytest.fixture(autouse=True)
def _no_table_held():
    """Each test starts with no table held in memory (game.services.held): a test's database is
    emptied after it, and the next test's tables may get the same ids, codes and people."""
    from game.services import held

    held.clear()
    yield
    held.clear()


@pytest.fixture(autouse=True)
def _fast_settings(settings):
    settings.SEVN_BOT_DELAY_MS = 0
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels.layers.InMemoryChannelLayer"},
        "local": {"BACKEND": "game.delivery.channel_layer.LocalChannelLayer"},
    }


@pytest.fixture(autouse=True, scope="session")
def _static_files_listed_once():
    """WhiteNoise lists every static file through the finders (and stats each one and its
    compressed twins) whenever its middleware is made, and Django's test Client makes the
    middleware afresh for every Client: a test's first request paid that listing (about 15 ms of
    CPU, 200 files), and a test that makes a thousand clients paid it a thousand times. A server
    makes its middleware once; here each process lists the files once for each set of settings
    that decides what is found (a test that changes them is listed afresh). The same for the
    files collected under STATIC_ROOT (`make run` collects them): with them there, each Client
    cost 80 ms of listing, and the thousand reports of tests/runtime/test_hardening.py 35 s of CPU."""
    from django.conf import settings
    from whitenoise.middleware import WhiteNoiseMiddleware

    from game import registry

    listed: dict[tuple, dict] = {}
    list_files = WhiteNoiseMiddleware.add_files_from_finders
    list_folder = WhiteNoiseMiddleware.update_files_dictionary

    def key_of(self, *more) -> tuple:
        return tuple(
            repr(value)
            for value in (
                self.static_prefix,
                self.max_age,
                self.allow_all_origins,
                self.charset,
                settings.STATICFILES_DIRS,
                settings.STATICFILES_FINDERS,
                settings.STORAGES,
                settings.INSTALLED_APPS,
                sorted(registry.KINDS),  # a game registered by a test brings its own static files
                *more,
            )
        )

    def listed_once(self, key: tuple, list_them) -> None:
        if key not in listed:
            files, self.files = self.files, {}
            list_them()
            listed[key], self.files = self.files, files
        self.files.update(listed[key])  # as WhiteNoise's own listing: over what was listed before

    def add_files_from_finders(self) -> None:
        listed_once(self, key_of(self, "finders"), lambda: list_files(self))

    def update_files_dictionary(self, root, prefix) -> None:
        key = key_of(self, root, prefix, Path(root).stat().st_mtime_ns)  # collected again: listed again
        listed_once(self, key, lambda: list_folder(self, root, prefix))

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(WhiteNoiseMiddleware, "add_files_from_finders", add_files_from_finders)
        patch.setattr(WhiteNoiseMiddleware, "update_files_dictionary", update_files_dictionary)
        yield


@pytest.fixture(autouse=True)
def _fresh_limits():
    """Per-process counters of game.runtime.limits and game.runtime.capacity start empty for every test
    (and the cache's counts)."""
    from django.core.cache import cache

    from game.runtime import capacity, limits

    limits._penalised_until.clear()
    limits._sockets_by_address.clear()
    limits._person_sockets.clear()
    capacity._open, capacity._connecting, capacity._delay = 0, 0, 0.0
    capacity._turned_away, capacity._full_said = 0, False
    cache.clear()
    yield


# The rulebook's rows as rules.content.load wrote them the first time in this process, to copy
# back in one query a table when a transactional test flushed them (filling them from the content
# files took a second a test: 200 tests ask for them).
_RULEBOOK_ROWS: dict = {}


@pytest.fixture
def rulebook(db):
    """The rulebook prose as the data migration writes it (a transactional test before this one
    may have flushed the tables): left as it is when every row is there, copied back when the
    tables are empty, loaded from every game's files otherwise (rules.content.load.ensure)."""
    from game import registry
    from rules.content.load import ensure
    from rules.models import Blurb, DemoStep, EdgeCase, GlossaryEntry, LoadedRulebook, Section

    models = (Section, Blurb, DemoStep, EdgeCase, GlossaryEntry, LoadedRulebook)
    counts = [model.objects.count() for model in models]
    if _RULEBOOK_ROWS and counts == [len(_RULEBOOK_ROWS[model]) for model in models]:
        return
    if _RULEBOOK_ROWS and not any(counts):
        # (the browser tests' server may be loading the same rows for a page asked for meanwhile:
        # a row it wrote first stays, and the rulebook is whole either way)
        for model in models:
            model.objects.bulk_create((model(**row) for row in _RULEBOOK_ROWS[model]), ignore_conflicts=True)
        return
    LoadedRulebook.objects.all().delete()  # rows half there: every game's loaded again
    ensure(registry.KINDS.values())
    for model in models:
        fields = model._meta.concrete_fields
        _RULEBOOK_ROWS[model] = [
            {field.attname: getattr(row, field.attname) for field in fields} for row in model.objects.all()
        ]


_RUN_FOLDER: list[str] = []  # the folder this process made for the run's templates, to remove
TEST_DB_TEMPLATE = "SEVN_TEST_DB_TEMPLATE"  # where the run's migrated SQLite test database is kept


def pytest_addoption(parser):
    """Options of the whole suite. They live here, not in a folder's conftest, because pytest reads
    a folder's options only when that folder is named on the command line, and `pytest
    --screenshots` from the top names none."""
    parser.addoption(
        "--screenshots",
        action="store_true",
        help="save the browser tests' screenshots under artifacts/screenshots/ (`make screenshots`)",
    )


def pytest_configure(config):
    """A test database file left by an earlier run may have its WAL files beside it; a fresh
    database next to an old WAL file reads as corrupt, so start from nothing. Each xdist worker
    has its own file (pytest-django appends the worker's id, test-db.sqlite3_gw0) and clears it.

    The whole run (every worker) migrates once: the first worker's test database and the first
    scale-out stack's cluster (deploy/local_stack.py's _Migrated) are kept in a folder made
    here, before the workers start, which they find in their environment."""
    import os
    import tempfile

    from deploy.local_stack import _Migrated

    if _Migrated.SHARED not in os.environ:
        run = Path(tempfile.mkdtemp(prefix="sevn-test-run-"))
        run.chmod(0o755)  # the stacks' PostgreSQL user copies the cluster kept in it
        (run / "stacks").mkdir()
        _RUN_FOLDER.append(str(run))
        os.environ[_Migrated.SHARED] = str(run / "stacks")
        os.environ[TEST_DB_TEMPLATE] = str(run / "test-db.sqlite3")

    from django.conf import settings

    name = settings.DATABASES["default"].get("TEST", {}).get("NAME")
    worker = getattr(config, "workerinput", {}).get("workerid")
    if name and worker:
        name = f"{name}_{worker}"
    if name and settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        _TEST_DB_FILES.extend(Path(f"{name}{suffix}") for suffix in ("", "-wal", "-shm", "-journal"))
        for path in _TEST_DB_FILES:
            path.unlink(missing_ok=True)


_TEST_DB_FILES: list[Path] = []  # this process's SQLite test database and its side files


def pytest_unconfigure(config):
    """The run's folder goes, and this process's test database with it, unless kept on purpose
    (--reuse-db): a worker that copied the run's database keeps it past pytest-django's teardown,
    and SQLite's side files were left beside every worker's."""
    import os
    import shutil

    from deploy.local_stack import _Migrated

    if not config.getvalue("reuse_db"):
        for path in _TEST_DB_FILES:
            path.unlink(missing_ok=True)
    for folder in _RUN_FOLDER:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop(_Migrated.SHARED, None)
        os.environ.pop(TEST_DB_TEMPLATE, None)


_MIGRATING: list = []  # this worker's hold on the run's template while it migrates the first database


@pytest.fixture(scope="session")
def django_db_keepdb(request, django_db_modify_db_settings):
    """pytest-django's (--reuse-db), and true where this worker's test database is a copy of one
    another worker migrated in this run: migrating took each of the four workers 4-5 s of CPU,
    and a database already migrated is only checked. The first worker to come migrates while
    holding the run's lock (the others wait for its copy: they would be migrating meanwhile)."""
    import fcntl
    import os

    from django.conf import settings

    if request.config.getvalue("reuse_db"):
        return True
    database = settings.DATABASES["default"]
    kept = os.environ.get(TEST_DB_TEMPLATE)
    worker = getattr(request.config, "workerinput", None)
    if not kept or worker is None or not database["ENGINE"].endswith("sqlite3"):
        return False
    lock = open(f"{kept}.lock", "w")  # noqa: SIM115 - held until the copy is kept (django_db_setup)
    fcntl.flock(lock, fcntl.LOCK_EX)
    if Path(kept).exists():
        import shutil

        shutil.copyfile(kept, database["TEST"]["NAME"])
        lock.close()
        return True
    _MIGRATING.append(lock)
    request.addfinalizer(lock.close)  # a migration that failed lets the others go at the session's end
    return False


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's, then, in the worker that migrated for the run, its database copied for the
    others (SQLite's own backup: whole, whatever is still in its write-ahead log)."""
    if _MIGRATING:
        import os
        import sqlite3

        from django.conf import settings

        kept = os.environ[TEST_DB_TEMPLATE]
        with django_db_blocker.unblock():
            source, copy = sqlite3.connect(settings.DATABASES["default"]["NAME"]), sqlite3.connect(f"{kept}.new")
            with copy:
                source.backup(copy)
            source.close()
            copy.close()
            os.replace(f"{kept}.new", kept)
        _MIGRATING.pop().close()
    yield


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """LONGEST_FIRST's tests first, in its order; the rest as collected (a stable sort)."""

    def rank(item) -> int:
        return next((n for n, path in enumerate(LONGEST_FIRST) if item.nodeid.startswith(path)), len(LONGEST_FIRST))

    items.sort(key=rank)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """`--dist loadgroup` (pyproject.toml) with SHARED_SERVICES as one group and each module of an
    ONE_WORKER_PER_MODULE folder as one. pytest-xdist 3.8 names a test's group in its node id,
    which pytest 9.2 no longer lets it change, so an xdist_group mark is lost (pytest-xdist
    issue 1386): the scheduler groups by path instead. Groups go first, largest first (xdist's
    loadscope reorder); every other test is scheduled alone, in collection order, so each worker
    still runs its browser tests after all its others (tests/browser/conftest.py sorts them last)."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class FolderGroups(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            if path in SHARED_SERVICES:
                return "the machine's PostgreSQL and Redis"
            if path.startswith(ONE_WORKER_PER_MODULE):
                return path
            return super()._split_scope(nodeid)

    return FolderGroups(config, log)


@pytest.fixture(autouse=True)
def _default_language():
    """Every test starts and ends in the site's default language. A page asked for through the
    test client leaves its language active on the thread (LocaleMiddleware activates it; nothing
    resets it), and the next test on that worker read its messages in German or Polish: which
    test came next depended on how xdist shared them out."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()
