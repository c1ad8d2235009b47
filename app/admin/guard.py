"""Every `/admin` page but sign-in and setup needs a live admin session; without one the
browser is sent (303) to the sign-in page. The session's admin is `request[ADMIN]`."""

from __future__ import annotations

from aiohttp import web

from app.admin import accounts
from app.core import audit, csrf, sessions, throttle
from app.core.keys import POOL

PUBLIC_PATHS = frozenset({"/admin/sign-in", "/admin/setup"})
SIGN_IN = "/admin/sign-in"

ADMIN = web.RequestKey("admin", accounts.Admin)


def _in_panel(path: str) -> bool:
    return path == "/admin" or path.startswith("/admin/")


@web.middleware
async def guard(request: web.Request, handler):
    if not _in_panel(request.path) or request.path in PUBLIC_PATHS:
        return await handler(request)
    pool = request.app[POOL]
    session = await sessions.load(pool, sessions.ADMIN, request)
    if session is None:
        raise web.HTTPSeeOther(SIGN_IN)
    request[csrf.SESSION] = session
    request[ADMIN] = await accounts.admin(pool, session.admin_id)
    response = await handler(request)
    sessions.renew_cookie(request, response, sessions.ADMIN, session)
    return response


def actor(request: web.Request) -> audit.Actor:
    """Who makes the request's change, for the audit log: the admin and their address."""
    return audit.Actor(request[ADMIN].email, throttle.client_address(request))
