"""The panel's first page (`/admin`): counts and the last run of each scheduled job."""

from __future__ import annotations

from aiohttp import web

from app.admin import store
from app.admin.layout import render
from app.core.keys import POOL

routes = web.RouteTableDef()


@routes.get("/admin")
async def dashboard(request: web.Request) -> web.Response:
    return render(request, "admin/dashboard.html", await store.dashboard(request.app[POOL]))
