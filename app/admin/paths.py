"""Learning paths in the panel (docs/admin-panel.md#paths): list, create, edit.

A path is validated as load-data's path records are (`app.training.records`) and written by
the same function; saving an active automatic path (`all_matching`, `onboarding`) runs that
path's rule for every rider, set-based, in the same transaction.
"""

from __future__ import annotations

import uuid

import asyncpg
from aiohttp import web
from marshmallow import ValidationError, validate

from app.admin import notices, roles
from app.admin.guard import actor
from app.admin.layout import render
from app.core import audit, pages, sql
from app.core.database import Db
from app.core.fields import Integer, Text
from app.core.forms import field_errors
from app.core.keys import POOL
from app.training import store as training
from app.training.paths import UnknownCourse, save_paths
from app.training.records import PathRecordSchema
from app.training.riders import MARKETS, VEHICLE_TYPES
from app.training.schemas import FLAG_TYPES

routes = web.RouteTableDef()

# Learning paths (the form's stable field names, docs/admin-panel.md#form-fields): load-data's path
# record without its id, with upper limits a person's typing should not exceed.
PATH_NAME_MAX = 200
PATH_DAYS_MAX = 730
PATH_LISTS = ("flag_types", "markets", "vehicle_types", "nationalities", "courses")


class PathForm(PathRecordSchema):
    class Meta:
        exclude = ("id",)

    name = Text(required=True, validate=validate.Length(1, PATH_NAME_MAX))
    days_to_complete = Integer(
        required=True,
        validate=validate.Range(
            1, PATH_DAYS_MAX, error=f"Enter a number of days from 1 to {PATH_DAYS_MAX}."
        ),
    )


def read_path(schema: PathForm, form) -> tuple[dict, dict[str, str]]:
    """(values, errors) of the path form, as `read` does. `active` is a checkbox (`on`); the
    repeated fields keep their order without blanks; `nationalities` also takes one a line
    (the form's text area)."""
    data = {"active": form.get("active") == "on"}
    for name in ("name", "days_to_complete", "rule"):
        value = form.get(name)
        if isinstance(value, str) and value.strip():
            data[name] = value.strip()
    for name in PATH_LISTS:
        entered = [
            line.strip()
            for value in form.getall(name, [])
            if isinstance(value, str)
            for line in (value.splitlines() if name == "nationalities" else [value])
        ]
        data[name] = [value for value in entered if value]
    data["nationalities"] = list(dict.fromkeys(data["nationalities"]))
    try:
        return schema.load(data), {}
    except ValidationError as exc:
        return data, field_errors(exc)


SQL = sql.load(
    "admin",
    "path_list",
    "path_by_id",
    "path_assignments",
    "course_choices",
)


async def path_list(db: Db) -> list[asyncpg.Record]:
    return await db.fetch(SQL.path_list)


async def path(db: Db, path_id: uuid.UUID) -> asyncpg.Record | None:
    return await db.fetchrow(SQL.path_by_id, path_id)


async def path_assignments(db: Db, path_id: uuid.UUID) -> asyncpg.Record:
    return await db.fetchrow(SQL.path_assignments, path_id)


async def course_choices(db: Db) -> list[asyncpg.Record]:
    return await db.fetch(SQL.course_choices)


AUTOMATIC_RULES = ("all_matching", "onboarding")
RULES = (
    ("manual", "Manual: assigned by the team or the API"),
    ("all_matching", "Auto-assign to every matching rider"),
    ("onboarding", "Riders in onboarding status"),
    ("flag", "When a rider gets a flag"),
)
# Course lists shown beyond the path's own: room to add courses without JavaScript.
BLANK_COURSES = 3
NEW_PATH = {
    "active": True,
    "days_to_complete": 30,
    "rule": "manual",
    "flag_types": [],
    "markets": [],
    "vehicle_types": [],
    "nationalities": [],
    "courses": [],
}


async def save(pool, path_id: uuid.UUID, path: dict, who: audit.Actor, action: str) -> int:
    """Write the path and its audit event `action` by `who` (one transaction) and, when it is
    active and automatic, run its rule for every rider; returns the assignments made.
    UnknownCourse when a course has gone."""
    async with pool.acquire() as conn, conn.transaction():
        await save_paths(conn, [{"id": path_id, **path}])
        assigned = 0
        if path["active"] and path["rule"] in AUTOMATIC_RULES:
            assigned = await training.run_rules(conn, None, path_id)
        fields = {
            "name": path["name"],
            "active": path["active"],
            "rule": path["rule"],
            "courses": len(path["courses"]),
        }
        summary = f"{audit.described(fields)}; {assigned} assignments made"
        await audit.record(conn, who, action, str(path_id), summary)
    return assigned


async def _form_page(request, *, path_id=None, values, errors=None, status=200):
    pool = request.app[POOL]
    courses = await course_choices(pool)
    chosen = [str(course) for course in values.get("courses", [])]
    context = {
        "path_id": path_id,
        "values": values,
        "chosen_courses": chosen + [""] * BLANK_COURSES,
        "errors": errors or {},
        "courses": courses,
        "rules": RULES,
        "flag_types": FLAG_TYPES,
        "markets": MARKETS,
        "vehicle_types": VEHICLE_TYPES,
        "days_max": PATH_DAYS_MAX,
        "counts": await path_assignments(pool, path_id) if path_id else None,
    }
    return render(request, "admin/paths/form.html", context, status=status)


async def _submit(request: web.Request, path_id: uuid.UUID | None) -> web.Response:
    values, errors = read_path(PathForm(), await request.post())
    saved_id = path_id or uuid.uuid4()  # a new path's UUID is its page's address
    if not errors:
        try:
            action = "path.updated" if path_id else "path.created"
            assigned = await save(request.app[POOL], saved_id, values, actor(request), action)
        except UnknownCourse as exc:
            errors = {"courses": str(exc)}
    if errors:
        return await _form_page(request, path_id=path_id, values=values, errors=errors, status=400)
    riders = "1 rider" if assigned == 1 else f"{assigned} riders"
    message = f"Path “{values['name']}” saved; {riders} assigned."
    return await notices.see_other(request, f"/admin/paths/{saved_id}", message)


@routes.get("/admin/paths")
@roles.needs("viewer")
async def list_paths(request: web.Request) -> web.Response:
    paths = await path_list(request.app[POOL])
    return render(request, "admin/paths/list.html", {"paths": paths, "rules": dict(RULES)})


@routes.get("/admin/paths/new")
@roles.needs("editor")
async def new_path_page(request: web.Request) -> web.Response:
    return await _form_page(request, values=NEW_PATH)


@routes.post("/admin/paths/new")
@roles.needs("editor")
async def create_path(request: web.Request) -> web.Response:
    return await _submit(request, None)


@routes.get("/admin/paths/{path_id}")
@roles.needs("viewer")
async def path_page(request: web.Request) -> web.Response:
    path_id = pages.uuid_in_path(request, "path_id")
    row = await path(request.app[POOL], path_id)
    if row is None:
        raise web.HTTPNotFound
    return await _form_page(request, path_id=path_id, values=dict(row))


@routes.post("/admin/paths/{path_id}")
@roles.needs("editor")
async def save_path(request: web.Request) -> web.Response:
    path_id = pages.uuid_in_path(request, "path_id")
    if await path(request.app[POOL], path_id) is None:
        raise web.HTTPNotFound
    return await _submit(request, path_id)
