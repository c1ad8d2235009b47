"""The audit log's pages (`/admin/audit`, owners only; docs/audit.md): who
changed what, newest first, with filters, keyset-paged, and the same as a CSV file.

The events themselves are written by each change, in its own transaction
(`app.core.audit.record`); this module only reads them.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import asyncpg
from aiohttp import web
from marshmallow import fields, validate

from app.admin import exports, roles
from app.admin.layout import render
from app.admin.messages import DayRange, day_range
from app.core import database, sql
from app.core.audit import TARGET_MAX
from app.core.fields import Text
from app.core.forms import read
from app.core.keys import POOL

routes = web.RouteTableDef()

SQL = sql.load("admin", "audit_events_page")

# What the panel and the command line record (docs/audit.md lists what each means); the
# filter takes any action written like these, so one missing here can still be looked up.
ACTIONS = (
    "admin.created",
    "admin.disabled",
    "admin.password_reset",
    "admin.role_changed",
    "ai.generation_started",
    "ai.translation_started",
    "api_key.created",
    "api_key.revoked",
    "assignments.created",
    "assignments.exported",
    "audit.exported",
    "completions.exported",
    "course.created",
    "course.imported",
    "course.saved",
    "data.loaded",
    "job.run",
    "knowledge.added",
    "knowledge.deleted",
    "links.revoked",
    "message.called",
    "message.sent",
    "messages.exported",
    "messages.sent_by_admin",
    "migrations.applied",
    "path.created",
    "path.updated",
    "rejected_rows.exported",
    "rider.flag_added",
    "rider.pin_reset",
    "rider.status_changed",
    "riders.exported",
    "riders.imported",
    "translation.reviewed",
    "translation.saved",
    "webhook.created",
    "webhook.deleted",
    "webhook.delivery_replayed",
    "webhook.disabled",
    "webhook.enabled",
    "webhook.test_sent",
)
ACTION_ERROR = "Enter an action like rider.pin_reset (see the list)."


class AuditFilters(DayRange):
    """The audit page's filters, which its CSV takes too: actor, action and target are exact."""

    actor = Text(validate=validate.Length(max=254))
    action = fields.String(
        validate=validate.Regexp(r"[a-z_]{1,60}\.[a-z_]{1,60}\Z", error=ACTION_ERROR)
    )
    target = Text(validate=validate.Length(max=TARGET_MAX))


# The keyset: the last event shown, as `<its time in Unix milliseconds>-<its event_id>`. Its
# values, not an id to look up, so that the planner knows them and reads the actor's or the
# action's index from there (an id looked up in the statement leaves the keyset unknown when
# planning, and the planner then walks the time index and filters).
KEYSET = re.compile(r"([0-9]{1,15})-([0-9]{1,18})\Z")
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MILLISECOND = timedelta(milliseconds=1)


class AuditQuery(AuditFilters):
    """The filters and the keyset."""

    before = fields.String(validate=validate.Regexp(KEYSET, error="Not a page of the audit log."))


def keyset(before: str | None) -> tuple[datetime | None, int | None]:
    """The (at, event_id) a `before` names (None: the newest first)."""
    if before is None:
        return None, None
    milliseconds, event_id = KEYSET.match(before).groups()
    return EPOCH + int(milliseconds) * MILLISECOND, int(event_id)


def keyset_of(event: asyncpg.Record) -> str:
    """The `before` of the page after `event` (its time is kept to the millisecond)."""
    return f"{(event['at'] - EPOCH) // MILLISECOND}-{event['event_id']}"


class AuditExportQuery(AuditFilters, exports.ExportQuery):
    """The filters and the part."""


def audit_filters(values: dict, _markets=()) -> list:
    """Actor, action, target and the UTC day range, as the page's and the CSV's statements
    take them. The log is the owners', whole: an admin's markets do not narrow it (the
    exports pass them)."""
    return [values.get("actor"), values.get("action"), values.get("target"), *day_range(values)]


async def events_page(
    pool: asyncpg.Pool, before: tuple, filters: list, limit: int
) -> list[asyncpg.Record]:
    """`before` as `keyset` reads it, `filters` as `audit_filters` makes them. From the
    primary: a change just made is listed at once."""
    async with database.planned_per_call(pool, readonly=True) as conn:
        return await conn.fetch(SQL.audit_events_page, *before, *filters, limit)


PAGE_SIZE = 50
# The query's names of the filters, as the links pass them on.
FILTERS = {
    "actor": "actor",
    "action": "action",
    "target": "target",
    "since": "from",
    "until": "to",
}


@routes.get("/admin/audit")
@roles.needs("owner")
async def audit_page(request: web.Request) -> web.Response:
    values, errors = read(AuditQuery(), request.query)
    context = {"actions": ACTIONS, "errors": errors, "events": [], "next_before": None}
    if errors:
        filters = {key: values[key] for key in FILTERS.values() if key in values}
        return render(request, "admin/audit.html", {**context, "filters": filters}, status=400)
    filters = {query: values[name] for name, query in FILTERS.items() if name in values}
    before = keyset(values.get("before"))
    rows = await events_page(request.app[POOL], before, audit_filters(values), PAGE_SIZE + 1)
    context["filters"] = filters
    context["events"] = rows[:PAGE_SIZE]
    if len(rows) > PAGE_SIZE:
        context["next_before"] = keyset_of(rows[PAGE_SIZE - 1])
    return render(request, "admin/audit.html", context)


@routes.get("/admin/audit.csv")
@roles.needs("owner")
async def audit_csv(request: web.Request) -> web.StreamResponse:
    return await exports.export_csv(request, "audit", AuditExportQuery(), audit_filters)
