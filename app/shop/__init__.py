"""Family B: the equipment shop."""

from app.core.family import Family
from app.shop.routes import routes

FAMILY = Family(name="shop", routes=routes)
