"""The panel's first page (`/admin`): counts and the last run of each scheduled job."""

from __future__ import annotations

import asyncpg
from aiohttp import web

from app.admin import roles
from app.admin.guard import ADMIN
from app.admin.layout import render
from app.core import sql
from app.core.keys import POOL

routes = web.RouteTableDef()

SQL = sql.load(
    "admin",
    "dashboard",
    "last_job_runs",
)


async def _counts(db: asyncpg.Pool, markets: list[str]) -> dict:
    """The counts of riders of `markets` (empty: every market), and the jobs' last runs."""
    counts = dict(await db.fetchrow(SQL.dashboard, markets))
    return {"counts": counts, "job_runs": await db.fetch(SQL.last_job_runs)}


@routes.get("/admin")
@roles.needs("viewer")
async def dashboard(request: web.Request) -> web.Response:
    counts = await _counts(request.app[POOL], roles.market_limit(request[ADMIN]))
    return render(request, "admin/dashboard.html", counts)
