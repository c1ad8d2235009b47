"""Family C: the training platform integration API."""

from app.core.package import Package
from app.training.demo import demo
from app.training.loading import SECTIONS, after_load
from app.training.routes import routes

PACKAGE = Package(
    routes=routes,
    prefixes=("/api/v1/",),
    sections=SECTIONS,
    after_load=[after_load],
    demo=demo,
    demo_tables=["riders", "courses", "paths"],
)
