"""Signing in to the panel and out of it, and the first admin's setup (a one-time link)."""

from __future__ import annotations

import structlog
from aiohttp import web
from marshmallow import Schema, fields, validate

from app.admin import accounts, roles
from app.core import database, devices, html, middleware, pages, sessions
from app.core.forms import read
from app.core.keys import POOL, SETTINGS
from app.core.passwords import MIN_LENGTH
from app.core.throttle import TooManyAttempts, client_address

log = structlog.get_logger("admin")

routes = web.RouteTableDef()

EMAIL = validate.And(
    validate.Length(max=254),
    validate.Regexp(r"^[^@\s]+@[^@\s]+$", error="Enter an email address like name@example.com."),
)


class SignInForm(Schema):
    email = fields.String(required=True, validate=validate.Length(min=1, max=254))
    password = fields.String(required=True, validate=validate.Length(min=1, max=1024))


class SetupForm(Schema):
    token = fields.String(required=True, validate=validate.Length(min=1, max=200))
    email = fields.String(required=True, validate=EMAIL)
    name = fields.String(required=True, validate=validate.Length(min=1, max=200))
    password = fields.String(
        required=True,
        validate=validate.Length(
            min=MIN_LENGTH, max=1024, error=f"Use at least {MIN_LENGTH} characters."
        ),
    )


WRONG = "Wrong email or password"
UNAVAILABLE = "Sign-in is not available right now"
# The operator's to fix, so the page says how (docs/operations.md, "The first minute").
SIGN_IN_OFF = (
    "Sign-in is off: this server has no SESSION_SECRET. Set SESSION_SECRET to a random value "
    "of at least 16 characters and restart the service."
)
SETUP_REFUSED = (
    "This setup link has been used or is not valid. An admin can add admins in the panel."
)


def _signed_in(session_id: str, request: web.Request) -> web.Response:
    response = pages.see_other("/admin")
    sessions.set_cookie(response, sessions.ADMIN, session_id, request.app[SETTINGS])
    return response


@routes.get("/admin/sign-in")
async def sign_in_page(
    request: web.Request, status: int = 200, *, values=None, errors=None, problem=None
) -> web.Response:
    """The sign-in form; its POST shows it again with `status`, the email entered and why
    the sign-in failed. No database here: the page loads while the database is down."""
    if problem is None and not request.app[SETTINGS].session_secret_ok:
        problem = SIGN_IN_OFF
    context = {"values": values or {}, "errors": errors or {}, "problem": problem}
    return pages.render(request, "admin/sign_in.html", context, status=status)


@routes.post("/admin/sign-in")
async def sign_in(request: web.Request) -> web.StreamResponse:
    values, errors = read(SignInForm(), await request.post())
    if errors:
        return await sign_in_page(request, 400, values=values, errors=errors)
    entered = {"email": values["email"]}
    if not request.app[SETTINGS].session_secret_ok:
        return await sign_in_page(request, 503, values=entered, problem=SIGN_IN_OFF)
    known = devices.read(devices.ADMIN, request)
    try:
        session_id, account = await accounts.sign_in(
            request.app[POOL], values["email"], values["password"], client_address(request), known
        )
    except accounts.WrongCredentials:
        return await sign_in_page(request, 401, values=entered, problem=WRONG)
    except TooManyAttempts as exc:
        return await sign_in_page(request, 429, values=entered, problem=str(exc))
    except database.UNAVAILABLE as exc:
        middleware.OUTAGES.failure(exc)  # one line now and then, as any other request's
        return await sign_in_page(request, 503, values=entered, problem=UNAVAILABLE)
    response = _signed_in(session_id, request)
    devices.remember(devices.ADMIN, request, response, known, account)
    return response


@routes.post("/admin/sign-out")
@roles.needs("viewer")
async def sign_out(request: web.Request) -> web.StreamResponse:
    return await sessions.sign_out(request, sessions.ADMIN, pages.see_other("/admin/sign-in"))


def _setup_page(request, status=200, *, values, errors=None):
    context = {"values": values, "errors": errors or {}}
    return pages.render(request, "admin/setup.html", context, status=status)


def _setup_refused() -> web.Response:
    return html.page(403, "Setup link not valid", SETUP_REFUSED)


@routes.get("/admin/setup")
async def setup_page(request: web.Request) -> web.Response:
    token = request.query.get("token", "")
    if not token or not await accounts.setup_token_usable(request.app[POOL], token):
        return _setup_refused()
    return _setup_page(request, values={"token": token})


@routes.post("/admin/setup")
async def setup(request: web.Request) -> web.StreamResponse:
    values, errors = read(SetupForm(), await request.post())
    if errors:
        return _setup_page(request, 400, values=values, errors=errors)
    try:
        session_id = await accounts.set_up_first_admin(
            request.app[POOL],
            values["token"],
            values["email"],
            values["name"],
            values["password"],
            client_address(request),
        )
    except accounts.SetupRefused:
        return _setup_refused()
    log.info("first admin created")
    return _signed_in(session_id, request)
