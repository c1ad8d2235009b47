"""Rider PINs at rest: a salted HMAC-SHA256 keyed with a pepper that is not in the database.

Threat model (docs/api-training.md, "PINs"): 4 to 8 digits are at most 10^8 guesses, which no
KDF setting makes slow enough offline, so a table or backup that leaks alone must not be
enough: the pepper (PIN_PEPPER, else derived from SESSION_SECRET) lives only in the service's
environment. Online guessing is limited by the sign-in throttle (spec, Limits).

`sha256$<salt>$<digest>` hashes (written before the pepper, or while no secret was set) are
still recognised by `pin_matches`; the next upsert with a PIN rewrites them.
"""

from __future__ import annotations

import hashlib
import hmac
import os

from app.core import tokens
from app.core.config import Settings

PEPPERED = "hmac-sha256"
PLAIN = "sha256"

_pepper: bytes | None = None


def pepper_of(settings: Settings) -> bytes | None:
    if settings.pin_pepper:
        return settings.pin_pepper.encode()
    if settings.session_secret_ok:
        return tokens.derive(settings.session_secret, b"pin-pepper").encode()
    return None


def configure(settings: Settings) -> None:
    """Set the process's pepper, once at start (serve, load-data, demo-data)."""
    global _pepper
    _pepper = pepper_of(settings)


def hash_pin(pin: str) -> str:
    """`hmac-sha256$<salt>$<digest>` with a random per-rider salt; `sha256$…` without a
    pepper (the service then logs that PINs are not peppered)."""
    salt = os.urandom(16)
    if _pepper is None:
        return f"{PLAIN}${salt.hex()}${hashlib.sha256(salt + pin.encode()).hexdigest()}"
    digest = hmac.new(_pepper, salt + pin.encode(), hashlib.sha256).hexdigest()
    return f"{PEPPERED}${salt.hex()}${digest}"


def pin_matches(stored: str, pin: str) -> bool:
    """Whether `pin` is the PIN `stored` was made from (constant time)."""
    scheme, _, rest = stored.partition("$")
    salt_hex, _, digest = rest.partition("$")
    try:
        salt = bytes.fromhex(salt_hex)
    except ValueError:
        return False
    if scheme == PEPPERED and _pepper is not None:
        expected = hmac.new(_pepper, salt + pin.encode(), hashlib.sha256).hexdigest()
    elif scheme == PLAIN:
        expected = hashlib.sha256(salt + pin.encode()).hexdigest()
    else:
        return False
    return hmac.compare_digest(expected, digest)
