"""The rider app: pages riders open from a message (today the one-tap link `/t/<token>`)."""

from app.core.errors import HTML_ERRORS
from app.core.family import Family
from app.rider.pages import routes

FAMILY = Family(
    routes=routes,
    prefixes=("/t/",),
    errors=HTML_ERRORS,
)
