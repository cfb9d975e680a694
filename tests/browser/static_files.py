"""The browser tests' server hands out static files from memory.

Every browser context starts with an empty cache, so each of the suite's ~750 contexts fetches
the page's 27 files (three stylesheets, htmx and its socket extension, 22 scripts and ES
modules) again. Django's ASGIStaticFilesHandler serves each through its request handling, a
thread hop and a file response in chunks: about 2 ms of the server's CPU a file, some 50 ms a
context, against 0.2-0.3 ms answered here from memory (one keep-alive connection, the 25 files
of a page, 40 times). Eight browser modules, in turns: the servers' CPU 34.4 and 35.2 s with
Django's handler, 25.8 and 27.7 s with this.

The files are found as Django's handler finds them (the staticfiles finders) and sent with the
content type it would give them, and cached by the browser for the run as Django's Last-Modified
let them be. Anything else (a file that is not there, a HEAD, a path outside STATIC_URL) goes to
Django's handler as before, so a missing file is still a 404. The site itself serves collected,
hashed files in production (WhiteNoise, nginx), which tests/scaleout fetches."""

from __future__ import annotations

import mimetypes
from urllib.parse import unquote

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler


class StaticFromMemory:
    """ASGI wrapper: a GET of a static file found by the finders, answered from memory."""

    def __init__(self, application) -> None:
        self.django = ASGIStaticFilesHandler(application)
        self.prefix = settings.STATIC_URL
        self.files: dict[str, tuple[list[tuple[bytes, bytes]], bytes] | None] = {}

    async def __call__(self, scope, receive, send) -> None:
        path = scope.get("path", "")
        if scope["type"] == "http" and scope.get("method") == "GET" and path.startswith(self.prefix):
            found = self._file(path)
            if found is not None:
                headers, body = found
                await send({"type": "http.response.start", "status": 200, "headers": headers})
                await send({"type": "http.response.body", "body": body})
                return
        await self.django(scope, receive, send)

    def _file(self, path: str):
        if path not in self.files:
            self.files[path] = self._read(unquote(path[len(self.prefix) :]))
        return self.files[path]

    @staticmethod
    def _read(name: str):
        found = finders.find(name) if name and not name.endswith("/") else None
        if not found:
            return None
        with open(found, "rb") as file:
            body = file.read()
        content_type, encoding = mimetypes.guess_type(found)
        headers = [
            (b"content-type", (content_type or "application/octet-stream").encode()),
            (b"content-length", str(len(body)).encode()),
            # fresh for the run, as collected files are for a year: a context's next page takes them
            # from its cache (Django's handler sends Last-Modified, which Chromium's heuristic
            # freshness turns into the same)
            (b"cache-control", b"max-age=3600"),
        ]
        if encoding:
            headers.append((b"content-encoding", encoding.encode()))
        return headers, body
