"""Family A: ambassador checks and the questionnaire catalogue."""

from app.checks.demo import demo
from app.checks.loading import SECTIONS
from app.checks.routes import routes
from app.core.family import Family

FAMILY = Family(
    name="checks",
    routes=routes,
    sections=SECTIONS,
    demo=demo,
    demo_tables=("questions", "checks"),
)
