"""The panel's pages: sign-in, sign-out, first-admin setup, dashboard."""

from __future__ import annotations

import structlog
from aiohttp import web

from app.admin import accounts, store
from app.admin.forms import SetupForm, SignInForm, read
from app.admin.guard import ADMIN
from app.core import database, html, pages, sessions
from app.core.keys import POOL, SETTINGS
from app.core.throttle import TooManyAttempts, client_address

log = structlog.get_logger("admin")

routes = web.RouteTableDef()

WRONG = "Wrong email or password"
UNAVAILABLE = "Sign-in is not available right now"
SETUP_REFUSED = (
    "This setup link has been used or is not valid. An admin can add admins in the panel."
)

# The navigation bar: the pages of DESIGN §8.
NAVIGATION = (
    ("/admin", "Dashboard"),
    ("/admin/riders", "Riders"),
    ("/admin/import", "Import"),
    ("/admin/paths", "Paths"),
    ("/admin/assign", "Assign"),
    ("/admin/courses", "Courses"),
    ("/admin/knowledge", "Knowledge"),
    ("/admin/messages", "Messages"),
    ("/admin/jobs", "Jobs"),
    ("/admin/admins", "Admins"),
)


def panel(request: web.Request, template: str, context: dict, status: int = 200) -> web.Response:
    """A signed-in page of the panel: the layout's navigation and the admin's name."""
    # `ai_configured`: for the AI's partials the course pages include (app/ai/templates/ai).
    context = {
        "navigation": NAVIGATION,
        "admin": request[ADMIN],
        "ai_configured": request.app[SETTINGS].ai_configured,
        **context,
    }
    return pages.render(request, template, context, status=status)


def _signed_in(session_id: str, request: web.Request) -> web.Response:
    response = pages.see_other("/admin")
    sessions.set_cookie(response, sessions.ADMIN, session_id, request.app[SETTINGS])
    return response


def _sign_in_page(request, status=200, *, values=None, errors=None, problem=None):
    context = {"values": values or {}, "errors": errors or {}, "problem": problem}
    return pages.render(request, "admin/sign_in.html", context, status=status)


@routes.get("/admin/sign-in")
async def sign_in_page(request: web.Request) -> web.Response:
    # No database here: the page loads while the database is down.
    return _sign_in_page(request)


@routes.post("/admin/sign-in")
async def sign_in(request: web.Request) -> web.StreamResponse:
    values, errors = read(SignInForm(), await request.post())
    if errors:
        return _sign_in_page(request, 400, values=values, errors=errors)
    entered = {"email": values["email"]}
    if not request.app[SETTINGS].session_secret_ok:
        return _sign_in_page(request, 503, values=entered, problem=UNAVAILABLE)
    try:
        session_id = await accounts.sign_in(
            request.app[POOL], values["email"], values["password"], client_address(request)
        )
    except accounts.WrongCredentials:
        return _sign_in_page(request, 401, values=entered, problem=WRONG)
    except TooManyAttempts as exc:
        return _sign_in_page(request, 429, values=entered, problem=str(exc))
    except database.UNAVAILABLE:
        log.exception("sign-in failed: database unreachable")
        return _sign_in_page(request, 503, values=entered, problem=UNAVAILABLE)
    return _signed_in(session_id, request)


@routes.post("/admin/sign-out")
async def sign_out(request: web.Request) -> web.StreamResponse:
    await sessions.revoke(request.app[POOL], sessions.ADMIN, request)
    response = pages.see_other("/admin/sign-in")
    sessions.clear_cookie(response, sessions.ADMIN)
    return response


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
            request.app[POOL], values["token"], values["email"], values["name"], values["password"]
        )
    except accounts.SetupRefused:
        return _setup_refused()
    log.info("first admin created")
    return _signed_in(session_id, request)


@routes.get("/admin")
async def dashboard(request: web.Request) -> web.Response:
    return panel(request, "admin/dashboard.html", await store.dashboard(request.app[POOL]))
