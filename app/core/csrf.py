"""CSRF tokens (docs/admin-panel.md#every-page): every POST outside `/api` carries a `csrf_token`
field.

Signed in, the token is the session's own secret (stored with the session). Before sign-in
(the sign-in and setup forms) it is bound to a random pre-session cookie: the form's token must
equal the cookie, which another site can neither read nor set. A multipart form (a file upload,
read as a stream by its handler) carries the token as its first part, a hidden field before
the file input (browsers send the fields in the page's order): it is checked before any of
the file is read, and the handler reads on from the same reader (`uploads.reader`). A token in
the address would reach logs and Referer headers.
"""

from __future__ import annotations

import hmac
import secrets

import structlog
from aiohttp import BodyPartReader, web

from app.core import uploads
from app.core.errors import ApiError
from app.core.html import is_html_path
from app.core.keys import SETTINGS
from app.core.sessions import Session

log = structlog.get_logger("app.csrf")

FIELD = "csrf_token"
PRE_SESSION_COOKIE = "csrf_presession"

# Set by the guard of a signed-in area (admin panel, rider app).
SESSION = web.RequestKey("web_session", Session)
_NEW_PRE_SESSION = web.RequestKey("csrf_new_pre_session", str)

UNREADABLE = ApiError(400, "This form could not be read (its text is not UTF-8). Reload the page.")

FORBIDDEN = ApiError(
    403, "This form has expired or did not come from this site. Reload the page and try again."
)


def token(request: web.Request) -> str:
    """The value for the form's hidden `csrf_token` field."""
    if session := request.get(SESSION):
        return session.csrf_secret
    value = request.cookies.get(PRE_SESSION_COOKIE) or request.get(_NEW_PRE_SESSION)
    if not value:
        value = request[_NEW_PRE_SESSION] = secrets.token_urlsafe(32)
    return value


def _set_pre_session_cookie(request: web.Request, response: web.StreamResponse) -> None:
    """Hand out the pre-session cookie a rendered form asked for."""
    if value := request.get(_NEW_PRE_SESSION):
        response.set_cookie(
            PRE_SESSION_COOKIE,
            value,
            path="/",
            httponly=True,
            samesite="Lax",
            secure=request.app[SETTINGS].secure_cookies,
        )


# Longer than any token: a first part past it is no token, and is not read further.
_TOKEN_MAX = 256


async def _first_part(request: web.Request) -> str | None:
    try:
        part = await (await uploads.reader(request)).next()
        if not isinstance(part, BodyPartReader) or part.name != FIELD:
            return None
        value = await part.read_chunk(_TOKEN_MAX)
        if not part.at_eof():
            return None
    except (ValueError, KeyError, AssertionError):  # no boundary, or no multipart at all
        return None
    return value.decode("utf-8", "replace")


async def _given(request: web.Request) -> str | None:
    if request.content_type == "multipart/form-data":
        return await _first_part(request)
    try:
        form = await request.post()
    except (UnicodeDecodeError, LookupError) as exc:  # bytes of another encoding, a charset
        log.info("form body unreadable", error_class=type(exc).__name__)
        raise UNREADABLE from None
    value = form.get(FIELD)
    return value if isinstance(value, str) else None


@web.middleware
async def protect(request: web.Request, handler):
    """A POST to a page without a valid token answers 403, before its handler runs; a page
    that rendered a pre-session token sets its cookie."""
    routed = request.match_info.http_exception is None  # else the 404/405 page answers
    if request.method == "POST" and routed and is_html_path(request.path):
        session = request.get(SESSION)
        expected = session.csrf_secret if session else request.cookies.get(PRE_SESSION_COOKIE)
        given = await _given(request)
        if not (expected and given and hmac.compare_digest(expected.encode(), given.encode())):
            raise FORBIDDEN
    response = await handler(request)
    _set_pre_session_cookie(request, response)
    return response
