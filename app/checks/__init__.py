"""Family A: ambassador checks and the questionnaire catalogue."""

from app.core.family import Family
from app.checks.routes import routes

FAMILY = Family(name="checks", routes=routes)
