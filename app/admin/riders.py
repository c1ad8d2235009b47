"""The riders list (`/admin/riders`): its filters, which the exports read too, its page and its
count. The rider page is `rider_page.py`."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import asyncpg
from aiohttp import web
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from app.admin import roles
from app.admin.assign import path_choices, rider_choices
from app.admin.guard import ADMIN
from app.admin.layout import render
from app.admin.search import matching_riders_parameters, rider_search
from app.core import database, sql
from app.core.fields import Text
from app.core.forms import read
from app.core.keys import POOL
from app.training.assignments import MAX_VALUE_LENGTH
from app.training.riders import MARKETS, MAX_LENGTHS, STATUSES

routes = web.RouteTableDef()

SQL = sql.load("admin", "riders_page", "riders_count")

SHORT_TEXT = validate.Length(max=MAX_VALUE_LENGTH)
# A path's ID as PostgreSQL writes a uuid, in ASCII only (any case).
UUID = re.compile(r"[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}\Z")
# An assignment of the path: any (open or completed), completed, or open past its deadline.
PATH_STATES = ("assigned", "completed", "overdue")


class RiderFilters(Schema):
    """The riders list's filters, read alike by its page and its exports (docs/admin-riders.md:
    riders list): each exact but the search text `q`, at most as long as the rider's field."""

    q = Text(validate=validate.Length(max=200))
    market = fields.String(validate=validate.OneOf(MARKETS))
    status = fields.String(validate=validate.OneOf(STATUSES))
    vehicle_type = Text(validate=validate.Length(max=MAX_LENGTHS["vehicleType"]))
    city = Text(validate=validate.Length(max=MAX_LENGTHS["city"]))
    nationality = Text(validate=validate.Length(max=MAX_LENGTHS["nationality"]))
    # Riders with an open assignment past its deadline (the overdue report links here).
    overdue = fields.String(validate=validate.Equal("1", error="overdue is 1 or absent."))
    # Riders holding an assignment of this path, in that state (the paths report links here).
    path = fields.String(validate=validate.Regexp(UUID, error="path is a path's ID (a UUID)."))
    path_state = fields.String(validate=validate.OneOf(PATH_STATES))

    @validates_schema
    def _path_state(self, data: dict, **_) -> None:
        if data.get("path_state") and not data.get("path"):
            raise ValidationError("Choose a path for its state.", "path_state")


class RidersQuery(RiderFilters):
    """The riders list's query: the filters and the keyset (the last rider ID shown)."""

    after = Text(validate=SHORT_TEXT)


async def riders_page(
    pool: asyncpg.Pool, after: str, filters: dict, markets: list[str], limit: int
) -> list[asyncpg.Record]:
    """A page of the riders matching `filters`, of the admin's `markets` (empty: all), each
    with its training state (open, completed, overdue assignments)."""
    parameters = matching_riders_parameters(filters, markets)
    async with database.planned_per_call(pool, readonly=True) as conn:
        return await conn.fetch(SQL.riders_page, after, *parameters, limit)


async def riders_count(pool: asyncpg.Pool, filters: dict, markets: list[str]) -> int:
    """How many riders match the list's filters, of the admin's `markets`, counted up to
    COUNT_LIMIT + 1."""
    parameters = matching_riders_parameters(filters, markets)
    async with database.planned_per_call(pool, readonly=True) as conn:
        return await conn.fetchval(SQL.riders_count, *parameters, COUNT_LIMIT + 1)


PAGE_SIZE = 50
# Past this many matches the list says "more than": a count stops there, so it stays quick.
COUNT_LIMIT = 10_000
FILTERS = (
    "q",
    "market",
    "status",
    "vehicle_type",
    "city",
    "nationality",
    "overdue",
    "path",
    "path_state",
)


def assign_query(filters: dict) -> str | None:
    """The assign page's address with the list's filters as its own (markets, statuses,
    vehicle types, cities), or None when a filter the assign page has not is given (the
    search text, nationality, overdue, path): "select all matching" then needs the riders
    ticked."""
    if any(name in filters for name in ("q", "nationality", "overdue", "path", "path_state")):
        return None
    names = {"market": "markets", "status": "statuses", "vehicle_type": "vehicle_types"}
    pairs = [(names.get(name, "cities"), value) for name, value in filters.items()]
    return "/admin/assign?" + urlencode(pairs)


def with_chosen(choices: dict[str, list[str]], filters: dict) -> dict[str, dict]:
    """Each choice filter's options and the one selected: the stored spelling that equals the
    filter's value in any case, or the value itself added to the options when no rider of the
    admin's markets has it (a link from elsewhere), so that searching again keeps it."""
    shown = {}
    for name, options in choices.items():
        chosen = filters.get(name)
        same = [option for option in options if chosen and option.lower() == chosen.lower()]
        extra = [chosen] if chosen and not same else []
        shown[name] = {"options": [*options, *extra], "selected": same[0] if same else chosen}
    return shown


@routes.get("/admin/riders")
@roles.needs("viewer")
async def riders_list(request: web.Request) -> web.Response:
    values, errors = read(RidersQuery(), request.query)
    filters = {name: values[name] for name in FILTERS if values.get(name)}
    pool = request.app[POOL]
    markets = roles.market_limit(request[ADMIN])
    context = {
        "filters": filters,
        "errors": errors,
        "markets": roles.market_choices(request[ADMIN]),
        "statuses": STATUSES,
        "choices": with_chosen(await rider_choices(pool, markets), values),
        "paths": await path_choices(pool),
        "path_states": PATH_STATES,
        "count_limit": COUNT_LIMIT,
    }
    if errors:
        return render(request, "admin/riders.html", {**context, "riders": []}, status=400)
    after = values.get("after", "")
    rows = await riders_page(pool, after, filters, markets, PAGE_SIZE + 1)
    more = len(rows) > PAGE_SIZE
    riders = rows[:PAGE_SIZE]
    context["riders"] = riders
    context["next_after"] = riders[-1]["rider_id"] if more else None
    # A first page that holds every match is its own count.
    matches = await riders_count(pool, filters, markets) if more or after else len(riders)
    context["matches"] = matches
    context["too_short"] = rider_search(values.get("q")).too_short
    context["assign_all"] = assign_query(filters) if filters and matches else None
    return render(request, "admin/riders.html", context)
