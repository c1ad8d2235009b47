"""Family C: the training platform integration API."""

from app.core.package import Package
from app.training.assignments import ASSIGNMENTS_BODY
from app.training.demo import demo
from app.training.loading import SECTIONS, after_load
from app.training.riders import RIDERS_BODY
from app.training.routes import SECURITY_SCHEMES, routes

PACKAGE = Package(
    routes=routes,
    prefixes=("/api/v1/",),
    bulk=(RIDERS_BODY, ASSIGNMENTS_BODY),
    security_schemes=SECURITY_SCHEMES,
    sections=SECTIONS,
    after_load=[after_load],
    demo=demo,
    demo_tables=["riders", "courses", "paths"],
)
