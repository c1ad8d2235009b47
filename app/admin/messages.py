"""The messages list: what was sent, failed or only logged; the failed and logged ones are the
training team's call list."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta

import asyncpg
from aiohttp import web
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from app.admin.layout import render
from app.core import database, sql
from app.core.forms import read
from app.core.keys import POOL

routes = web.RouteTableDef()

ASCII_DIGITS = re.compile(r"[0-9]{1,18}\Z")
DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")
DAY_ERROR = "Enter a date as YYYY-MM-DD."
MESSAGE_STATUSES = ("sent", "failed", "logged")
MESSAGE_KINDS = ("reminder", "flag")


class MessagesQuery(Schema):
    status = fields.String(validate=validate.OneOf(MESSAGE_STATUSES))
    kind = fields.String(validate=validate.OneOf(MESSAGE_KINDS))
    # `from` is a Python keyword: the field is `since` with the query name `from`.
    since = fields.String(data_key="from", validate=validate.Regexp(DAY, error=DAY_ERROR))
    until = fields.String(data_key="to", validate=validate.Regexp(DAY, error=DAY_ERROR))
    before = fields.String(validate=validate.Regexp(ASCII_DIGITS, error="Not a message."))

    @validates_schema
    def _real_days(self, data: dict, **_) -> None:
        for name, key in (("since", "from"), ("until", "to")):
            if name in data:
                try:
                    date.fromisoformat(data[name])
                except ValueError:
                    raise ValidationError(DAY_ERROR, key) from None


SQL = sql.load(
    "admin",
    "messages_page",
)


async def messages_page(
    pool: asyncpg.Pool, before: int | None, filters: dict, limit: int
) -> list[asyncpg.Record]:
    async with database.planned_per_call(pool, readonly=True) as conn:
        return await conn.fetch(
            SQL.messages_page,
            before,
            filters.get("status"),
            filters.get("kind"),
            filters.get("since"),
            filters.get("until"),
            limit,
        )


PAGE_SIZE = 50
# The query's names, as the export link passes them on.
FILTERS = {"status": "status", "kind": "kind", "since": "from", "until": "to"}


def _day_start(day: str) -> datetime:
    return datetime.combine(date.fromisoformat(day), time(), tzinfo=UTC)


@routes.get("/admin/messages")
async def messages_list(request: web.Request) -> web.Response:
    values, errors = read(MessagesQuery(), request.query)
    context = {
        "statuses": MESSAGE_STATUSES,
        "kinds": MESSAGE_KINDS,
        "errors": errors,
        "messages": [],
        "next_before": None,
    }
    if errors:
        filters = {key: values[key] for key in FILTERS.values() if key in values}
        return render(request, "admin/messages.html", {**context, "filters": filters}, status=400)
    filters = {query: values[name] for name, query in FILTERS.items() if name in values}
    # UTC days, both ends included: "to" runs until the next day's start.
    between = {
        "status": values.get("status"),
        "kind": values.get("kind"),
        "since": _day_start(values["since"]) if "since" in values else None,
        "until": _day_start(values["until"]) + timedelta(days=1) if "until" in values else None,
    }
    before = int(values["before"]) if "before" in values else None
    rows = await messages_page(request.app[POOL], before, between, PAGE_SIZE + 1)
    context["filters"] = filters
    context["messages"] = rows[:PAGE_SIZE]
    if len(rows) > PAGE_SIZE:
        context["next_before"] = rows[PAGE_SIZE - 1]["message_id"]
    return render(request, "admin/messages.html", context)
