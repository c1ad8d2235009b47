"""The rider's one-tap link: `GET /t/<token>` opens a rider session, as the PIN sign-in does,
and sends the browser (303) to `/training`.

Every refusal is a small HTML page, never a JSON error or a traceback: riders open the link
from a message on their phone. Pages are personal (`Cache-Control: no-store`) and send no
Referer, so the token in the address never travels to another site.
"""

from __future__ import annotations

from datetime import UTC, datetime

import asyncpg
import structlog
from aiohttp import web

from app.core import html
from app.core.keys import POOL, SETTINGS
from app.messaging.links import (
    LINK_PURPOSE,
    ExpiredToken,
    InvalidToken,
    revoked,
    verify_issued,
)
from app.rider import accounts, store
from app.rider.sign_in import signed_in

log = structlog.get_logger("rider.one_tap")

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
    pool = request.app[POOL]
    try:
        rider = await store.rider_by_id(pool, rider_id)
        if rider is None or revoked(issued, rider["links_revoked_at"]):
            log.info("one-tap link refused", reason="unknown rider" if rider is None else "revoked")
            return html.page(400, "This link is not valid", NEW_LINK_HINT)
        if rider["status"] == "inactive":
            log.info("one-tap link refused", reason="inactive rider")
            return html.page(
                403, "Your account is not active", "Please contact your training team."
            )
        session_id = await accounts.start_session(pool, rider_id, rider["language"])
    except DATABASE_DOWN:
        log.exception("one-tap sign-in without database")
        return html.page(503, "Your training cannot be shown right now", "Please try again soon.")
    log.info("one-tap sign-in", rider_id=rider_id)
    response = signed_in(request, session_id, rider_id)
    response.headers["Referrer-Policy"] = "no-referrer"
    return response
