"""Rider sign-in and sign-out: `GET /`, `POST /sign-in`, `POST /sign-out`."""

from __future__ import annotations

import structlog
from aiohttp import web

from app.core import database, devices, middleware, pages, sessions
from app.core.forms import read
from app.core.keys import POOL, SETTINGS
from app.core.throttle import TooManyAttempts, client_address
from app.rider import accounts, guard
from app.rider.forms import SignInForm, chosen_language
from app.rider.layout import asked_language, render
from app.training.pins import pepper_of

log = structlog.get_logger("rider")

routes = web.RouteTableDef()


def _sign_in_page(request, language, status=200, *, rider_id="", errors=None, problem=None):
    context = {
        "rider_id": rider_id,
        "errors": errors or {},
        "problem": problem,
        "chosen_language": language,
    }
    return render(request, "rider/sign_in.html", context, status=status, language=language)


@routes.get("/")
async def sign_in_page(request: web.Request) -> web.Response:
    # No database here: the page loads while the database is down.
    return _sign_in_page(request, asked_language(request))


@routes.post("/sign-in")
async def sign_in(request: web.Request) -> web.StreamResponse:
    form = await request.post()
    values, missing = read(SignInForm(), form)
    # Either field can only be missing (SignInForm): shown in the page's language.
    errors = dict.fromkeys(missing, "field_required")
    language = chosen_language(form)
    rider_id = values.get("rider_id", "")
    if errors:
        return _sign_in_page(request, language, 400, rider_id=rider_id, errors=errors)
    if not request.app[SETTINGS].session_secret_ok:
        log.error("SESSION_SECRET must be set", refused="rider sign-in")
        return _sign_in_page(
            request, language, 503, rider_id=rider_id, problem=("sign_in_unavailable", {})
        )
    known = devices.read(devices.RIDER, request)
    try:
        session_id, account = await accounts.sign_in(
            request.app[POOL],
            pepper_of(request.app[SETTINGS]),
            rider_id,
            values["pin"],
            language,
            client_address(request),
            known,
        )
    except accounts.WrongCredentials:
        return _sign_in_page(
            request, language, 401, rider_id=rider_id, problem=("wrong_credentials", {})
        )
    except accounts.NotActive:
        return _sign_in_page(request, language, 403, rider_id=rider_id, problem=("not_active", {}))
    except TooManyAttempts as exc:
        return _sign_in_page(
            request,
            language,
            429,
            rider_id=rider_id,
            problem=("too_many_attempts", {"minutes": exc.minutes}),
        )
    except database.UNAVAILABLE as exc:
        middleware.OUTAGES.failure(exc)  # one line now and then, as any other request's
        return _sign_in_page(
            request, language, 503, rider_id=rider_id, problem=("sign_in_unavailable", {})
        )
    log.info("rider sign-in", rider_id=account)
    response = signed_in(request, session_id, account)
    devices.remember(devices.RIDER, request, response, known, account)
    return response


def signed_in(request: web.Request, session_id: str, rider_id: str) -> web.Response:
    """303 to the rider's training with the new session's cookie, and the phone's rider key
    (app/rider/guard.py: whose kept copy the phone may show)."""
    response = pages.see_other("/training")
    settings = request.app[SETTINGS]
    sessions.set_cookie(response, sessions.RIDER, session_id, settings)
    lifetime = int(sessions.RIDER.lifetime.total_seconds())
    guard.set_key_cookie(response, settings, rider_id, lifetime)
    return response


@routes.post("/sign-out")
async def sign_out(request: web.Request) -> web.StreamResponse:
    # To the sign-in page in the language the rider was reading (English is its default).
    language = request[guard.RIDER].language
    sign_in_page = "/" if language == "en" else f"/?lang={language}"
    response = await sessions.sign_out(request, sessions.RIDER, pages.see_other(sign_in_page))
    guard.clear_key_cookie(response)
    return response
