"""One-tap links and rider sessions: a rider id and an expiry, signed with SESSION_SECRET.

A token is `expiry:rider id` sealed by `app.core.tokens` under a purpose, so a link token is
never accepted as a session cookie or the other way round.
Nothing is stored on the server: changing SESSION_SECRET invalidates every link and session.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from app.core import tokens
from app.core.config import Settings

LINK_TTL = timedelta(days=7)
SESSION_TTL = timedelta(days=7)
LINK_PURPOSE = b"one-tap-link"
SESSION_PURPOSE = b"rider-session"
SESSION_COOKIE = "rider_session"


class InvalidToken(Exception):
    """The token was not made by this service with this secret, or it has expired."""


class ExpiredToken(InvalidToken):
    """A genuine token past its expiry: the rider needs a new link."""


def sign(secret: str, purpose: bytes, rider_id: str, expires: datetime) -> str:
    return tokens.seal(secret, purpose, f"{int(expires.timestamp())}:{rider_id}".encode())


def verify(secret: str, purpose: bytes, token: str, now: datetime) -> str:
    """The rider id of a genuine, unexpired token; else InvalidToken."""
    try:
        payload = tokens.unseal(secret, purpose, token)
    except tokens.ForgedToken:
        raise InvalidToken("forged or malformed") from None
    expiry, _, rider_id = payload.decode().partition(":")
    if int(expiry) <= now.timestamp():
        raise ExpiredToken("expired")
    return rider_id


def one_tap_link(settings: Settings, rider_id: str, now: datetime) -> str | None:
    """`{PUBLIC_BASE_URL}/t/<token>`, valid 7 days; None when no secret can sign it."""
    if not settings.session_secret_ok:
        return None
    token = sign(settings.session_secret, LINK_PURPOSE, rider_id, now + LINK_TTL)
    return f"{settings.public_base_url}/t/{token}"
