"""The rider page (`/admin/riders/{rider_id}`) and its actions: status, PIN, one-tap links,
flag, path."""

from __future__ import annotations

import secrets
from urllib.parse import quote

import asyncpg
from aiohttp import web
from marshmallow import Schema, fields, validate

from app.admin import notices, reveal, roles
from app.admin.guard import ADMIN, actor
from app.admin.layout import flag_label, render
from app.core import audit, sessions, sql
from app.core.database import Db
from app.core.forms import read
from app.core.keys import POOL, SETTINGS
from app.messaging.links import revoke_links
from app.messaging.notifications import notify_flag
from app.training import store as training
from app.training.pins import hash_pin, pepper_of
from app.training.riders import STATUSES
from app.training.schemas import FLAG_TYPES

routes = web.RouteTableDef()


class RiderStatusForm(Schema):
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    # Sent by the confirm page: setting a rider inactive is asked first (docs/admin-panel.md).
    confirmed = fields.Boolean(load_default=False)


class RiderFlagForm(Schema):
    type = fields.String(required=True, validate=validate.OneOf(FLAG_TYPES))
    note = fields.String(validate=validate.Length(max=1000))
    notify = fields.String(validate=validate.Equal("on"))


class RiderPathForm(Schema):
    path_id = fields.UUID(required=True, error_messages={"invalid_uuid": "Choose a path."})


SQL = sql.load(
    "admin",
    "rider_profile",
    "rider_assignments",
    "rider_flags",
    "rider_passed_courses",
    "rider_messages",
    "rider_course_progress",
    "rider_quiz_attempts",
    "path_choices",
    "set_rider_status",
    "set_rider_pin",
)

RIDER_PAGE_MESSAGES = 20
RIDER_PAGE_ATTEMPTS = 50


async def _profile(db: Db, rider_id: str, markets: list[str]) -> asyncpg.Record | None:
    """The rider's profile, or None for an unknown rider or one outside `markets` (the
    admin's; empty: every market)."""
    return await db.fetchrow(SQL.rider_profile, rider_id, markets)


async def _rider_page_rows(pool: asyncpg.Pool, rider_id: str, markets: list[str]) -> dict | None:
    """Everything the rider page shows, or None for a rider the admin cannot see."""
    async with pool.acquire() as conn:
        profile = await _profile(conn, rider_id, markets)
        if profile is None:
            return None
        return {
            "rider": profile,
            "assignments": await conn.fetch(SQL.rider_assignments, rider_id),
            "flags": await conn.fetch(SQL.rider_flags, rider_id),
            "passed": await conn.fetch(SQL.rider_passed_courses, rider_id),
            "messages": await conn.fetch(SQL.rider_messages, rider_id, RIDER_PAGE_MESSAGES),
            "progress": await conn.fetch(SQL.rider_course_progress, rider_id),
            "attempts": await conn.fetch(SQL.rider_quiz_attempts, rider_id, RIDER_PAGE_ATTEMPTS),
            "paths": await conn.fetch(SQL.path_choices),
        }


async def set_rider_status(conn: asyncpg.Connection, rider_id: str, status: str) -> bool:
    return await conn.fetchval(SQL.set_rider_status, rider_id, status) is not None


async def set_rider_pin(conn: asyncpg.Connection, rider_id: str, pin_hash: str) -> bool:
    return await conn.fetchval(SQL.set_rider_pin, rider_id, pin_hash) is not None


# What became of the message a flag sent (`notify_flag`'s answer), said after "Flag added".
FLAG_MESSAGE = {
    None: "",
    "sent": "The rider was sent a message.",
    "failed": "The message could not be sent: it is on the call list under Messages.",
    "logged": "Messaging did not send the message: it is on the call list under Messages.",
}
PIN_DIGITS = 6
RIDER = "/admin/riders/{rider_id:[^/]+}"
NOTHING_ASSIGNED = "Nothing assigned: the rider is inactive or has this path open."


async def _rider_page(request, rider_id, status=200, *, form=None, errors=None):
    """The rider page; `form` names the action whose `errors` (and entered values) it shows."""
    found = await _rider_page_rows(request.app[POOL], rider_id, roles.market_limit(request[ADMIN]))
    if found is None:
        raise web.HTTPNotFound
    context = {
        **found,
        "statuses": STATUSES,
        "flag_types": FLAG_TYPES,
        "form": form,
        "errors": errors or {},
    }
    return render(request, "admin/rider.html", context, status=status)


def _address(rider_id: str) -> str:
    return f"/admin/riders/{quote(rider_id, safe='')}"


async def _back(request: web.Request, rider_id: str, message: str, db=None) -> web.Response:
    """303 to the rider page, which says `message` once (app/admin/notices.py)."""
    return await notices.see_other(request, _address(rider_id), message, db)


@routes.get(RIDER)
@roles.needs("viewer")
async def rider_page(request: web.Request) -> web.Response:
    return await _rider_page(request, request.match_info["rider_id"])


async def _rider_id(request: web.Request) -> str:
    """The rider of the address; 404 for one outside the admin's markets, so no action
    reaches a rider the admin cannot see (an unknown rider is each action's own 404)."""
    rider_id = request.match_info["rider_id"]
    markets = roles.market_limit(request[ADMIN])
    if markets and await _profile(request.app[POOL], rider_id, markets) is None:
        raise web.HTTPNotFound
    return rider_id


async def _posted(request: web.Request, form) -> tuple[str, dict, dict]:
    """The rider of the address, and the posted form's values and errors."""
    rider_id = await _rider_id(request)
    values, errors = read(form, await request.post())
    return rider_id, values, errors


@routes.post(RIDER + "/status")
@roles.needs("editor")
async def set_status(request: web.Request) -> web.Response:
    rider_id, values, errors = await _posted(request, RiderStatusForm())
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
        assigned = await training.run_rules(conn, [rider_id])
        summary = f"status {values['status']}, {assigned} paths assigned by the rules"
        await audit.record(conn, actor(request), "rider.status_changed", rider_id, summary)
        message = f"Status set to {values['status']}; {_paths(assigned)} assigned by the rules."
        return await _back(request, rider_id, message, conn)


def _paths(count: int) -> str:
    return "1 path" if count == 1 else f"{count} paths"


async def _confirm(request: web.Request, rider_id: str, action: str, **asked) -> web.Response:
    """The page that asks before a risky action on the rider (`admin/confirm.html`): `title`
    is made with the rider's name (`{name}`), the form posts to the rider page's `action`."""
    rider = await _profile(request.app[POOL], rider_id, roles.market_limit(request[ADMIN]))
    if rider is None:
        raise web.HTTPNotFound
    rider_page = _address(rider_id)
    context = {
        **asked,
        "title": asked["title"].format(name=f"{rider['name']} ({rider_id})"),
        "action": f"{rider_page}/{action}",
        "back": rider_page,
    }
    return render(request, "admin/confirm.html", context)


async def _confirm_inactive(request: web.Request, rider_id: str) -> web.Response:
    return await _confirm(
        request,
        rider_id,
        "status",
        title="Set {name} inactive?",
        facts=(
            "An inactive rider cannot sign in to the rider app; their sessions and one-tap "
            "links end at once.",
            "No path is assigned to an inactive rider any more, by the rules, flags or the "
            "assign page. Their training so far is kept; setting another status undoes this.",
        ),
        fields={"status": "inactive", "confirmed": "1"},
        button="Set inactive",
        back_text="Keep the status",
    )


@routes.get(RIDER + "/pin")
@roles.needs("editor")
async def reset_pin_page(request: web.Request) -> web.Response:
    return await _confirm(
        request,
        request.match_info["rider_id"],
        "pin",
        title="Reset the PIN of {name}?",
        facts=(
            f"A new random {PIN_DIGITS}-digit PIN replaces the rider's PIN. It is shown once, "
            "on the next page: give it to the rider then.",
            "The rider's sessions and one-tap links end at once; the old PIN stops working.",
        ),
        button="Reset PIN",
        back_text="Keep the PIN",
    )


@routes.post(RIDER + "/pin")
@roles.needs("editor")
async def reset_pin(request: web.Request) -> web.Response:
    rider_id = await _rider_id(request)
    pin = f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"
    pin_hash = hash_pin(pepper_of(request.app[SETTINGS]), pin)
    async with request.app[POOL].acquire() as conn, conn.transaction():
        if not await set_rider_pin(conn, rider_id, pin_hash):
            raise web.HTTPNotFound
        await sessions.revoke_rider(conn, rider_id)
        summary = "new PIN shown to the admin once; sessions and one-tap links ended"
        await audit.record(conn, actor(request), "rider.pin_reset", rider_id, summary)
        # Shown once (app/admin/reveal.py): the rider's row keeps the PIN hashed only.
        return await reveal.see_other(request, conn, "rider_pin", rider_id, pin)


@routes.get(RIDER + "/links/revoke")
@roles.needs("editor")
async def revoke_links_page(request: web.Request) -> web.Response:
    return await _confirm(
        request,
        request.match_info["rider_id"],
        "links/revoke",
        title="Revoke the one-tap links of {name}?",
        facts=(
            "Every one-tap link sent to the rider until now stops working, and the rider's "
            "sessions end at once (for a lost or shared phone).",
            "The rider signs in again with their rider ID and PIN; the next reminder carries a "
            "new link.",
        ),
        button="Revoke the links",
        back_text="Keep the links",
    )


@routes.post(RIDER + "/links/revoke")
@roles.needs("editor")
async def revoke_rider_links(request: web.Request) -> web.Response:
    rider_id = await _rider_id(request)
    async with request.app[POOL].acquire() as conn, conn.transaction():
        if not await revoke_links(conn, rider_id):
            raise web.HTTPNotFound
        await audit.record(conn, actor(request), "links.revoked", rider_id, "sessions ended")
        message = (
            f"The one-tap links sent to {rider_id} until now no longer work; their sessions ended."
        )
        return await _back(request, rider_id, message, conn)


@routes.post(RIDER + "/flags")
@roles.needs("editor")
async def add_flag(request: web.Request) -> web.Response:
    rider_id, values, errors = await _posted(request, RiderFlagForm())
    if errors:
        return await _rider_page(request, rider_id, 400, form=values, errors=errors)
    pool = request.app[POOL]
    notify = values.get("notify") == "on"
    async with pool.acquire() as conn, conn.transaction():
        saved = await training.save_flag(
            conn, rider_id, values["type"], values.get("note"), source="admin"
        )
        if saved is None:
            raise web.HTTPNotFound
        _flag_id, path_ids = saved
        summary = f"type {values['type']}, {len(path_ids)} paths assigned" + ", notify" * notify
        await audit.record(conn, actor(request), "rider.flag_added", rider_id, summary)
    sent = await notify_flag(
        pool, request.app[SETTINGS], rider_id, path_ids, notify=notify, actor=actor(request)
    )
    added = f"Flag “{flag_label(values['type'])}” added; {_paths(len(path_ids))} assigned."
    return await _back(request, rider_id, f"{added} {FLAG_MESSAGE[sent]}".strip())


@routes.post(RIDER + "/assignments")
@roles.needs("editor")
async def assign_rider_path(request: web.Request) -> web.Response:
    rider_id, values, errors = await _posted(request, RiderPathForm())
    if errors:
        return await _rider_page(request, rider_id, 400, form=values, errors=errors)
    async with request.app[POOL].acquire() as conn, conn.transaction():
        created = await training.assign_path(
            conn, values["path_id"], [rider_id], None, None, None, why="admin"
        )
        if created:
            summary = f"path {values['path_id']}, 1 created"
            await audit.record(conn, actor(request), "assignments.created", rider_id, summary)
    if created is None:
        errors = {"path_id": "This path does not exist any more."}
        return await _rider_page(request, rider_id, 400, form=values, errors=errors)
    if not created and await _profile(request.app[POOL], rider_id, []) is None:
        raise web.HTTPNotFound  # nothing assigned is also the answer for an unknown rider
    return await _back(request, rider_id, "Path assigned." if created else NOTHING_ASSIGNED)
