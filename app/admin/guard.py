"""Every `/admin` page but sign-in and setup needs a live admin session; without one the
browser is sent (303) to the sign-in page. The session's admin is `request[ADMIN]`, loaded
again on every request, so a change to their role or markets counts from their next one.

Every signed-in route declares the least role that may use it (`roles.needs`); one that
declares none is refused (403) rather than open to every role (docs/security.md, roles)."""

from __future__ import annotations

from aiohttp import web

from app.admin import accounts, notices
from app.core import audit, csrf, sessions, throttle
from app.core.keys import POOL

PUBLIC_PATHS = frozenset({"/admin/sign-in", "/admin/setup"})
SIGN_IN = "/admin/sign-in"

ADMIN = web.RequestKey("admin", accounts.Admin)


def actor(request: web.Request) -> audit.Actor:
    """The signed-in admin as the audit log names who made a change."""
    return audit.Actor(request[ADMIN].email, throttle.client_address(request))


def _in_panel(path: str) -> bool:
    return path == "/admin" or path.startswith("/admin/")


def _declares_role(match_info: web.UrlMappingMatchInfo) -> bool:
    """Whether the route's handler declares its role (`roles.needs` marks it); an address
    with no route answers its own 404 or 405."""
    return match_info.http_exception is not None or hasattr(match_info.handler, "role")


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
    if not _declares_role(request.match_info):
        raise web.HTTPForbidden
    await notices.take(request)
    response = await handler(request)
    sessions.renew_cookie(request, response, sessions.ADMIN, session)
    return response
