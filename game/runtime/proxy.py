"""Who the client is when a proxy stands in front: the address the connection came from, unless
it came from a proxy this site trusts (SEVN_TRUSTED_PROXIES, 127.0.0.1 by default, the nginx of
deploy/), whose X-Forwarded-For then names the client.

The rule (README, "The forwarded-address rule"):
- The proxy overwrites X-Forwarded-For with the address its connection came from (nginx:
  `proxy_set_header X-Forwarded-For $remote_addr`), never appends to what the client sent
  ($proxy_add_x_forwarded_for): appended, a client on a trusted address (127.0.0.1, the
  proxy's own machine) could write any address left of its own and be believed.
- The app takes the right-most address that is not a trusted proxy: what the last trusted proxy
  saw. Anything to its left the client may have written. If every hop is a trusted proxy, the
  right-most one (the client is itself on a trusted address), never one further left.
- Daphne runs without --proxy-headers: with it, Daphne believes X-Forwarded-For from anyone, so a
  client that reaches a Daphne port directly could name any address it likes (and dodge every
  per-address limit, or get someone else's address shut out). Here the header counts only from
  a trusted proxy; a Daphne port must be reachable from no trusted address but the proxy's.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def _networks(spec: str) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(part.strip(), strict=False) for part in spec.split(",") if part.strip())


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None


def trusted(address: str) -> bool:
    """True if `address` is one of the proxies whose X-Forwarded-For this site believes."""
    parsed = _address(address)
    return parsed is not None and any(parsed in network for network in _networks(settings.SEVN_TRUSTED_PROXIES))


def resolve(peer: str, forwarded_for: str | None) -> str:
    """The client's address: `peer` (the connection's), or what a trusted proxy forwarded."""
    if not forwarded_for or not trusted(peer):
        return peer
    hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
    for hop in reversed(hops):
        parsed = _address(hop)
        if parsed is None:  # not an address: the header is not the proxy's, keep the peer
            return peer
        if not trusted(str(parsed)):
            return str(parsed)
    return str(_address(hops[-1])) if hops else peer  # all trusted: the nearest, not one the client wrote


def scope_header(scope: dict, name: bytes) -> str | None:
    """A header of an ASGI scope, its lines joined with commas in order (as Django joins them in
    a request's META: a socket and a page from one client resolve alike)."""
    found = [value.decode("latin-1") for key, value in scope.get("headers") or () if key.lower() == name]
    return ",".join(found) if found else None


def client_address(scope_or_meta: dict) -> str:
    """The client's address from an ASGI scope (sockets) or a request's META (pages)."""
    client = scope_or_meta.get("client")
    if client:
        return resolve(str(client[0]), scope_header(scope_or_meta, b"x-forwarded-for"))
    return resolve(str(scope_or_meta.get("REMOTE_ADDR", "")), scope_or_meta.get("HTTP_X_FORWARDED_FOR"))
