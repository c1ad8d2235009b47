"""The riders list (`/admin/riders`): its filters, which the exports read too, its page and its
count. The rider page is `rider_page.py`."""

from __future__ import annotations

import asyncpg
from aiohttp import web
from marshmallow import Schema, fields, validate

from app.admin import roles
from app.admin.guard import ADMIN
from app.admin.layout import render
from app.admin.search import RiderSearch, matching_riders_parameters, rider_search
from app.core import database, sql
from app.core.fields import Text
from app.core.forms import read
from app.core.keys import POOL
from app.training.assignments import MAX_VALUE_LENGTH
from app.training.riders import MARKETS, MAX_LENGTHS, STATUSES

routes = web.RouteTableDef()

SQL = sql.load("admin", "riders_page", "riders_count")

SHORT_TEXT = validate.Length(max=MAX_VALUE_LENGTH)


class RiderFilters(Schema):
    """The riders list's filters, read alike by its page and its exports (docs/admin-panel.md:
    riders list): each exact but the search text `q`, at most as long as the rider's field."""

    q = Text(validate=validate.Length(max=200))
    market = fields.String(validate=validate.OneOf(MARKETS))
    status = fields.String(validate=validate.OneOf(STATUSES))
    vehicle_type = Text(validate=validate.Length(max=MAX_LENGTHS["vehicleType"]))
    city = Text(validate=validate.Length(max=MAX_LENGTHS["city"]))
    nationality = Text(validate=validate.Length(max=MAX_LENGTHS["nationality"]))
    # Riders with an open assignment past its deadline (the overdue report links here).
    overdue = fields.String(validate=validate.Equal("1", error="overdue is 1 or absent."))


class RidersQuery(RiderFilters):
    """The riders list's query: the filters and the keyset (the last rider ID shown)."""

    after = Text(validate=SHORT_TEXT)


async def riders_page(
    pool: asyncpg.Pool,
    after: str,
    search: RiderSearch,
    filters: dict,
    markets: list[str],
    limit: int,
) -> list[asyncpg.Record]:
    """A page of the riders matching `filters`, of the admin's `markets` (empty: all)."""
    async with database.planned_per_call(pool, readonly=True) as conn:
        return await conn.fetch(
            SQL.riders_page,
            after,
            search.rider_id,
            search.name_pattern,
            search.phone_pattern,
            filters.get("market"),
            filters.get("status"),
            filters.get("vehicle_type"),
            filters.get("city"),
            filters.get("nationality"),
            limit,
            filters.get("overdue") == "1",
            markets,
        )


async def riders_count(pool: asyncpg.Pool, filters: dict, markets: list[str]) -> int:
    """How many riders match the list's filters, of the admin's `markets`, counted up to
    COUNT_LIMIT + 1."""
    parameters = matching_riders_parameters(filters, markets)
    async with database.planned_per_call(pool, readonly=True) as conn:
        return await conn.fetchval(SQL.riders_count, *parameters, COUNT_LIMIT + 1)


PAGE_SIZE = 50
# Past this many matches the list says "more than": a count stops there, so it stays quick.
COUNT_LIMIT = 10_000
FILTERS = ("q", "market", "status", "vehicle_type", "city", "nationality", "overdue")


@routes.get("/admin/riders")
@roles.needs("viewer")
async def riders_list(request: web.Request) -> web.Response:
    values, errors = read(RidersQuery(), request.query)
    filters = {name: values[name] for name in FILTERS if values.get(name)}
    context = {
        "filters": filters,
        "errors": errors,
        "markets": roles.market_choices(request[ADMIN]),
        "statuses": STATUSES,
        "count_limit": COUNT_LIMIT,
    }
    if errors:
        return render(request, "admin/riders.html", {**context, "riders": []}, status=400)
    after = values.get("after", "")
    search = rider_search(values.get("q"))
    pool = request.app[POOL]
    markets = roles.market_limit(request[ADMIN])
    rows = await riders_page(pool, after, search, filters, markets, PAGE_SIZE + 1)
    more = len(rows) > PAGE_SIZE
    riders = rows[:PAGE_SIZE]
    context["riders"] = riders
    context["next_after"] = riders[-1]["rider_id"] if more else None
    # A first page that holds every match is its own count.
    matches = await riders_count(pool, filters, markets) if more or after else len(riders)
    context["matches"] = matches
    context["too_short"] = search.too_short
    return render(request, "admin/riders.html", context)
