"""Family C: the training platform integration API."""

from app.core.family import Family
from app.training import rider_pages
from app.training.routes import routes

FAMILY = Family(name="training", routes=[*routes, *rider_pages.routes])
