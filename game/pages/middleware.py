"""Request middleware that is about running the service, not the game: the health check the
proxy asks, the Content-Security-Policy header on every page, and the one host a page asked for
by its IP address is sent to (where passkeys work)."""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import time

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import HttpResponse, HttpResponseRedirect
from django.http.request import split_domain_port

from game.runtime import capacity

logger = logging.getLogger(__name__)

HEALTH_PATH = "/healthz"
LAYER_TIMEOUT = 2.0


def database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:
        logger.warning("health: database unreachable", exc_info=True)
        return False
    finally:
        connection.close()  # back to the pool (or closed): a health check holds nothing


async def _layer_answers() -> bool:
    """Redis answers a command on the layer's own pool (ServiceRedisChannelLayer.ping), or a
    message goes round an in-process layer. Not a round trip through Redis: channels-redis lets
    one receive of a process wait on Redis at a time, and once a process follows a table its
    relay (or a signed-in page's socket) always holds that wait, popping its own channel's list
    until something comes, so a health check's receive on a channel of its own waited behind
    it and timed out: every process that had ever had a table socket was reported down."""
    layer = get_channel_layer()
    ping = getattr(layer, "ping", None)
    if ping is not None:
        return await asyncio.wait_for(ping(), LAYER_TIMEOUT)
    channel = await layer.new_channel("health.")
    await layer.send(channel, {"type": "health.ping"})
    message = await asyncio.wait_for(layer.receive(channel), LAYER_TIMEOUT)
    return message.get("type") == "health.ping"


def channel_layer_ok() -> bool:
    try:
        return async_to_sync(_layer_answers)()
    except Exception as error:  # (Redis down: said once by game.runtime.outage, not traced per check)
        logger.warning("health: channel layer unreachable (%s)", error)
        return False


class HealthCheckMiddleware:
    """GET /healthz: 200 when this process reaches its database and its channel layer, else 503;
    with how full it is (game.runtime.capacity). First in the chain: no host check, session,
    redirect or language prefix gets in its way."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        if request.path != HEALTH_PATH:
            return self.get_response(request)
        started = time.monotonic()
        checks = {"database": database_ok(), "channel_layer": channel_layer_ok()}
        healthy = all(checks.values())
        body = {
            "status": "ok" if healthy else "unavailable",
            **checks,
            "ms": round((time.monotonic() - started) * 1000, 1),
            # full is not unhealthy (its tables go on): what it sheds, for whoever watches
            "full": capacity.reason_full(),
            "table_sockets": capacity.open_sockets(),
            "connecting": capacity.connecting_now(),
            "delay_ms": capacity.delay_ms(),
            "turned_away": capacity.turned_away(),
        }
        response = HttpResponse(json.dumps(body), content_type="application/json", status=200 if healthy else 503)
        response["Cache-Control"] = "no-store"
        return response


class ContentSecurityPolicyMiddleware:
    """Pages may load scripts, styles and sockets from this site only (settings.CONTENT_SECURITY_POLICY)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        policy = getattr(settings, "CONTENT_SECURITY_POLICY", "")
        if policy and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy
        return response


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


class CanonicalHostMiddleware:
    """A page asked for by an IP address (http://127.0.0.1:8000/…) is sent to the same page at
    settings.SEVN_CANONICAL_HOST (`make run` sets localhost:8000): a passkey belongs to a domain
    name, and WebAuthn refuses an address ("This is an invalid domain"). Off unless the setting
    names a host (the tests' live servers stay on 127.0.0.1); GET and HEAD only, so that nothing
    posted is lost; a name other than the canonical one is left alone (friends on the network)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        canonical = getattr(settings, "SEVN_CANONICAL_HOST", "")
        if canonical and request.method in ("GET", "HEAD"):
            host = request.get_host()
            if host != canonical and _is_address(split_domain_port(host)[0]):
                return HttpResponseRedirect(f"{request.scheme}://{canonical}{request.get_full_path()}")
        return self.get_response(request)
