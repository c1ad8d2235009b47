"""The assign page: a path for riders chosen by filters (with cities) and pasted IDs, previewed
as a count, then assigned (why `admin`) in one set-based statement."""

from __future__ import annotations

from collections.abc import Sequence

import asyncpg
from aiohttp import web
from marshmallow import Schema, ValidationError, fields, validate, validates, validates_schema

from app.admin import notices, roles
from app.admin.guard import ADMIN, actor
from app.admin.layout import render
from app.admin.search import folded
from app.core import audit, sql
from app.core.database import Db
from app.core.fields import Integer
from app.core.forms import read
from app.core.keys import POOL
from app.training import store as training
from app.training.assignments import MAX_RIDER_IDS, MAX_VALUE_LENGTH
from app.training.riders import MARKETS, STATUSES

routes = web.RouteTableDef()

SHORT_TEXT = validate.Length(max=MAX_VALUE_LENGTH)


class AssignForm(Schema):
    """The assign form (docs/admin-panel.md#form-fields); the filters are repeated fields,
    `rider_ids` one ID a line."""

    path_id = fields.UUID(required=True, error_messages={"invalid_uuid": "Choose a path."})
    markets = fields.List(fields.String(validate=validate.OneOf(MARKETS)))
    statuses = fields.List(fields.String(validate=validate.OneOf(STATUSES)))
    vehicle_types = fields.List(fields.String(validate=SHORT_TEXT))
    cities = fields.List(fields.String(validate=SHORT_TEXT))
    rider_ids = fields.String()
    confirm = fields.String(validate=validate.Equal("1"))
    # The count the preview showed: a confirm that would now assign another number writes
    # nothing (docs/admin-panel.md). Scripts that post without it assign as before.
    expected_count = Integer(validate=validate.Range(min=0))

    @validates("rider_ids")
    def _rider_ids(self, value: str, **_) -> None:
        ids = value.split()
        if len(ids) > MAX_RIDER_IDS:
            raise ValidationError(f"Paste at most {MAX_RIDER_IDS} rider IDs.")
        if any(len(rider_id) > MAX_VALUE_LENGTH for rider_id in ids):
            raise ValidationError(f"A rider ID has at most {MAX_VALUE_LENGTH} characters.")

    @validates_schema
    def _some_riders(self, data: dict, **_) -> None:
        if not any(data.get(name) for name in ("rider_ids", *ASSIGN_FILTERS)):
            raise ValidationError(
                "Choose riders: paste rider IDs or choose at least one filter.", "rider_ids"
            )


ASSIGN_FILTERS = ("markets", "statuses", "vehicle_types", "cities")


SQL = sql.load(
    "admin",
    "path_choices",
    "rider_choices",
)


async def path_choices(db: Db) -> list[asyncpg.Record]:
    return await db.fetch(SQL.path_choices)


async def rider_choices(db: Db, markets: Sequence[str] = ()) -> dict[str, list[str]]:
    """The vehicle types and cities riders of `markets` (empty: every market) have, each once
    in any case: the choices of the riders list and the assign form."""
    choices: dict[str, list[str]] = {"city": [], "vehicle_type": []}
    for row in await db.fetch(SQL.rider_choices, list(markets) or None):
        choices[row["kind"]].append(row["value"])
    return choices


PATH_GONE = "This path does not exist."


def _summary(row, chosen: dict) -> str:
    """The assignment's audit summary: counts and the filters, pasted IDs as a count."""
    rider_ids = chosen["rider_ids"]
    filters = {name: chosen[name] for name in ASSIGN_FILTERS}
    filters["rider_ids"] = f"{len(rider_ids)} pasted" if rider_ids else None
    matched = "" if row["matched"] is None else f" of {row['matched']} matched"
    return f"{row['created']} created{matched}; " + audit.described(filters)


def _prefill(query) -> dict:
    """The form as the riders list fills it: its filters, or the riders ticked there."""
    values = {name: query.getall(name) for name in ASSIGN_FILTERS if name in query}
    if "rider_ids" in query:
        values["rider_ids"] = "\n".join(query.getall("rider_ids"))
    return values


async def _preview(request: web.Request, values: dict, *, confirmed: bool = False):
    """assign_path_counts's row for the form's `values` (its filters within the admin's
    markets), writing only when `confirmed`; the audit event with the assignments."""
    admin = request[ADMIN]
    expected = values.get("expected_count") if confirmed else None
    async with request.app[POOL].acquire() as conn, conn.transaction():
        chosen = {name: values.get(name) for name in ASSIGN_FILTERS}
        # Cities and vehicle types as the riders list compares them: in any case.
        for name in ("cities", "vehicle_types"):
            chosen[name] = folded(chosen[name])
        # Pasted IDs of riders outside the admin's markets match nothing.
        chosen["markets"] = roles.within_markets(admin, chosen["markets"])
        chosen["rider_ids"] = values["rider_ids"].split() if values.get("rider_ids") else None
        row = await training.assign_path_counts(
            conn, values["path_id"], chosen, why="admin", preview=not confirmed, expected=expected
        )
        if confirmed and row is not None and row["created"]:
            await audit.record(
                conn,
                actor(request),
                "assignments.created",
                str(values["path_id"]),
                _summary(row, chosen),
            )
    return row


def _form_errors(request: web.Request, values: dict, errors: dict) -> dict:
    if not errors and (outside := roles.outside_markets(request[ADMIN], values.get("markets"))):
        return {"markets": outside}
    return errors


@routes.get("/admin/assign/count")
@roles.needs("editor")
async def assign_count(request: web.Request) -> web.Response:
    """The preview's count as JSON for the form's script (app/static/assign-count.js), which
    asks again as filters are ticked: {"would_create", "matched"}, or 400 {"error"} naming
    the first field that is wrong. Nothing is written; the POST stays the authority."""
    values, errors = read(AssignForm(), request.query)
    errors = _form_errors(request, values, errors)
    if errors:
        name, message = next(iter(errors.items()))
        return web.json_response({"error": f"{name}: {message}"}, status=400)
    row = await _preview(request, values)
    if row is None:
        return web.json_response({"error": f"path_id: {PATH_GONE}"}, status=400)
    return web.json_response({"would_create": row["would_create"], "matched": row["matched"]})


@routes.get("/admin/assign")
@roles.needs("editor")
async def assign_page(
    request: web.Request, status: int = 200, *, values=None, errors=None, preview=None
) -> web.Response:
    """The assign form; its POST shows it again with `status`, what was entered, its errors
    and `preview`: the preview's row (would_create, matched) and `changed`, whether it follows
    a confirm whose filters matched another number of riders."""
    pool = request.app[POOL]
    if values is None:
        values = _prefill(request.query)
    context = {
        "paths": await path_choices(pool),
        "choices": await rider_choices(pool, roles.market_limit(request[ADMIN])),
        "markets": roles.market_choices(request[ADMIN]),
        "statuses": STATUSES,
        "values": values,
        "errors": errors or {},
        "preview": preview,
    }
    return render(request, "admin/assign.html", context, status=status)


@routes.post("/admin/assign")
@roles.needs("editor")
async def assign(request: web.Request) -> web.Response:
    form = await request.post()
    values, errors = read(AssignForm(), form)
    errors = _form_errors(request, values, errors)
    if errors:
        return await assign_page(request, 400, values=values, errors=errors)
    confirmed = values.get("confirm") == "1"
    expected = values.get("expected_count") if confirmed else None
    row = await _preview(request, values, confirmed=confirmed)
    if row is None:
        return await assign_page(request, 400, values=values, errors={"path_id": PATH_GONE})
    if not confirmed:
        return await assign_page(request, values=values, preview={**row, "changed": False})
    created = row["created"]
    if expected is None:
        done = f"{created} assignment{'' if created == 1 else 's'} created (why: admin)."
        return await notices.see_other(request, "/admin/assign", done)
    if row["would_create"] != expected:
        # Nothing was written: the filters (or the riders) changed since the preview.
        preview = {**row, "changed": True}
        return await assign_page(request, 409, values=values, preview=preview)
    already = row["matched"] - created
    done = (
        f"{created:,} rider{'' if created == 1 else 's'} assigned, {already:,} already had this "
        "path (why: admin)."
    )
    return await notices.see_other(request, "/admin/assign", done)
