"""One-tap links: a rider id and an expiry, signed with SESSION_SECRET.

A token is `expiry:rider id` sealed by `app.core.tokens` under a purpose, so a token made for
another purpose is never accepted as a link. A link opens a server-side rider session
(`app.rider.one_tap`).
Nothing secret is stored: messages keep a link without its signature (`signature_removed`),
so a leaked table or backup signs no one in (the rider's next reminder brings a working link).
Changing SESSION_SECRET invalidates every link; `revoke_links` those of one rider
(every link issued before that moment: riders.links_revoked_at) and ends their sessions.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import asyncpg

from app.core import sql, tokens
from app.core.config import Settings

SQL = sql.load("messaging", "revoke_links")

# Reminders go out daily while training is open, each with a new link: two days cover a
# missed day. (A flag notification's link lives as long.)
LINK_TTL = timedelta(days=2)
LINK_PURPOSE = b"one-tap-link"


class InvalidToken(Exception):
    """The token was not made by this service with this secret, or it has expired."""


class ExpiredToken(InvalidToken):
    """A genuine token past its expiry: the rider needs a new link."""


def sign(secret: str, purpose: bytes, rider_id: str, expires: datetime) -> str:
    return tokens.seal(secret, purpose, f"{int(expires.timestamp())}:{rider_id}".encode())


def verify(secret: str, purpose: bytes, token: str, now: datetime) -> str:
    """The rider id of a genuine, unexpired token; else InvalidToken."""
    return verify_issued(secret, purpose, token, now)[0]


def verify_issued(secret: str, purpose: bytes, token: str, now: datetime) -> tuple[str, float]:
    """The rider id of a genuine, unexpired link token and when it was issued (a Unix time)."""
    try:
        payload = tokens.unseal(secret, purpose, token)
    except tokens.ForgedToken:
        raise InvalidToken("forged or malformed") from None
    expiry, _, rider_id = payload.decode().partition(":")
    if int(expiry) <= now.timestamp():
        raise ExpiredToken("expired")
    return rider_id, int(expiry) - LINK_TTL.total_seconds()


def revoked(issued: float, links_revoked_at: datetime | None) -> bool:
    """Whether a token issued at `issued` was revoked (riders.links_revoked_at)."""
    return links_revoked_at is not None and issued <= links_revoked_at.timestamp()


async def revoke_links(db: asyncpg.Pool | asyncpg.Connection, rider_id: str) -> bool:
    """Refuse every link of the rider issued until now and end their sessions; False for no
    such rider."""
    return await db.fetchval(SQL.revoke_links, rider_id) is not None


_SIGNED = re.compile(r"(/t/[A-Za-z0-9_-]+)\.[A-Za-z0-9_-]+")
REMOVED = "signature-removed"


def signature_removed(text: str | None) -> str | None:
    """`text` with every one-tap link's signature taken out: what messages store."""
    return None if text is None else _SIGNED.sub(rf"\1.{REMOVED}", text)


def one_tap_link(settings: Settings, rider_id: str, now: datetime) -> str | None:
    """`{PUBLIC_BASE_URL}/t/<token>`, valid 7 days; None when no secret can sign it."""
    if not settings.session_secret_ok:
        return None
    token = sign(settings.session_secret, LINK_PURPOSE, rider_id, now + LINK_TTL)
    return f"{settings.public_base_url}/t/{token}"
