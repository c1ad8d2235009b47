"""The riders list and the rider page with its actions (status, PIN, flag, path)."""

from __future__ import annotations

import secrets
from urllib.parse import quote

import asyncpg
from aiohttp import web
from marshmallow import Schema, fields, validate

from app.admin.layout import render
from app.admin.search import RiderSearch, matching_riders_parameters, rider_search
from app.core import database, pages, sessions, sql
from app.core.fields import Text
from app.core.forms import read
from app.core.keys import POOL, SETTINGS
from app.messaging.links import revoke_links
from app.messaging.notifications import notify_flag
from app.training import store as training
from app.training.assignments import MAX_VALUE_LENGTH
from app.training.pins import hash_pin
from app.training.riders import MARKETS, MAX_LENGTHS, STATUSES
from app.training.schemas import FLAG_TYPES

routes = web.RouteTableDef()

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


class RiderStatusForm(Schema):
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    # Sent by the confirm page: setting a rider inactive is asked first (DESIGN §14).
    confirmed = fields.Boolean(load_default=False)


class RiderFlagForm(Schema):
    type = fields.String(required=True, validate=validate.OneOf(FLAG_TYPES))
    note = fields.String(validate=validate.Length(max=1000))
    notify = fields.String(validate=validate.Equal("on"))


class RiderPathForm(Schema):
    path_id = fields.UUID(required=True, error_messages={"invalid_uuid": "Choose a path."})


SQL = sql.load(
    "admin",
    "riders_page",
    "riders_count",
    "rider_profile",
    "rider_assignments",
    "rider_flags",
    "rider_passed_courses",
    "rider_messages",
    "path_choices",
    "set_rider_status",
    "set_rider_pin",
)

RIDER_PAGE_MESSAGES = 20


async def riders_page(
    pool: asyncpg.Pool, after: str, search: RiderSearch, filters: dict, limit: int
) -> list[asyncpg.Record]:
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
        )


async def riders_count(pool: asyncpg.Pool, filters: dict) -> int:
    """How many riders match the list's filters, counted up to COUNT_LIMIT + 1."""
    async with database.planned_per_call(pool, readonly=True) as conn:
        return await conn.fetchval(
            SQL.riders_count, *matching_riders_parameters(filters), COUNT_LIMIT + 1
        )


async def _rider_page_rows(pool: asyncpg.Pool, rider_id: str) -> dict | None:
    """Everything the rider page shows, or None for an unknown rider."""
    async with pool.acquire() as conn:
        profile = await conn.fetchrow(SQL.rider_profile, rider_id)
        if profile is None:
            return None
        return {
            "rider": profile,
            "assignments": await conn.fetch(SQL.rider_assignments, rider_id),
            "flags": await conn.fetch(SQL.rider_flags, rider_id),
            "passed": await conn.fetch(SQL.rider_passed_courses, rider_id),
            "messages": await conn.fetch(SQL.rider_messages, rider_id, RIDER_PAGE_MESSAGES),
            "paths": await conn.fetch(SQL.path_choices),
        }


async def set_rider_status(conn: asyncpg.Connection, rider_id: str, status: str) -> bool:
    return await conn.fetchval(SQL.set_rider_status, rider_id, status) is not None


async def set_rider_pin(conn: asyncpg.Connection, rider_id: str, pin_hash: str) -> bool:
    return await conn.fetchval(SQL.set_rider_pin, rider_id, pin_hash) is not None


PAGE_SIZE = 50
# Past this many matches the list says "more than": a count stops there, so it stays quick.
COUNT_LIMIT = 10_000
PIN_DIGITS = 6
FILTERS = ("q", "market", "status", "vehicle_type", "city", "nationality", "overdue")
RIDER = "/admin/riders/{rider_id:[^/]+}"
NOTHING_ASSIGNED = "Nothing assigned: the rider is inactive or has this path open."


@routes.get("/admin/riders")
async def riders_list(request: web.Request) -> web.Response:
    values, errors = read(RidersQuery(), request.query)
    filters = {name: values[name] for name in FILTERS if values.get(name)}
    context = {
        "filters": filters,
        "errors": errors,
        "markets": MARKETS,
        "statuses": STATUSES,
        "count_limit": COUNT_LIMIT,
    }
    if errors:
        return render(request, "admin/riders.html", {**context, "riders": []}, status=400)
    after = values.get("after", "")
    search = rider_search(values.get("q"))
    pool = request.app[POOL]
    rows = await riders_page(pool, after, search, filters, PAGE_SIZE + 1)
    more = len(rows) > PAGE_SIZE
    riders = rows[:PAGE_SIZE]
    context["riders"] = riders
    context["next_after"] = riders[-1]["rider_id"] if more else None
    # A first page that holds every match is its own count.
    context["matches"] = await riders_count(pool, filters) if more or after else len(riders)
    context["too_short"] = search.too_short
    return render(request, "admin/riders.html", context)


async def _rider_page(request, rider_id, status=200, *, form=None, errors=None, notice=None):
    """The rider page; `form` names the action whose `errors` (and entered values) it shows."""
    found = await _rider_page_rows(request.app[POOL], rider_id)
    if found is None:
        raise web.HTTPNotFound
    context = {
        **found,
        "statuses": STATUSES,
        "flag_types": FLAG_TYPES,
        "form": form,
        "errors": errors or {},
        "notice": notice,
    }
    return render(request, "admin/rider.html", context, status=status)


def _address(rider_id: str) -> str:
    return f"/admin/riders/{quote(rider_id, safe='')}"


def _back(rider_id: str) -> web.Response:
    return pages.see_other(_address(rider_id))


@routes.get(RIDER)
async def rider_page(request: web.Request) -> web.Response:
    return await _rider_page(request, request.match_info["rider_id"])


@routes.post(RIDER + "/status")
async def set_status(request: web.Request) -> web.Response:
    rider_id = request.match_info["rider_id"]
    values, errors = read(RiderStatusForm(), await request.post())
    if errors:
        return await _rider_page(request, rider_id, 400, form=values, errors=errors)
    if values["status"] == "inactive" and not values["confirmed"]:
        return await _confirm_inactive(request, rider_id)
    async with request.app[POOL].acquire() as conn, conn.transaction():
        if not await set_rider_status(conn, rider_id, values["status"]):
            raise web.HTTPNotFound
        if values["status"] == "inactive":
            await sessions.revoke_rider(conn, rider_id)
        # As a status sent through the API: a rider now in onboarding gets its paths.
        await training.run_rules(conn, [rider_id])
    return _back(rider_id)


async def _confirm_inactive(request: web.Request, rider_id: str) -> web.Response:
    rider = await request.app[POOL].fetchrow(SQL.rider_profile, rider_id)
    if rider is None:
        raise web.HTTPNotFound
    rider_page = _address(rider_id)
    context = {
        "title": f"Set {rider['name']} ({rider_id}) inactive?",
        "facts": (
            "An inactive rider cannot sign in to the rider app; their sessions and one-tap "
            "links end at once.",
            "No path is assigned to an inactive rider any more, by the rules, flags or the "
            "assign page. Their training so far is kept; setting another status undoes this.",
        ),
        "action": f"{rider_page}/status",
        "fields": {"status": "inactive", "confirmed": "1"},
        "button": "Set inactive",
        "back": rider_page,
        "back_text": "Keep the status",
    }
    return render(request, "admin/confirm.html", context)


@routes.get(RIDER + "/pin")
async def reset_pin_page(request: web.Request) -> web.Response:
    rider_id = request.match_info["rider_id"]
    rider = await request.app[POOL].fetchrow(SQL.rider_profile, rider_id)
    if rider is None:
        raise web.HTTPNotFound
    rider_page = _address(rider_id)
    context = {
        "title": f"Reset the PIN of {rider['name']} ({rider_id})?",
        "facts": (
            f"A new random {PIN_DIGITS}-digit PIN replaces the rider's PIN. It is shown once, "
            "on the next page: give it to the rider then.",
            "The rider's sessions and one-tap links end at once; the old PIN stops working.",
        ),
        "action": f"{rider_page}/pin",
        "button": "Reset PIN",
        "back": rider_page,
        "back_text": "Keep the PIN",
    }
    return render(request, "admin/confirm.html", context)


@routes.post(RIDER + "/pin")
async def reset_pin(request: web.Request) -> web.Response:
    rider_id = request.match_info["rider_id"]
    pin = f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"
    async with request.app[POOL].acquire() as conn, conn.transaction():
        if not await set_rider_pin(conn, rider_id, hash_pin(pin)):
            raise web.HTTPNotFound
        await sessions.revoke_rider(conn, rider_id)
    # Shown once, on this answer only: the PIN is stored hashed.
    notice = f"New PIN for {rider_id}: {pin}. Give it to the rider now; it is not shown again."
    return await _rider_page(request, rider_id, notice=notice)


@routes.post(RIDER + "/links/revoke")
async def revoke_rider_links(request: web.Request) -> web.Response:
    rider_id = request.match_info["rider_id"]
    if not await revoke_links(request.app[POOL], rider_id):
        raise web.HTTPNotFound
    notice = f"The one-tap links sent to {rider_id} until now no longer work; their sessions ended."
    return await _rider_page(request, rider_id, notice=notice)


@routes.post(RIDER + "/flags")
async def add_flag(request: web.Request) -> web.Response:
    rider_id = request.match_info["rider_id"]
    values, errors = read(RiderFlagForm(), await request.post())
    if errors:
        return await _rider_page(request, rider_id, 400, form=values, errors=errors)
    pool = request.app[POOL]
    async with pool.acquire() as conn:
        saved = await training.save_flag(
            conn, rider_id, values["type"], values.get("note"), source="admin"
        )
    if saved is None:
        raise web.HTTPNotFound
    _flag_id, path_ids = saved
    await notify_flag(
        pool, request.app[SETTINGS], rider_id, path_ids, notify=values.get("notify") == "on"
    )
    return _back(rider_id)


@routes.post(RIDER + "/assignments")
async def assign_rider_path(request: web.Request) -> web.Response:
    rider_id = request.match_info["rider_id"]
    values, errors = read(RiderPathForm(), await request.post())
    if errors:
        return await _rider_page(request, rider_id, 400, form=values, errors=errors)
    async with request.app[POOL].acquire() as conn:
        created = await training.assign_path(
            conn, values["path_id"], [rider_id], None, None, None, why="admin"
        )
    if created is None:
        errors = {"path_id": "This path does not exist any more."}
        return await _rider_page(request, rider_id, 400, form=values, errors=errors)
    if created == 0:
        # Also the answer for an unknown rider: the page is then a 404.
        return await _rider_page(request, rider_id, notice=NOTHING_ASSIGNED)
    return _back(rider_id)
