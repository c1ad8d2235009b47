"""The panel's first page (`/admin`): counts and the last run of each scheduled job."""

from __future__ import annotations

import asyncpg
from aiohttp import web

from app.admin.layout import render
from app.core import sql
from app.core.keys import POOL

routes = web.RouteTableDef()

SQL = sql.load(
    "admin",
    "dashboard",
    "last_job_runs",
)


async def _counts(db: asyncpg.Pool) -> dict:
    counts = dict(await db.fetchrow(SQL.dashboard))
    return {"counts": counts, "job_runs": await db.fetch(SQL.last_job_runs)}


@routes.get("/admin")
async def dashboard(request: web.Request) -> web.Response:
    return render(request, "admin/dashboard.html", await _counts(request.app[POOL]))
