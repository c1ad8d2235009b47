"""Admin roles (docs/security.md, "Who may do what"): owner, editor, viewer, each allowed what
the one below it is. Every handler of the panel declares the least role it needs with
`needs(role)`; tests/admin/test_roles.py fails on a route that declares none.

- viewer: reads every page and report, downloads report CSVs; changes nothing and exports no
  rider's contact data.
- editor: paths, courses, riders, PINs, flags, assignments, imports, exports, messages, AI,
  knowledge.
- owner: everything, and alone admins, API keys, webhooks, the audit log and Run now of jobs.
"""

from __future__ import annotations

import functools

from aiohttp import web

from app.admin.accounts import Admin
from app.admin.guard import ADMIN

ROLES = ("viewer", "editor", "owner")


class Forbidden(web.HTTPForbidden):
    """The admin's role may not use this page or action (answered by `roles.forbidden_page`)."""


def allows(admin: Admin, role: str) -> bool:
    return ROLES.index(admin.role) >= ROLES.index(role)


def needs(role: str):
    """Marks a handler with the least role that may use it, and checks it."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}")

    def decorate(handler):
        @functools.wraps(handler)
        async def checked(request: web.Request, *args, **kwargs):
            if not allows(request[ADMIN], role):
                raise Forbidden
            return await handler(request, *args, **kwargs)

        checked.role = role
        return checked

    return decorate
