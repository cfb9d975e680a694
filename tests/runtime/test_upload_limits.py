"""Uploads are bounded before they are read (issue 35, item 3), in the real server process: Daphne
started as production starts it (`daphne sevn_site.asgi:application`). A body over its path's
limit (game.runtime.uploads) is refused from its Content-Length, or once the limit's bytes have come
when there is none, with a clear message in the page's language, and the process's peak memory
stays flat (a 50 MB upload took Daphne from 181 MB to 1.2-1.5 GB before: it queued the whole body
for the application before anything could look at it). A body of exactly the limit is let
through. nginx lets through the same numbers (deploy/nginx/sevn.conf)."""

from __future__ import annotations

import http.client
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from deploy.local_stack import free_port, wait_for_port
from game.runtime import uploads

ROOT = Path(__file__).resolve().parents[2]
MB = 1024 * 1024
CHUNK = b"x" * 65536
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class Daphne:
    """One Daphne process serving the site, on an empty SQLite database (no page here reads it)."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}",
            "SECRET_KEY": "test-upload-limits",
            "SEVN_SIGNING_KEY": "5e" * 32,
            "SEVN_TIMERS": "off",
            "ALLOWED_HOSTS": "127.0.0.1",
            "DEBUG": "true",  # static files by their names: no collectstatic for a test of bodies
        }
        self.process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), "sevn_site.asgi:application"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=open(tmp / "daphne.log", "wb"),  # noqa: SIM115 (the process keeps it)
        )
        try:
            wait_for_port(self.port, timeout=60, process=self.process)  # listening: Django is loaded
        except RuntimeError:
            self.stop()  # not left running when it never answered
            raise RuntimeError("daphne did not start: " + (tmp / "daphne.log").read_text()[-2000:]) from None

    def request(self, method: str, path: str, body=None, headers: dict | None = None) -> tuple[int, str, dict]:
        """One request on its own connection; a body with no Content-Length goes chunked."""
        headers = headers or {}
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            chunked = body is not None and "Content-Length" not in headers and not isinstance(body, bytes)
            connection.request(method, path, body=body, headers=headers, encode_chunked=chunked)
            response = connection.getresponse()
            return response.status, response.read().decode(), dict(response.getheaders())
        finally:
            connection.close()

    def peak_kb(self) -> int:
        """The process's peak resident memory since it was last reset (VmHWM)."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1))

    def reset_peak(self) -> None:
        Path(f"/proc/{self.process.pid}/clear_refs").write_text("5")  # the peak starts again from now

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:  # a stop it took no note of
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="module")
def daphne(tmp_path_factory):
    server = Daphne(tmp_path_factory.mktemp("daphne"))
    yield server
    server.stop()


def stream(size: int):
    """`size` bytes, a chunk at a time (the test does not hold them all either)."""
    while size > 0:
        yield CHUNK[: min(size, len(CHUNK))]
        size -= len(CHUNK)


def multipart(daphne: Daphne, path: str, record_size: int, link: str = "") -> tuple[bytes, dict]:
    """The verify form as a browser posts it: its CSRF token and cookie, a link (empty), and a
    record file of this size."""
    status, html, headers = daphne.request("GET", path)
    cookie = headers["Set-Cookie"].split(";")[0]
    boundary = "----sevnboundary7d1c"
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n'
            f"{TOKEN.search(html).group(1)}\r\n"
            f'--{boundary}\r\nContent-Disposition: form-data; name="link"\r\n\r\n{link}\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="record"; filename="record.json"\r\n'
            "Content-Type: application/json\r\n\r\n"
        ).encode()
        + b"x" * record_size
        + f"\r\n--{boundary}--\r\n".encode()
    )
    headers = {
        "Content-Type": f"multipart/form-data; boundary={boundary}",
        "Cookie": cookie,
        "Origin": f"http://127.0.0.1:{daphne.port}",
        "Referer": f"http://127.0.0.1:{daphne.port}{path}",
    }
    return body, headers


def test_a_50_mb_upload_is_refused_from_its_length_and_memory_stays_flat(daphne):
    body, headers = multipart(daphne, "/en/verify/", 1000)  # the page at work first: all it loads, loaded
    assert daphne.request("POST", "/en/verify/", body, headers)[0] == 200
    daphne.reset_peak()
    before = daphne.peak_kb()
    status, text, _ = daphne.request(
        "POST",
        "/en/verify/",
        stream(50 * MB),
        {"Content-Length": str(50 * MB), "Content-Type": "multipart/form-data; boundary=x"},
    )
    rise = daphne.peak_kb() - before
    assert rise < 20 * 1024, f"peak memory rose {rise} kB"
    assert status == 413
    assert "That file is too large to be a game record: records up to 4 MB are accepted here." in text
    assert daphne.request("GET", "/en/verify/")[0] == 200  # and it serves on


def test_a_50_mb_upload_without_a_length_is_refused_after_the_limit_and_memory_stays_flat(daphne):
    daphne.request("GET", "/de/verify/")
    daphne.reset_peak()
    before = daphne.peak_kb()
    status, text, _ = daphne.request("POST", "/de/verify/", stream(50 * MB), {"Content-Type": "text/plain"})
    rise = daphne.peak_kb() - before
    assert rise < 20 * 1024, f"peak memory rose {rise} kB"
    assert status == 413
    assert "Diese Datei ist zu groß für ein Spielprotokoll: Hier werden Protokolle bis 4\u00a0MB angenommen." in text


def test_exactly_the_limit_is_let_through_and_one_byte_more_is_not(daphne):
    body, headers = multipart(daphne, "/en/verify/", uploads.RECORD_MAX_BYTES)  # a 4 MB record, and its form
    assert len(body) <= uploads.VERIFY_BODY_MAX_BYTES
    room = uploads.VERIFY_BODY_MAX_BYTES - len(body)  # the rest of the limit: spaces in the (unused) link
    body, headers = multipart(daphne, "/en/verify/", uploads.RECORD_MAX_BYTES, link=" " * room)
    assert len(body) == uploads.VERIFY_BODY_MAX_BYTES
    status, text, _ = daphne.request("POST", "/en/verify/", body, headers)
    assert status == 200 and "That file is not JSON: a game record is a JSON file." in text
    body, headers = multipart(daphne, "/en/verify/", uploads.RECORD_MAX_BYTES, link=" " * (room + 1))
    status, text, _ = daphne.request("POST", "/en/verify/", body, headers)
    assert status == 413 and "records up to 4 MB are accepted here" in text


def test_every_other_page_takes_the_small_limit_in_its_language(daphne):
    body = b"a=" + b"x" * (uploads.BODY_MAX_BYTES - 2)
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    assert daphne.request("POST", "/pl/tables/find/", body, form)[0] != 413  # exactly the limit: let through
    status, text, _ = daphne.request("POST", "/pl/tables/find/", body + b"x", form)
    assert status == 413 and "To żądanie jest za duże: można tu wysłać najwyżej 64 KB." in text
    status, text, _ = daphne.request("POST", "/admin/login/", b"x" * (uploads.BODY_MAX_BYTES + 1), form)
    assert status == 413 and "That request is too large: at most 64 KB can be sent here." in text


def test_nginx_lets_through_exactly_the_same_limits():
    conf = (ROOT / "deploy" / "nginx" / "sevn.conf").read_text()
    server_wide = re.search(r"^    client_max_body_size (\d+)k;", conf, re.MULTILINE)
    assert int(server_wide.group(1)) * 1024 == uploads.BODY_MAX_BYTES
    verify = re.search(r'location ~ "(\S+)" \{[^\n]*(.*?)\n    \}', conf, re.DOTALL)  # the one regex location
    pattern, block = verify.group(1), verify.group(2)
    assert int(re.search(r"client_max_body_size (\d+)k;", block).group(1)) * 1024 == uploads.VERIFY_BODY_MAX_BYTES
    nginx_path = re.compile(pattern.strip("^$"))
    for path in ("/en/verify/", "/de/verify/", "/pl/verify/", "/verify/x", "/en/verify/x", "/en/tables/find/"):
        assert bool(nginx_path.fullmatch(path)) == bool(uploads.VERIFY_PATH.fullmatch(path)), path
    assert "proxy_pass http://sevn_daphne;" in block and "limit_req zone=sevn_pages" in block
