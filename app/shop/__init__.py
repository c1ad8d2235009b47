"""Family B: the equipment shop."""

from app.core.package import Package
from app.shop import laravel
from app.shop.auth import IMPORT_SCHEMES, ORDERS_SCHEMES
from app.shop.demo import DEMO_TABLES, demo
from app.shop.importing import IMPORT_BODY
from app.shop.loading import SECTIONS, after_load
from app.shop.routes import routes

PACKAGE = Package(
    routes=routes,
    prefixes=("/api/users", "/api/import/", "/api/products", "/api/v1/exchanges/"),
    errors=laravel.ERRORS,
    bulk=(IMPORT_BODY,),
    security_schemes={**IMPORT_SCHEMES, **ORDERS_SCHEMES},
    sections=SECTIONS,
    after_load=[after_load],
    demo=demo,
    demo_tables=DEMO_TABLES,
)
