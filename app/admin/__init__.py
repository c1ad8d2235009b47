"""The admin panel (`/admin`, DESIGN §8): one route table a page group."""

from app.admin import admins, assign, courses, jobs, messages, paths, riders, routes
from app.admin.guard import guard
from app.core.errors import HTML_ERRORS
from app.core.family import Family

# Sign-in, setup and dashboard first; each page group adds its module's table here.
PAGE_GROUPS = (routes, riders, assign, paths, courses, messages, jobs, admins)

FAMILY = Family(
    routes=[route for group in PAGE_GROUPS for route in group.routes],
    prefixes=("/admin",),
    errors=HTML_ERRORS,
    middlewares=[guard],
)
