"""Family B: the equipment shop."""

from app.core.package import Package
from app.shop import laravel
from app.shop.demo import DEMO_TABLES, demo
from app.shop.loading import SECTIONS, after_load
from app.shop.routes import routes

PACKAGE = Package(
    routes=routes,
    prefixes=("/api/users", "/api/import/", "/api/products", "/api/v1/exchanges/"),
    errors=laravel.ERRORS,
    sections=SECTIONS,
    after_load=[after_load],
    demo=demo,
    demo_tables=DEMO_TABLES,
)
