"""The admin panel (`/admin`; docs/admin-panel.md, docs/admin-riders.md): one route table a
page group."""

from app.admin import (
    admins_page,
    api_keys,
    assign,
    audit,
    courses,
    dashboard,
    exports,
    generate,
    jobs_page,
    knowledge,
    machine_translation,
    message_riders,
    messages,
    paths,
    reports,
    reveal,
    rider_import,
    rider_page,
    riders,
    sign_in,
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
    rider_page,
    assign,
    paths,
    courses,
    translations,
    generate,
    machine_translation,
    knowledge,
    messages,
    message_riders,
    jobs_page,
    admins_page,
    api_keys,
    reveal,
    audit,
    webhooks,
    rider_import,
    exports,
    reports,
)

PACKAGE = Package(
    routes=[route for group in PAGE_GROUPS for route in group.routes],
    prefixes=("/admin",),
    errors=HTML_ERRORS,
    gates=(exports.EXPORTS,),
    middlewares=[guard, not_found_page],
)
