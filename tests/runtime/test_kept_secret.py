"""A secret made on first start (.secret_key, .signing_key) is the same for every process that
starts at once, and none of them reads it half written."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from sevn_site import settings as site_settings
from sevn_site.settings import _kept_secret


class SlowFile:
    """A file whose write lands in two halves with a pause between (a slow disk): a reader that
    opens the key file in between finds it half written."""

    def __init__(self, file):
        self.file = file

    def write(self, text: str) -> None:
        self.file.write(text[: len(text) // 2])
        self.file.flush()
        threading.Event().wait(0.05)  # the slow disk itself is what is under test
        self.file.write(text[len(text) // 2 :])

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.file.close()


def test_processes_starting_together_all_read_the_one_whole_key(tmp_path, monkeypatch):
    path = tmp_path / ".made_key"
    monkeypatch.setenv("SEVN_TEST_KEY_FILE", str(path))
    monkeypatch.delenv("SEVN_TEST_KEY", raising=False)
    monkeypatch.setattr(site_settings, "open", lambda *args: SlowFile(open(*args)), raising=False)
    made = iter(range(1000))

    def make() -> str:
        return f"key-{next(made):04d}"

    with ThreadPoolExecutor(16) as pool:
        keys = list(pool.map(lambda _: _kept_secret("SEVN_TEST_KEY", ".unused", make), range(64)))
    assert set(keys) == {path.read_text()} and keys[0].startswith("key-")
    assert [entry.name for entry in tmp_path.iterdir()] == [".made_key"]  # no draft left behind
