"""Server-rendered pages (docs/admin-panel.md#every-page): templates, static files and the headers
every page sends.

A package renders with `pages.render(request, "admin/dashboard.html", {...})`; every template
can call `csrf_token()` for its forms. Static files are served from `app/static/` at `/static/`.
"""

from __future__ import annotations

import uuid
from typing import Any

import aiohttp_jinja2
from aiohttp import web

from app.core import csrf
from app.core.html import ENVIRONMENT, STATIC_DIR, is_html_path
from app.core.keys import SETTINGS

# No inline script or style anywhere (no `<script>` blocks, `on*=` or `style=` attributes):
# everything comes from this origin's static files.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "form-action 'self'; base-uri 'none'; object-src 'none'; frame-ancestors 'none'"
)


# The Server header names no software version (aiohttp's default does).
SERVER = "rider-ops"
# A year, the usual: once a browser has seen the service over https it never tries http.
STRICT_TRANSPORT_SECURITY = "max-age=31536000"


async def _security_headers(request: web.Request, response: web.StreamResponse) -> None:
    response.headers["Server"] = SERVER
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    if request.app[SETTINGS].secure_cookies:  # PUBLIC_BASE_URL is https
        response.headers.setdefault("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY)
    if not is_html_path(request.path) or request.path.startswith("/static/"):
        return
    frame_headers(response)
    response.headers.setdefault("Referrer-Policy", "same-origin")
    # Pages are personal or carry a form's token: never kept by a browser or proxy cache.
    response.headers.setdefault("Cache-Control", "no-store")


def frame_headers(response: web.StreamResponse) -> None:
    """The CSP (no inline script) and no framing: every page's, and the API docs page's."""
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Frame-Options", "DENY")


# Only the files present at start: no path from the address reaches the file system.
STATIC_FILES = {str(p.relative_to(STATIC_DIR)): p for p in STATIC_DIR.rglob("*") if p.is_file()}


async def static_file(request: web.Request) -> web.FileResponse:
    path = STATIC_FILES.get(request.match_info["name"])
    if path is None:
        raise web.HTTPNotFound
    return web.FileResponse(path, headers={"Cache-Control": "public, max-age=3600"})


def setup(app: web.Application) -> None:
    app[aiohttp_jinja2.APP_KEY] = ENVIRONMENT
    app.router.add_get("/static/{name:.+}", static_file)
    app.on_response_prepare.append(_security_headers)


def render(
    request: web.Request, template: str, context: dict[str, Any] | None = None, status: int = 200
) -> web.Response:
    """Every template gets `csrf_token()` (for its forms) and `path` (the page's own)."""
    context = {"csrf_token": lambda: csrf.token(request), "path": request.path, **(context or {})}
    return aiohttp_jinja2.render_template(template, request, context, status=status)


def see_other(location: str) -> web.Response:
    """303 to `location`: where a form's POST sends the browser next."""
    return web.Response(status=303, headers={"Location": location})


def uuid_in_path(request: web.Request, name: str) -> uuid.UUID:
    """The UUID in the address's `{name}` part; anything else is a 404 page."""
    try:
        return uuid.UUID(request.match_info[name])
    except ValueError:
        raise web.HTTPNotFound from None
