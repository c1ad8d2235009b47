"""Rendering a rider-app page in the rider's language: the layout's language switch, the
signed-in rider's name and sign-out button, `lang` and `dir` for the base layout."""

from __future__ import annotations

from aiohttp import web

from app.core import pages
from app.core.keys import SETTINGS
from app.rider.guard import RIDER, rider_key
from app.rider.texts import page_language
from app.training.languages import LANGUAGES


def asked_language(request: web.Request) -> str | None:
    """The language a signed-out page was asked in (`?lang=`), if the app has it."""
    language = request.query.get("lang")
    return language if language in LANGUAGES else None


def render(
    request: web.Request,
    template: str,
    context: dict | None = None,
    status: int = 200,
    language: str | None = None,
) -> web.Response:
    """A signed-in page is in the session's language; a signed-out one in `language` (else
    English). The language switch links to this page, or, after a form's POST, to the
    page the rider starts from."""
    rider = request.get(RIDER)
    shown = rider.language if rider else language or "en"
    if request.method == "GET":
        here = request.path
    else:
        here = "/training" if rider else "/"
    context = {**page_language(shown), "rider": rider, "here": here, **(context or {})}
    if rider:
        # The page's rider for the service worker (<meta name="rider">) and the quiz form's
        # mark of whose answers these are (docs/rider-offline.md, "Shared phones").
        context["rider_key"] = rider_key(request.app[SETTINGS].session_secret, rider.rider_id)
    return pages.render(request, template, context, status=status)
