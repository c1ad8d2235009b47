"""The rider's one-tap link: `GET /t/<token>` signs the rider in and lists their open training.

Every answer is a small HTML page, never a JSON error or a traceback: riders open it from a
message on their phone. Pages are personal (`Cache-Control: no-store`) and send no Referer,
so the token in the address never travels to another site.
"""

from __future__ import annotations

from datetime import UTC, datetime

import asyncpg
import structlog
from aiohttp import web

from app.core import html, sql
from app.core.keys import POOL, SETTINGS
from app.messaging.links import (
    LINK_PURPOSE,
    SESSION_COOKIE,
    SESSION_PURPOSE,
    SESSION_TTL,
    ExpiredToken,
    InvalidToken,
    revoked,
    sign,
    verify_issued,
)
from app.messaging.texts import due_text

log = structlog.get_logger("rider.pages")

SQL = sql.load("messaging", "rider_open_training")

routes = web.RouteTableDef()

NEW_LINK_HINT = "Each training reminder brings a new link; you can also ask your training team."
# The database being unreachable or refusing connections must not turn into a JSON 500 on a
# rider's phone: the page says to try again, the log has the traceback. (A connection the
# server dropped can also surface as asyncpg's InternalClientError.)
DATABASE_DOWN = (
    OSError,
    TimeoutError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    asyncpg.PostgresError,
)


def _sign_in(response: web.Response, settings, rider_id: str, now: datetime) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        sign(settings.session_secret, SESSION_PURPOSE, rider_id, now + SESSION_TTL),
        max_age=int(SESSION_TTL.total_seconds()),
        path="/",
        httponly=True,
        secure=settings.public_base_url.startswith("https://"),
        samesite="Lax",
    )


@routes.get("/t/{token}")
async def one_tap_sign_in(request: web.Request) -> web.Response:
    settings = request.app[SETTINGS]
    if not settings.session_secret_ok:
        log.error("SESSION_SECRET must be set", refused="one-tap sign-in")
        return html.page(
            503,
            "Sign-in is not available right now",
            "Your training is still assigned to you. Please try the link again later.",
        )
    now = datetime.now(UTC)
    try:
        rider_id, issued = verify_issued(
            settings.session_secret, LINK_PURPOSE, request.match_info["token"], now
        )
    except ExpiredToken:
        log.info("one-tap link refused", reason="expired")
        return html.page(400, "This link has expired", NEW_LINK_HINT)
    except InvalidToken as exc:
        log.info("one-tap link refused", reason=str(exc))
        return html.page(400, "This link is not valid", NEW_LINK_HINT)
    try:
        rows = await request.app[POOL].fetch(SQL.rider_open_training, rider_id)
    except DATABASE_DOWN:
        log.exception("one-tap page without database")
        return html.page(503, "Your training cannot be shown right now", "Please try again soon.")
    if not rows:
        log.info("one-tap link refused", reason="unknown rider")
        return html.page(400, "This link is not valid", NEW_LINK_HINT)
    if revoked(issued, rows[0]["links_revoked_at"]):
        log.info("one-tap link refused", reason="revoked")
        return html.page(400, "This link is not valid", NEW_LINK_HINT)
    if rows[0]["status"] == "inactive":
        log.info("one-tap link refused", reason="inactive rider")
        return html.page(
            403, "Your account is not active", "Please contact your training team."
        )
    open_paths = [due_text(r["path"], r["deadline"], now) for r in rows if r["path"] is not None]
    summary = (
        "Your open training, oldest deadline first (dates in UTC):"
        if open_paths
        else "You have no open training. Well done!"
    )
    response = html.page(200, f"Hi {rows[0]['name']}", summary, items=open_paths)
    _sign_in(response, settings, rider_id, now)
    log.info("one-tap sign-in", rider_id=rider_id)
    return response
