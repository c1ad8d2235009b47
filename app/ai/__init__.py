"""AI (DESIGN §10): course generation and translation jobs, the knowledge documents, and the
riders' assistant. Listed before the admin panel, so its `/admin/...` routes are its own; its
pages live under the panel's and the rider app's prefixes and behind their guards."""

from app.ai.client import provider_context
from app.ai.routes import routes
from app.core.errors import HTML_ERRORS
from app.core.family import Family

FAMILY = Family(routes=routes, errors=HTML_ERRORS, contexts=[provider_context])
