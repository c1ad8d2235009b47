"""Rider PINs at rest: a salted HMAC-SHA256 keyed with a pepper that is not in the database.

Threat model (docs/api-training.md, "PINs"): 4 to 8 digits are at most 10^8 guesses, which no
KDF setting makes slow enough offline, so a table or backup that leaks alone must not be
enough: the pepper (PIN_PEPPER, else derived from SESSION_SECRET) lives only in the service's
environment. Online guessing is limited by the sign-in throttle (docs/limits.md).

`sha256$<salt>$<digest>` hashes (written before the pepper, or while no secret was set) are
still recognised by `pin_matches`; the next upsert with a PIN rewrites them.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Sequence

from app.core import tokens
from app.core.config import Settings
from app.training.riders import Rider

PEPPERED = "hmac-sha256"
PLAIN = "sha256"


def pepper_of(settings: Settings) -> bytes | None:
    """The pepper of this service's PINs, from its settings (a request's `app[SETTINGS]`)."""
    if settings.pin_pepper:
        return settings.pin_pepper.encode()
    if settings.session_secret_ok:
        return tokens.derive(settings.session_secret, b"pin-pepper").encode()
    return None


def hash_pin(pepper: bytes | None, pin: str) -> str:
    """`hmac-sha256$<salt>$<digest>` with a random per-rider salt; `sha256$…` without a
    pepper (the service then logs that PINs are not peppered)."""
    salt = os.urandom(16)
    if pepper is None:
        return f"{PLAIN}${salt.hex()}${hashlib.sha256(salt + pin.encode()).hexdigest()}"
    digest = hmac.new(pepper, salt + pin.encode(), hashlib.sha256).hexdigest()
    return f"{PEPPERED}${salt.hex()}${digest}"


def with_pin_hashes(riders: Sequence[Rider], pepper: bytes | None) -> list[Rider]:
    """The riders as they are stored: a PIN sent becomes its hash (`pin_hash`), and the PIN
    itself is dropped."""
    return [
        rider.with_pin_hash(hash_pin(pepper, rider.pin)) if rider.pin else rider for rider in riders
    ]


def pin_matches(pepper: bytes | None, stored: str, pin: str) -> bool:
    """Whether `pin` is the PIN `stored` was made from (constant time)."""
    scheme, _, rest = stored.partition("$")
    salt_hex, _, digest = rest.partition("$")
    try:
        salt = bytes.fromhex(salt_hex)
    except ValueError:
        return False
    if scheme == PEPPERED and pepper is not None:
        expected = hmac.new(pepper, salt + pin.encode(), hashlib.sha256).hexdigest()
    elif scheme == PLAIN:
        expected = hashlib.sha256(salt + pin.encode()).hexdigest()
    else:
        return False
    return hmac.compare_digest(expected, digest)
