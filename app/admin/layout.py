"""Rendering a signed-in page of the panel: the layout's navigation and the admin's name."""

from __future__ import annotations

from aiohttp import web

from app.admin import roles
from app.admin.guard import ADMIN
from app.core import pages
from app.core.errors import PAGE_HINTS
from app.core.keys import SETTINGS

# The navigation bar: the pages of DESIGN §8, and the reports (§14).
NAVIGATION = (
    ("/admin", "Dashboard"),
    ("/admin/riders", "Riders"),
    ("/admin/import", "Import"),
    ("/admin/paths", "Paths"),
    ("/admin/assign", "Assign"),
    ("/admin/courses", "Courses"),
    ("/admin/reports", "Reports"),
    ("/admin/knowledge", "Knowledge"),
    ("/admin/messages", "Messages"),
    ("/admin/jobs", "Jobs"),
    ("/admin/admins", "Admins"),
    ("/admin/webhooks", "Webhooks"),
    ("/admin/audit", "Audit log"),
)


def render(request: web.Request, template: str, context: dict, status: int = 200) -> web.Response:
    """`ai_configured`: the course pages offer the AI's buttons only when it is."""
    context = {
        "navigation": NAVIGATION,
        "admin": request[ADMIN],
        "ai_configured": request.app[SETTINGS].ai_configured,
        **context,
    }
    return pages.render(request, template, context, status=status)


FORBIDDEN_HINT = "Your role does not allow this. An owner of the panel can change your role."


@web.middleware
async def not_found_page(request: web.Request, handler):
    """A signed-in admin's 404, and 403 for what their role may not do, keep the panel's
    navigation (signed out, the guard has sent the browser to sign in before any page is
    looked for)."""
    try:
        return await handler(request)
    except web.HTTPNotFound:
        if ADMIN not in request:
            raise
        context = {"title": "Not found", "hint": PAGE_HINTS[404]}
        return render(request, "admin/not_found.html", context, status=404)
    except roles.Forbidden:
        if ADMIN not in request:
            raise
        context = {"title": "Not allowed", "hint": FORBIDDEN_HINT}
        return render(request, "admin/not_found.html", context, status=403)
