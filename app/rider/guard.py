"""The rider app's signed-in pages (`/training` and everything under it, `/sign-out`) need a
live rider session; without one the browser is sent (303) to the sign-in page `/`. The
session's rider is `request[RIDER]`: the one other packages use (the assistant lives at
`/training/assistant`).

`?lang=` on any signed-in page switches the language and the session remembers it.

A shared phone (docs/rider-offline.md, "Shared phones"): beside the HttpOnly session cookie, the
phone holds `rider_key`, a cookie its service worker can read, naming the rider whose session
is on the phone by an opaque key (`rider_key()`). The worker shows and sends a rider's offline
copy and kept answers only under that rider's key. The guard keeps the cookie true: it clears
both cookies when the session has ended (expired, revoked, a new PIN, links revoked), ends the
session when the worker marked the phone signed out while offline (`SIGNED_OUT`), and gives
the cookie back to a live session that lacks it (a session from before the cookie).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import replace
from datetime import datetime

from aiohttp import web

from app.core import csrf, pages, sessions
from app.core.config import Settings
from app.core.keys import POOL, SETTINGS
from app.rider import store
from app.training.languages import LANGUAGES

SIGN_IN = "/"

RIDER = web.RequestKey("rider", store.Rider)

KEY_COOKIE = "rider_key"
# What the worker writes into KEY_COOKIE at a sign-out made offline: the next request that
# reaches the server, through the worker or not, ends the session it still carries.
SIGNED_OUT = "signed-out"
_KEY_LABEL = b"rider-ops rider key\0"


def rider_key(session_secret: str | None, rider_id: str) -> str:
    """The rider's key on phones: names their offline copy and marks their kept answers. A
    keyed hash of the rider ID under SESSION_SECRET: it tells riders apart without telling
    who they are (a plain hash of an ID like `R-7` is undone by trying IDs), and signs no one
    in."""
    secret = (session_secret or "").encode()
    return hmac.new(secret, _KEY_LABEL + rider_id.encode(), hashlib.sha256).hexdigest()[:32]


def set_key_cookie(
    response: web.StreamResponse, settings: Settings, rider_id: str, max_age: int
) -> None:
    """The phone's `rider_key` cookie, living as long as the session (`max_age` seconds). Not
    HttpOnly: the service worker reads it (Cookie Store API)."""
    response.set_cookie(
        KEY_COOKIE,
        rider_key(settings.session_secret, rider_id),
        max_age=max_age,
        path="/",
        httponly=False,
        secure=settings.secure_cookies,
        samesite="Lax",
    )


def clear_key_cookie(response: web.StreamResponse) -> None:
    response.del_cookie(KEY_COOKIE, path="/")


def _signed_out(request: web.Request) -> web.Response:
    """To sign-in; the phone forgets a session that ended."""
    response = pages.see_other(SIGN_IN)
    if sessions.RIDER.cookie in request.cookies or KEY_COOKIE in request.cookies:
        sessions.clear_cookie(response, sessions.RIDER)
        clear_key_cookie(response)
    return response


def _signed_in_area(path: str) -> bool:
    return path in ("/training", "/sign-out") or path.startswith("/training/")


@web.middleware
async def guard(request: web.Request, handler):
    if not _signed_in_area(request.path):
        return await handler(request)
    pool = request.app[POOL]
    id_hash = sessions.id_hash(sessions.RIDER, request)
    found = id_hash and await store.signed_in(pool, id_hash)
    phone_key = request.cookies.get(KEY_COOKIE)
    if found and phone_key == SIGNED_OUT:
        # Signed out on the phone while offline: the session ends now, whatever the request.
        await sessions.revoke(pool, sessions.RIDER, request)
        found = None
    if not found:
        return _signed_out(request)
    session, rider = found
    language = session.language or rider.language
    asked = request.query.get("lang")
    if asked in LANGUAGES and asked != language:
        await sessions.remember_language(pool, sessions.RIDER, request, asked)
        language = asked
    request[csrf.SESSION] = session
    request[RIDER] = replace(rider, language=language)
    response = await handler(request)
    settings = request.app[SETTINGS]
    if (
        phone_key != rider_key(settings.session_secret, rider.rider_id)
        and KEY_COOKIE not in response.cookies
        and not response.prepared
    ):
        left = session.expires_at - datetime.now(session.expires_at.tzinfo)
        set_key_cookie(response, settings, rider.rider_id, int(left.total_seconds()))
    return response
