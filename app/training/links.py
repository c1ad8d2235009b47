"""One-tap links and rider sessions: a rider id and an expiry, signed with SESSION_SECRET.

A token is `<base64url(expiry:rider id)>.<base64url(HMAC-SHA256)>`. The HMAC also covers a
purpose, so a link token is never accepted as a session cookie or the other way round.
Nothing is stored on the server: changing SESSION_SECRET invalidates every link and session.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
from datetime import datetime, timedelta

from app.core.config import Settings

LINK_TTL = timedelta(days=7)
SESSION_TTL = timedelta(days=7)
LINK_PURPOSE = b"one-tap-link"
SESSION_PURPOSE = b"rider-session"
SESSION_COOKIE = "rider_session"


class InvalidToken(Exception):
    """The token was not made by this service with this secret, or it has expired."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _mac(secret: str, purpose: bytes, payload: bytes) -> bytes:
    return hmac.new(secret.encode(), purpose + b"\0" + payload, hashlib.sha256).digest()


def sign(secret: str, purpose: bytes, rider_id: str, expires: datetime) -> str:
    payload = f"{int(expires.timestamp())}:{rider_id}".encode()
    return f"{_b64(payload)}.{_b64(_mac(secret, purpose, payload))}"


def verify(secret: str, purpose: bytes, token: str, now: datetime) -> str:
    """The rider id of a genuine, unexpired token; else InvalidToken."""
    encoded, _, mac = token.partition(".")
    try:
        payload, given = _unb64(encoded), _unb64(mac)
    except (binascii.Error, ValueError):
        raise InvalidToken("malformed") from None
    if not hmac.compare_digest(given, _mac(secret, purpose, payload)):
        raise InvalidToken("bad signature")
    expiry, _, rider_id = payload.decode().partition(":")
    if int(expiry) <= now.timestamp():
        raise InvalidToken("expired")
    return rider_id


def one_tap_link(settings: Settings, rider_id: str, now: datetime) -> str | None:
    """`{PUBLIC_BASE_URL}/t/<token>`, valid 7 days; None when no secret can sign it."""
    if not settings.session_secret_ok:
        return None
    token = sign(settings.session_secret, LINK_PURPOSE, rider_id, now + LINK_TTL)
    return f"{settings.public_base_url}/t/{token}"
