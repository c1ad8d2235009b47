"""The admin panel (`/admin`, DESIGN §8): sign-in, first admin, dashboard."""

from app.admin.guard import guard
from app.admin.routes import routes
from app.core.errors import HTML_ERRORS
from app.core.family import Family

FAMILY = Family(
    routes=routes,
    prefixes=("/admin",),
    errors=HTML_ERRORS,
    middlewares=[guard],
)
