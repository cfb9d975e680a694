"""Which pages may open a table socket: only this site's own, scheme, host and port alike.

Channels' AllowedHostsOriginValidator compares the Origin's host with ALLOWED_HOSTS and lets any
port through, so a page on another port of the same host (another service there) could open
sockets in a visitor's name. Here the Origin must be the very origin the socket is served on
(its Host header, through the proxy), or one of TRUSTED_ORIGINS; its host must be allowed too.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

from game.core.limits import client_address, penalised

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
        if scope["type"] == "websocket" and (not origin_allowed(origin, host) or penalised(client_address(scope))):
            # another site's page, or an address that flooded a socket lately: refused before
            # any session, database or consumer work
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
