"""AI (DESIGN §10): course generation and translation jobs, the knowledge documents, and the
riders' assistant. Listed before the admin panel, so its `/admin/...` routes are its own."""

from app.ai.client import provider_context
from app.ai.rider_session import PREFIX, rider_session
from app.ai.routes import routes
from app.core.errors import HTML_ERRORS
from app.core.family import Family

FAMILY = Family(
    routes=routes,
    prefixes=(PREFIX,),
    errors=HTML_ERRORS,
    middlewares=[rider_session],
    contexts=[provider_context],
)
