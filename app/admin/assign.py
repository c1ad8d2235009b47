"""The assign page: a path for riders chosen by filters (with cities) and pasted IDs, previewed
as a count, then assigned (why `admin`) in one set-based statement."""

from __future__ import annotations

from aiohttp import web

from app.admin import store
from app.admin.forms import AssignForm
from app.admin.layout import render
from app.core import pages
from app.core.fields import integer_text
from app.core.forms import read
from app.core.keys import POOL
from app.training import store as training
from app.training.riders import MARKETS, STATUSES

routes = web.RouteTableDef()

PATH_GONE = "This path does not exist."


async def _assign_page(request, status=200, *, values=None, errors=None, preview=None):
    pool = request.app[POOL]
    context = {
        "paths": await store.path_choices(pool),
        "choices": await store.rider_choices(pool),
        "markets": MARKETS,
        "statuses": STATUSES,
        "values": values or {},
        "errors": errors or {},
        "preview": preview,
        "assigned": integer_text(request.query.get("assigned", "")),
    }
    return render(request, "admin/assign.html", context, status=status)


@routes.get("/admin/assign")
async def assign_page(request: web.Request) -> web.Response:
    return await _assign_page(request)


@routes.post("/admin/assign")
async def assign(request: web.Request) -> web.Response:
    form = await request.post()
    values, errors = read(AssignForm(), form)
    if errors:
        return await _assign_page(request, 400, values=values, errors=errors)
    confirmed = values.get("confirm") == "1"
    async with request.app[POOL].acquire() as conn:
        count = await training.assign_path(
            conn,
            values["path_id"],
            values["rider_ids"].split() if values.get("rider_ids") else None,
            values.get("markets"),
            values.get("vehicle_types"),
            values.get("statuses"),
            why="admin",
            cities=values.get("cities"),
            preview=not confirmed,
        )
    if count is None:
        return await _assign_page(request, 400, values=values, errors={"path_id": PATH_GONE})
    if confirmed:
        return pages.see_other(f"/admin/assign?assigned={count}")
    return await _assign_page(request, values=values, preview=count)
