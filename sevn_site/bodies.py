"""Request bodies bounded before anything reads them (issue 35): the limits are game.runtime.uploads'.

Why here, in Daphne's request, and not in an ASGI middleware: Twisted reads a whole body first
(into a temporary file above 100 KB), and only then does Daphne start the application, pushing
every chunk of the body into the application's queue in one go before the application runs at
all. Anything in front of Django comes too late: a 50 MB upload to /verify/ raised the process's
peak memory by 637 MB (100 MB: from 181 MB to 1.2-1.5 GB, stalling every other page). So the
request Daphne makes for each connection checks the Content-Length as soon as the headers are in,
and counts the bytes of a body sent without one: over the limit, it answers 413 at once, in the
page's language, and from then on drops what still comes (nothing is stored, nothing is queued)
until the body ends, so that the browser reads the answer instead of a reset connection, then
closes the connection. install() puts it in place; sevn_site.asgi calls it, so it acts in every
Daphne that serves the site, however started.
"""

from __future__ import annotations

import io

from daphne import http_protocol
from django.utils import translation
from django.utils.html import escape

from game.runtime import uploads


class BoundedRequest(http_protocol.WebRequest):
    """Daphne's request, refusing a body over its path's limit before it is stored."""

    refused = False
    limit = uploads.BODY_MAX_BYTES
    received = 0

    def gotLength(self, length: int | None) -> None:
        """The headers are in (Twisted has the path and the declared length, if any)."""
        path = getattr(self.channel, "_path", b"").split(b"?", 1)[0].decode("latin-1")
        self.limit = uploads.body_limit(path)
        self.path_seen = path
        if length is not None and length > self.limit:
            self.content = io.BytesIO()
            self._refuse()
            return
        super().gotLength(length)

    def handleContentChunk(self, data: bytes) -> None:
        if self.refused:
            return  # dropped: read off the connection only so that the answer can be read
        self.received += len(data)
        if self.received > self.limit:  # a body with no length, past the limit
            self.content.close()
            self.content = io.BytesIO()
            self._refuse()
            return
        super().handleContentChunk(data)

    def process(self) -> None:
        """The whole body is in: a refused one has had its answer; the connection closes."""
        if self.refused:
            self.channel.transport.loseConnection()
            return
        return super().process()

    def _refuse(self) -> None:
        self.refused = True
        self.requestHeaders.removeHeader(b"Expect")  # no "100 Continue" after the answer
        self.channel.persistent = False
        self.channel.transport.write(refusal(self.path_seen))


def refusal(path: str) -> bytes:
    """The 413 answer, whole (status line, headers and a short page), in the path's language."""
    message = uploads.too_large(path)
    language = translation.get_language_from_path(path) or "en"
    page = (
        f'<!doctype html>\n<html lang="{language}"><meta charset="utf-8"><title>413</title>'
        f"<p>{escape(message)}</p></html>\n"
    ).encode()
    head = (
        "HTTP/1.1 413 Content Too Large\r\n"
        "Content-Type: text/html; charset=utf-8\r\n"
        f"Content-Length: {len(page)}\r\n"
        "Connection: close\r\n\r\n"
    ).encode()
    return head + page


def install() -> None:
    """Every connection Daphne makes from now on builds its requests as BoundedRequest."""
    http_protocol.WebRequest = BoundedRequest  # what HTTPFactory.buildProtocol gives each channel
