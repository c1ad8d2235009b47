"""Family B: the equipment shop."""

from app.core.family import Family
from app.shop.demo import DEMO_TABLES, demo
from app.shop.loading import SECTIONS, refresh_kit_state
from app.shop.routes import routes

FAMILY = Family(
    name="shop",
    routes=routes,
    sections=SECTIONS,
    after_load=[refresh_kit_state],
    demo=demo,
    demo_tables=DEMO_TABLES,
)
