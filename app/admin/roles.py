"""Admin roles (docs/security.md, "Admin roles and markets"): owner, editor, viewer, each allowed
what the one below it is. Every handler of the panel declares the least role it needs with
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
from app.training.riders import MARKETS

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


# Markets (docs/security.md, "Admin roles and markets"): an admin limited to markets sees and
# changes only riders of those markets, everywhere in the panel. The statements take the
# limit as one bound text[] parameter, empty for every market:
# `AND (cardinality($n::text[]) = 0 OR r.market = ANY ($n))`.


def market_limit(admin: Admin) -> list[str]:
    """The admin's markets as the statements' text[] parameter (empty: every market)."""
    return list(admin.markets)


def market_choices(admin: Admin) -> tuple[str, ...]:
    """The markets a filter or form offers the admin: theirs, or every market."""
    return admin.markets or MARKETS


def outside_markets(admin: Admin, chosen) -> str | None:
    """Why markets `chosen` in a filter or form are refused (one not the admin's), or None."""
    outside = [market for market in chosen or () if market not in market_choices(admin)]
    if outside:
        mine = ", ".join(admin.markets)
        return f"You see only riders of {mine}: {', '.join(outside)} is not one of them."
    return None


def within_markets(admin: Admin, chosen) -> list[str] | None:
    """Markets `chosen` in a filter (None or empty: any), narrowed to the admin's: the markets
    a statement's filter keeps (None: any). Check `outside_markets` first."""
    return list(chosen or ()) or market_limit(admin) or None
