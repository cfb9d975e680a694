"""The site's signature on a game record (Ed25519, docs/fair-deal.md).

The seal only shows a record is whole, and the replay that its deal and moves follow from its
seeds: anyone can make a new server seed, play a game offline and write a self-consistent record
for a real table and game number. The signature is what ties a record to the site that dealt it:
made with the site's private key over every field (names, seats, bot flags and times too), and
checked by anyone with the site's public key (published at /record-key.txt).

Keys are written as lowercase hex: the private key its 32-byte seed, the public key its 32 bytes.
The `cryptography` package does the arithmetic; it is imported only when a signature is made or
checked, so the rest of `python -m game.verify` still runs on a bare Python (it then says the
signature could not be checked).
"""

from __future__ import annotations

import re
import secrets
from types import ModuleType

SCHEME = "ed25519"
KEY = re.compile(r"[0-9a-f]{64}")  # a key's 32 bytes, in hex
VALUE = re.compile(r"[0-9a-f]{128}")  # a signature's 64 bytes, in hex


class Unavailable(Exception):
    """The `cryptography` package is not installed here: no signature can be made or checked."""


def _ed25519() -> ModuleType:
    try:
        from cryptography.hazmat.primitives.asymmetric import ed25519
    except ImportError:
        raise Unavailable("the cryptography package is not installed") from None
    return ed25519


def new_private_key() -> str:
    """A fresh private key: 32 random bytes (any 32 bytes are an Ed25519 key's seed)."""
    return secrets.token_bytes(32).hex()


def clean_key(text: object) -> str | None:
    """A key as written (64 hex digits, any case, spaces and line ends around it), or None."""
    key = str(text or "").strip().lower()
    return key if KEY.fullmatch(key) else None


def public_key(private_key: str) -> str:
    """The public key that checks what this private key signs."""
    ed25519 = _ed25519()
    private = ed25519.Ed25519PrivateKey.from_private_bytes(bytes.fromhex(private_key))
    return private.public_key().public_bytes_raw().hex()


def sign(message: bytes, private_key: str) -> str:
    """The signature of these bytes, in hex (Ed25519 is deterministic: the same bytes, the same one)."""
    ed25519 = _ed25519()
    return ed25519.Ed25519PrivateKey.from_private_bytes(bytes.fromhex(private_key)).sign(message).hex()


def valid(message: bytes, key: str, value: str) -> bool:
    """Whether `value` is the signature of these bytes by the private key of public `key`."""
    ed25519 = _ed25519()
    if not KEY.fullmatch(key) or not VALUE.fullmatch(value):
        return False
    try:
        ed25519.Ed25519PublicKey.from_public_bytes(bytes.fromhex(key)).verify(bytes.fromhex(value), message)
    except Exception:  # cryptography's InvalidSignature, or a key that is no point on the curve
        return False
    return True
