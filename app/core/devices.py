"""Device cookies (the rules and why in docs/security.md, "Sign-in limits"): a browser that
signed in to an account keeps a long-lived sealed cookie naming the account and a random
device nonce. Its later sign-ins to that account are counted against that device alone
(app/core/throttle.py), so guessing from elsewhere can neither lock it out nor slow it.

One cookie an area holds the accounts signed in from the browser, newest first (a phone shared
by a few riders keeps each of theirs); it proves nothing for any other account. A cookie that
is not genuine, or made for the other area, counts as none.
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass
from datetime import timedelta

from aiohttp import web

from app.core import tokens
from app.core.keys import SETTINGS

LIFETIME = timedelta(days=365)
# The accounts one browser is known for, beyond which the oldest is dropped.
KEPT = 5


@dataclass(frozen=True)
class Area:
    cookie: str
    path: str
    # Sealed into the MAC: the panel's cookie is worth nothing to the rider app, and back.
    purpose: bytes


ADMIN = Area("admin_device", "/admin", b"device cookie: admin")
RIDER = Area("rider_device", "/", b"device cookie: rider")


@dataclass(frozen=True)
class Known:
    """The accounts the request's device cookie is valid for: (account, nonce, expires at in
    seconds since the epoch), newest first."""

    entries: tuple[tuple[str, str, int], ...] = ()

    def device(self, account: str | None) -> str | None:
        """The device nonce the cookie holds for `account`; None: an unknown device."""
        return next((nonce for known, nonce, _ in self.entries if known == account), None)


def _key(request: web.Request) -> str:
    return tokens.derive(request.app[SETTINGS].session_secret, b"device cookies")


def read(area: Area, request: web.Request) -> Known:
    """What the request's device cookie of `area` proves (nothing when there is none, it is
    not genuine or its entries have expired). Needs SESSION_SECRET, as sign-in does."""
    token = request.cookies.get(area.cookie)
    if not token:
        return Known()
    try:
        entries = json.loads(tokens.unseal(_key(request), area.purpose, token))
    except (tokens.ForgedToken, ValueError):
        return Known()
    now = time.time()
    return Known(tuple((a, n, e) for a, n, e in entries if e > now))


def remember(
    area: Area, request: web.Request, response: web.StreamResponse, known: Known, account: str
) -> None:
    """`response` gives the browser, which has just signed in to `account`, a cookie with a
    new device nonce for it, keeping the other accounts it was known for."""
    expires = int(time.time() + LIFETIME.total_seconds())
    entries = [(account, secrets.token_urlsafe(16), expires)]
    entries += [entry for entry in known.entries if entry[0] != account][: KEPT - 1]
    payload = json.dumps(entries, separators=(",", ":")).encode()
    response.set_cookie(
        area.cookie,
        tokens.seal(_key(request), area.purpose, payload),
        max_age=int(LIFETIME.total_seconds()),
        path=area.path,
        httponly=True,
        secure=request.app[SETTINGS].secure_cookies,
        # Only the area's own sign-in form needs it: never sent from another site.
        samesite="Strict",
    )
