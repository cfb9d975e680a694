"""Web Push: a notice encrypted for one device (RFC 8291, aes128gcm) and posted to its push
service with the site's VAPID signature (RFC 8292), through pywebpush.

Sending is network work: the outbox (game.services.outbox) calls `send` from a pool of threads,
never from the database thread every move waits for. Each thread keeps one HTTP session per
push service (connections reused), and the VAPID header for a push service's origin is signed
once and reused for hours (it is valid for 12), not signed again for every notice."""

from __future__ import annotations

import base64
import threading
import time
from typing import NamedTuple
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives import serialization
from django.conf import settings
from py_vapid import Vapid
from pywebpush import WebPusher

VAPID_LIFETIME = 12 * 3600  # seconds: the longest a push service accepts (RFC 8292: 24 h at most)
VAPID_RENEW = 6 * 3600  # a header is signed again when this old
TIMEOUT = 10  # seconds a push service has to answer
GONE = frozenset({404, 410})  # the subscription no longer exists: remove it


class Target(NamedTuple):
    """One device's subscription: where to post and the keys to encrypt for."""

    id: int
    endpoint: str
    p256dh: str
    auth: str


class Result(NamedTuple):
    """What the push service answered: its HTTP status (0: no answer)."""

    target: Target
    status: int

    @property
    def delivered(self) -> bool:
        return 200 <= self.status < 300

    @property
    def gone(self) -> bool:
        return self.status in GONE


_vapid_lock = threading.Lock()
_vapid: dict[str, object] = {}
_headers: dict[str, tuple[float, dict]] = {}
_local = threading.local()


def _key() -> Vapid:
    key = _vapid.get("key")
    if key is None or _vapid.get("raw") != settings.SEVN_VAPID_KEY:
        key = Vapid.from_raw(settings.SEVN_VAPID_KEY.encode())
        _vapid.update(key=key, raw=settings.SEVN_VAPID_KEY)
        _headers.clear()
    return key  # type: ignore[return-value]


def public_key() -> str:
    """The applicationServerKey a browser subscribes with: the uncompressed P-256 point, URL-safe
    base64 without padding."""
    with _vapid_lock:
        point = _key().public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
    return base64.urlsafe_b64encode(point).decode().rstrip("=")


def _authorization(endpoint: str) -> dict:
    parts = urlsplit(endpoint)
    audience = f"{parts.scheme}://{parts.netloc}"
    now = time.time()
    with _vapid_lock:
        kept = _headers.get(audience)
        if kept is not None and now - kept[0] < VAPID_RENEW and _vapid.get("raw") == settings.SEVN_VAPID_KEY:
            return kept[1]
        claims = {"aud": audience, "exp": int(now) + VAPID_LIFETIME, "sub": settings.SEVN_VAPID_SUBJECT}
        signed = _key().sign(claims)
        _headers[audience] = (now, signed)
        return signed


def _session() -> requests.Session:
    session = getattr(_local, "session", None)
    if session is None:
        session = _local.session = requests.Session()
    return session


def send(target: Target, payload: bytes, *, ttl: int, topic: str = "", urgency: str = "normal") -> Result:
    """Encrypt `payload` for the device and post it; a network failure is status 0 (tried later)."""
    headers = dict(_authorization(target.endpoint))
    headers["urgency"] = urgency
    if topic:  # a push service keeps only the newest message of a topic for a device that is offline
        headers["topic"] = topic
    pusher = WebPusher(
        {"endpoint": target.endpoint, "keys": {"p256dh": target.p256dh, "auth": target.auth}},
        requests_session=_session(),
    )
    try:
        response = pusher.send(payload, headers=headers, ttl=ttl, timeout=TIMEOUT)
    except requests.RequestException:
        return Result(target, 0)
    return Result(target, response.status_code)


def endpoint_allowed(endpoint: str) -> bool:
    """Whether the site may post to this endpoint: https (http only where the settings allow it,
    a local receiver in tests) to one of the push services' hosts (SEVN_PUSH_HOSTS)."""
    try:
        parts = urlsplit(endpoint)
        host = (parts.hostname or "").lower()
    except ValueError:
        return False
    if parts.scheme != "https" and not (parts.scheme == "http" and settings.SEVN_PUSH_ALLOW_HTTP):
        return False
    return any(host == allowed or host.endswith("." + allowed) for allowed in settings.SEVN_PUSH_HOSTS)
