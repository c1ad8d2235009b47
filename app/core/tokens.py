"""Sealed tokens: `<base64url(payload)>.<base64url(HMAC-SHA256)>`, readable by anyone and
forgeable by no one without the secret. The MAC also covers a purpose, so a token made for
one use (a page cursor, a sign-in link, a session) is never accepted for another."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac


class ForgedToken(Exception):
    """Not made with this secret for this purpose, or not a token at all."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    # Strict: a character outside the base64url alphabet is a damaged token, not one to skip.
    return base64.b64decode(text + "=" * (-len(text) % 4), altchars=b"-_", validate=True)


def derive(secret: str, label: bytes) -> str:
    """A key for one use, derived from a secret that serves others too (an API key): what
    signs cursors then reveals nothing about the key itself and cannot sign anything else."""
    return hmac.new(secret.encode(), b"rider-ops key: " + label, hashlib.sha256).hexdigest()


def _mac(secret: str, purpose: bytes, payload: bytes) -> bytes:
    return hmac.new(secret.encode(), purpose + b"\0" + payload, hashlib.sha256).digest()


def seal(secret: str, purpose: bytes, payload: bytes) -> str:
    return f"{_b64(payload)}.{_b64(_mac(secret, purpose, payload))}"


def unseal(secret: str, purpose: bytes, token: str) -> bytes:
    """The payload of a genuine token; ForgedToken otherwise."""
    encoded, _, mac = token.partition(".")
    try:
        payload, given = _unb64(encoded), _unb64(mac)
    except (binascii.Error, ValueError):
        raise ForgedToken from None
    if not hmac.compare_digest(given, _mac(secret, purpose, payload)):
        raise ForgedToken
    return payload
