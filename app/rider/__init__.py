"""The rider app: pages riders open from a message (today the one-tap link `/t/<token>`)."""

from app.core.family import Family
from app.rider.pages import routes

FAMILY = Family(
    name="rider",
    routes=routes,
)
