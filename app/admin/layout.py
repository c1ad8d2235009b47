"""Rendering a signed-in page of the panel: the layout's navigation and the admin's name."""

from __future__ import annotations

from aiohttp import web

from app.admin.guard import ADMIN
from app.core import pages
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
