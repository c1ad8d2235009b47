"""The admin panel (`/admin`, DESIGN §8): sign-in, first admin, dashboard."""

from app.admin.guard import guard
from app.admin.routes import routes
from app.core.family import Family

FAMILY = Family(name="admin", routes=routes, middlewares=[guard])
