"""Family A: ambassador checks and the questionnaire catalogue."""

from app.checks.demo import demo
from app.checks.loading import SECTIONS
from app.checks.routes import SECURITY_SCHEMES, routes
from app.checks.streaming import STREAMS
from app.core.package import Package

PACKAGE = Package(
    routes=routes,
    prefixes=("/api/v2/",),
    gates=(STREAMS,),
    security_schemes=SECURITY_SCHEMES,
    sections=SECTIONS,
    demo=demo,
    demo_tables=("questions", "checks"),
)
