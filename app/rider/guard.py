"""The rider app's signed-in pages (`/training` and everything under it, `/sign-out`) need a
live rider session; without one the browser is sent (303) to the sign-in page `/`. The
session's rider is `request[RIDER]`: the one other packages use (the assistant lives at
`/training/assistant`).

`?lang=` on any signed-in page switches the language and the session remembers it.
"""

from __future__ import annotations

from dataclasses import replace

from aiohttp import web

from app.core import csrf, sessions
from app.core.keys import POOL
from app.rider import store
from app.training.languages import LANGUAGES

SIGN_IN = "/"

RIDER = web.RequestKey("rider", store.Rider)


def _signed_in_area(path: str) -> bool:
    return path in ("/training", "/sign-out") or path.startswith("/training/")


@web.middleware
async def guard(request: web.Request, handler):
    if not _signed_in_area(request.path):
        return await handler(request)
    pool = request.app[POOL]
    id_hash = sessions.id_hash(sessions.RIDER, request)
    found = id_hash and await store.signed_in(pool, id_hash)
    if not found:
        raise web.HTTPSeeOther(SIGN_IN)
    session, rider = found
    language = session.language or rider.language
    asked = request.query.get("lang")
    if asked in LANGUAGES and asked != language:
        await sessions.remember_language(pool, sessions.RIDER, request, asked)
        language = asked
    request[csrf.SESSION] = session
    request[RIDER] = replace(rider, language=language)
    return await handler(request)
