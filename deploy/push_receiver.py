"""A push service on this machine, for the tests and the bench: it stands where a browser's push
service (FCM, Mozilla's autopush) would, takes what the site posts, checks the VAPID signature,
and decrypts each message with the subscription's private key and auth secret, made here as a
browser makes them (a P-256 key pair and 16 random bytes). The encryption is the real one
(RFC 8291, aes128gcm), so a message it reads is one the device would have read.

    with Receiver() as receiver:
        device = receiver.device()          # {"endpoint", "keys": {"p256dh", "auth"}}
        ...                                 # the site pushes to it
        receiver.wait_for(1)                # [Received(endpoint, payload, headers)]
        receiver.answer(device, 410)        # its next pushes are answered "gone"
"""

from __future__ import annotations

import base64
import json
import secrets
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import NamedTuple

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Received(NamedTuple):
    endpoint: str
    payload: dict
    headers: dict


def vapid_valid(authorization: str, audience: str) -> bool:
    """Whether `vapid t=<JWT>, k=<key>` is an ES256 JWT for this audience signed by that key."""
    try:
        fields = dict(part.strip().split("=", 1) for part in authorization.removeprefix("vapid ").split(","))
        token, key = fields["t"], fields["k"]
        head, body, signature = token.split(".")
        claims = json.loads(unb64(body))
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(key))
        raw = unb64(signature)
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        public.verify(der, f"{head}.{body}".encode(), ec.ECDSA(hashes.SHA256()))
    except Exception:
        return False
    return claims.get("aud") == audience and claims.get("exp", 0) > time.time() and "sub" in claims


class Receiver:
    def __init__(self) -> None:
        self._devices: dict[str, tuple[ec.EllipticCurvePrivateKey, bytes]] = {}
        self._answers: dict[str, int] = {}
        self.received: list[Received] = []
        self.refused: list[str] = []  # why a post was refused (a bad signature, a message that does not decrypt)
        self._lock = threading.Lock()
        self._arrived = threading.Condition(self._lock)
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # connections kept open, as a push service does

            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                status = receiver._take(self.path, body, {name.lower(): value for name, value in self.headers.items()})
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        # (shutdown waits for the server's next look at its flag: every 50 ms, not http.server's 0.5 s)
        self._thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)

    def __enter__(self) -> Receiver:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def device(self) -> dict:
        """A new browser's subscription to this push service: its own key pair and auth secret."""
        private = ec.generate_private_key(ec.SECP256R1())
        auth = secrets.token_bytes(16)
        path = "/push/" + secrets.token_urlsafe(12)
        with self._lock:
            self._devices[path] = (private, auth)
        point = private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": self.origin + path, "keys": {"p256dh": b64(point), "auth": b64(auth)}}

    def answer(self, device: dict, status: int) -> None:
        """Answer this device's next pushes with `status` (410: gone, 500: failing)."""
        with self._lock:
            self._answers[device["endpoint"].removeprefix(self.origin)] = status

    def _take(self, path: str, body: bytes, headers: dict) -> int:
        with self._lock:
            known = self._devices.get(path)
            status = self._answers.get(path, 201)
        if known is None:
            return 404
        if status >= 300:
            return status
        if not vapid_valid(headers.get("authorization", ""), self.origin):
            self.refused.append("vapid")
            return 401
        if headers.get("content-encoding") != "aes128gcm":
            self.refused.append("encoding")
            return 400
        try:
            payload = json.loads(
                http_ece.decrypt(body, private_key=known[0], auth_secret=known[1], version="aes128gcm")
            )
        except Exception:
            self.refused.append("decrypt")
            return 400
        with self._arrived:
            self.received.append(Received(self.origin + path, payload, headers))
            self._arrived.notify_all()
        return 201

    def wait_for(self, count: int, timeout: float = 30) -> list[Received]:
        """The messages received once there are at least `count` (or the deadline passed)."""
        with self._arrived:
            self._arrived.wait_for(lambda: len(self.received) >= count, timeout)
            return list(self.received)
