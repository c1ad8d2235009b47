"""The admin panel (`/admin`, docs/admin-panel.md): one route table a page group."""

from app.admin import (
    admins,
    api_keys,
    assign,
    audit,
    courses,
    dashboard,
    exports,
    generate,
    importing,
    job_runs,
    knowledge,
    messages,
    paths,
    reports,
    rider,
    riders,
    sign_in,
    translate,
    translations,
    webhooks,
)
from app.admin.guard import guard
from app.admin.layout import not_found_page
from app.core.errors import HTML_ERRORS
from app.core.package import Package

# Each page group adds its module's table here.
PAGE_GROUPS = (
    sign_in,
    dashboard,
    riders,
    rider,
    assign,
    paths,
    courses,
    translations,
    generate,
    translate,
    knowledge,
    messages,
    job_runs,
    admins,
    api_keys,
    audit,
    webhooks,
    importing,
    exports,
    reports,
)

PACKAGE = Package(
    routes=[route for group in PAGE_GROUPS for route in group.routes],
    prefixes=("/admin",),
    errors=HTML_ERRORS,
    middlewares=[guard, not_found_page],
)
