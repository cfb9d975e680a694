"""Which pages may open a table socket: only this site's own, scheme, host and port alike.

Channels' AllowedHostsOriginValidator compares the Origin's host with ALLOWED_HOSTS and lets any
port through, so a page on another port of the same host (another service there) could open
sockets in a visitor's name. Here the Origin must be the very origin the socket is served on
(its Host header, through the proxy), or one of TRUSTED_ORIGINS; its host must be allowed too.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.translation import gettext_lazy as _

from game.runtime.limits import client_address, penalised
from game.screen import render_error

CLOSE_FLOODED = 4429  # as the consumer's close for flooding: the page says why and offers Reload
PENALISED = _("Too many messages from this address: wait half a minute, then reload.")

DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def _netloc(scheme: str, host: str, port: int | None) -> tuple[str, int]:
    return host.lower().strip("[]"), port or DEFAULT_PORTS.get(scheme, 0)


def origin_allowed(origin: str, host_header: str) -> bool:
    try:
        parts = urlsplit(origin)
        port = parts.port
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return False
    if not validate_host(parts.hostname, settings.ALLOWED_HOSTS):
        return False
    if origin.rstrip("/") in settings.CSRF_TRUSTED_ORIGINS:
        return True
    domain, served_port = split_domain_port(host_header)
    if not domain:
        return False
    served = _netloc(parts.scheme, domain, int(served_port) if served_port else None)
    return _netloc(parts.scheme, parts.hostname, port) == served


class SameOriginValidator:
    """ASGI middleware for WebSockets: refuse (403) a handshake from any other origin."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        headers = dict(scope.get("headers", []))
        origin = headers.get(b"origin", b"").decode("latin1")
        host = headers.get(b"host", b"").decode("latin1")
        if scope["type"] == "websocket" and not origin_allowed(origin, host):
            return await WebsocketDenier()(scope, receive, send)  # another site's page
        if scope["type"] == "websocket" and penalised(client_address(scope)):
            return await still_penalised(scope, receive, send)
        return await self.application(scope, receive, send)


async def still_penalised(scope, receive, send) -> None:
    """A socket from an address that flooded one lately (PENALTY_SECONDS): opened only to say
    why, then closed for good, before any session, database or consumer work. Refused at the
    handshake instead, the page could only say "Reconnecting…", and kept trying."""
    await receive()  # the handshake
    language = parse_qs(scope.get("query_string", b"").decode()).get("lang", [""])[0]
    if language not in {code for code, _name in settings.LANGUAGES}:
        language = settings.LANGUAGE_CODE
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": render_error(PENALISED, language, "flooding")})
    await send({"type": "websocket.close", "code": CLOSE_FLOODED})
