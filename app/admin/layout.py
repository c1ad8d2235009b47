"""Rendering a signed-in page of the panel: the layout's navigation and the admin's name, and
`may(role)` for the templates, which show a button, link or form only to an admin whose role
may use it (docs/security.md, admin roles)."""

from __future__ import annotations

from aiohttp import web

from app.admin import notices, roles
from app.admin.guard import ADMIN
from app.core import pages
from app.core.errors import PAGE_HINTS
from app.core.keys import SETTINGS

# The navigation bar: the panel's pages and the reports, each with the least role its page
# needs (an admin sees only the entries their role may open).
NAVIGATION = (
    ("/admin", "Dashboard", "viewer"),
    ("/admin/riders", "Riders", "viewer"),
    ("/admin/import", "Import", "editor"),
    ("/admin/paths", "Paths", "viewer"),
    ("/admin/assign", "Assign", "editor"),
    ("/admin/courses", "Courses", "viewer"),
    ("/admin/reports", "Reports", "viewer"),
    ("/admin/knowledge", "Knowledge", "viewer"),
    ("/admin/messages", "Messages", "viewer"),
    ("/admin/jobs", "Jobs", "viewer"),
    ("/admin/admins", "Admins", "owner"),
    ("/admin/webhooks", "Webhooks", "owner"),
    ("/admin/api-keys", "API keys", "owner"),
    ("/admin/audit", "Audit log", "owner"),
)


def render(request: web.Request, template: str, context: dict, status: int = 200) -> web.Response:
    """`ai_configured`: the course pages offer the AI's buttons only when it is."""
    admin = request[ADMIN]

    def may(role: str) -> bool:
        return roles.allows(admin, role)

    context = {
        "navigation": [(href, label) for href, label, role in NAVIGATION if may(role)],
        "may": may,
        "flag_label": flag_label,
        "admin": admin,
        "ai_configured": request.app[SETTINGS].ai_configured,
        # What the form before this page did (app/admin/notices.py), shown once.
        "done": request.get(notices.NOTICE),
        **context,
    }
    return pages.render(request, template, context, status=status)


# How the panel names each flag type; the API, the stored rows and the CSV exports keep the
# codes (docs/admin-riders.md, "Flags").
FLAG_LABELS = {
    "late_delivery": "Late delivery",
    "customer_complaint": "Customer complaint",
    "unsafe_driving": "Unsafe driving",
    "food_handling": "Food handling",
    "equipment": "Equipment",
    "cancellations": "Cancellations",
}


def flag_label(code: str) -> str:
    """A flag type's label; a code the panel does not know yet is shown as it is."""
    return FLAG_LABELS.get(code, code)


# Where a 404 under a list's addresses leads back to (a rider, a path that is not there).
WAYS_BACK = (
    ("/admin/riders/", "/admin/riders", "Back to the riders list"),
    ("/admin/paths/", "/admin/paths", "Back to the paths"),
    ("/admin/courses/", "/admin/courses", "Back to the courses"),
    ("/admin/webhooks/", "/admin/webhooks", "Back to the webhooks"),
    ("/admin/api-keys/", "/admin/api-keys", "Back to the API keys"),
    ("/admin/import/", "/admin/import", "Back to the import"),
)


def _ways_back(path: str) -> list[tuple[str, str]]:
    """The 404 page's links: the list the address belongs to, then the dashboard."""
    found = [(href, text) for prefix, href, text in WAYS_BACK if path.startswith(prefix)]
    return [*found, ("/admin", "Go to the dashboard")] if found else []


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
        context = {"title": "Not found", "hint": PAGE_HINTS[404], "links": _ways_back(request.path)}
        return render(request, "admin/not_found.html", context, status=404)
    except roles.Forbidden:
        if ADMIN not in request:
            raise
        context = {"title": "Not allowed", "hint": FORBIDDEN_HINT}
        return render(request, "admin/not_found.html", context, status=403)
