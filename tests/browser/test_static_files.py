"""The browser tests' server answers static files from memory (tests/browser/static_files.py):
the same bytes and content type as the file on disk, read once; a file that is not there is
still Django's 404, and every other path still reaches the site."""

from __future__ import annotations

import asyncio
from pathlib import Path

from asgiref.sync import async_to_sync
from django.conf import settings

from tests.browser.static_files import StaticFromMemory


def _get(application, path: str, method: str = "GET") -> tuple[int, dict[bytes, bytes], bytes]:
    sent: list[dict] = []
    requests = [{"type": "http.request", "body": b"", "more_body": False}]

    async def receive() -> dict:
        if requests:
            return requests.pop()
        await asyncio.Event().wait()  # the client stays: Django stops listening once it answered

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", b"testserver")],
        "server": ("testserver", 80),
        "client": ("127.0.0.1", 5000),
        "scheme": "http",
        "root_path": "",
        "asgi": {"version": "3.0"},
    }
    async_to_sync(application)(scope, receive, send)
    start = next(message for message in sent if message["type"] == "http.response.start")
    body = b"".join(message.get("body", b"") for message in sent if message["type"] == "http.response.body")
    return start["status"], dict(start["headers"]), body


class Site:
    """Stands in for the site behind the wrapper: answers 204 and remembers what reached it."""

    def __init__(self) -> None:
        self.paths: list[str] = []

    async def __call__(self, scope, receive, send) -> None:
        self.paths.append(scope["path"])
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})


def test_a_module_comes_from_memory_with_the_bytes_and_type_on_disk():
    site = Site()
    served = StaticFromMemory(site)
    on_disk = (Path(settings.BASE_DIR) / "static/sevn/js/chat.js").read_bytes()
    for _ in range(2):
        status, headers, body = _get(served, "/static/sevn/js/chat.js")
        assert status == 200 and body == on_disk
        assert headers[b"content-type"] == b"text/javascript"
        assert headers[b"content-length"] == str(len(on_disk)).encode()
        assert headers[b"cache-control"] == b"max-age=3600"  # the next page of a context takes it from its cache
    assert list(served.files) == ["/static/sevn/js/chat.js"]  # read once
    status, headers, _body = _get(served, "/static/sevn/sevn.css")
    assert status == 200 and headers[b"content-type"] == b"text/css"
    assert site.paths == []


def test_a_missing_file_is_still_a_404_and_other_paths_reach_the_site():
    site = Site()
    served = StaticFromMemory(site)
    status, _headers, _body = _get(served, "/static/sevn/js/no-such-module.js")
    assert status == 404
    assert _get(served, "/en/")[0] == 204
    assert _get(served, "/static/sevn/sevn.css", method="HEAD")[0] == 200  # Django's handler, as before
    assert site.paths == ["/en/"]
