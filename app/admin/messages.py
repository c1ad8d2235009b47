"""The messages list: what was sent, failed or only logged; the failed and logged ones are the
training team's call list."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from urllib.parse import parse_qsl, urlencode

import asyncpg
from aiohttp import web
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from app.admin import notices, roles
from app.admin.guard import ADMIN, actor
from app.admin.layout import render
from app.core import audit, database, sql
from app.core.forms import read
from app.core.keys import POOL

routes = web.RouteTableDef()

ASCII_DIGITS = re.compile(r"[0-9]{1,18}\Z")
DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")
DAY_ERROR = "Enter a date as YYYY-MM-DD."
MESSAGE_STATUSES = ("sent", "failed", "logged")
MESSAGE_KINDS = ("reminder", "flag", "pin_reset", "admin")


class DayRange(Schema):
    """`from` and `to`: UTC days, both included (the messages' and the audit log's filters)."""

    # `from` is a Python keyword: the field is `since` with the query name `from`.
    since = fields.String(data_key="from", validate=validate.Regexp(DAY, error=DAY_ERROR))
    until = fields.String(data_key="to", validate=validate.Regexp(DAY, error=DAY_ERROR))

    @validates_schema
    def _real_days(self, data: dict, **_) -> None:
        for name, key in (("since", "from"), ("until", "to")):
            if name in data:
                try:
                    day = date.fromisoformat(data[name])
                except ValueError:
                    raise ValidationError(DAY_ERROR, key) from None
                if day == date.max:  # "to" runs until the next day's start, which is none
                    raise ValidationError(DAY_ERROR, key)


class MessageFilters(DayRange):
    """The messages page's filters, which its CSV export takes too."""

    status = fields.String(validate=validate.OneOf(MESSAGE_STATUSES))
    kind = fields.String(validate=validate.OneOf(MESSAGE_KINDS))


class MessagesQuery(MessageFilters):
    before = fields.String(validate=validate.Regexp(ASCII_DIGITS, error="Not a message."))


def message_filters(values: dict, markets: list[str]) -> list:
    """Status, kind, the UTC day range [from, to + 1 day) and the admin's `markets` (empty:
    every market), as the page's and the export's statements take them."""
    return [values.get("status"), values.get("kind"), *day_range(values), markets]


def day_range(values: dict) -> list[datetime | None]:
    """The UTC range [from, to + 1 day) of DayRange's values; None: open on that side."""
    return [
        _day_start(values["since"]) if "since" in values else None,
        _day_start(values["until"]) + timedelta(days=1) if "until" in values else None,
    ]


def _day_start(day: str) -> datetime:
    return datetime.combine(date.fromisoformat(day), time(), tzinfo=UTC)


SQL = sql.load(
    "admin",
    "messages_page",
    "mark_called",
)


async def messages_page(
    pool: asyncpg.Pool, before: int | None, filters: list, limit: int
) -> list[asyncpg.Record]:
    """`filters` as `message_filters` makes them."""
    async with database.planned_per_call(pool, readonly=True) as conn:
        return await conn.fetch(SQL.messages_page, before, *filters, limit)


PAGE_SIZE = 50
# The query's names, as the export link passes them on.
FILTERS = {"status": "status", "kind": "kind", "since": "from", "until": "to"}
LIST_QUERY = (*FILTERS.values(), "before")


@routes.get("/admin/messages")
@roles.needs("viewer")
async def messages_list(request: web.Request) -> web.Response:
    values, errors = read(MessagesQuery(), request.query)
    context = {
        # Where "Mark called" comes back to: this page, its filters and place.
        "back": request.query_string,
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
    before = int(values["before"]) if "before" in values else None
    filtered = message_filters(values, roles.market_limit(request[ADMIN]))
    rows = await messages_page(request.app[POOL], before, filtered, PAGE_SIZE + 1)
    context["filters"] = filters
    context["messages"] = rows[:PAGE_SIZE]
    if len(rows) > PAGE_SIZE:
        context["next_before"] = rows[PAGE_SIZE - 1]["message_id"]
    return render(request, "admin/messages.html", context)


@routes.post("/admin/messages/{message_id:[0-9]{1,18}}/called")
@roles.needs("editor")
async def mark_called(request: web.Request) -> web.Response:
    """The call list's "Mark called": the failed or logged message was passed on by telephone;
    who and when stay on the row (a second mark keeps the first), and the audit log has it."""
    message_id = int(request.match_info["message_id"])
    admin = request[ADMIN]
    async with request.app[POOL].acquire() as conn, conn.transaction():
        row = await conn.fetchrow(
            SQL.mark_called, message_id, admin.email, roles.market_limit(admin)
        )
        if row is None:
            raise web.HTTPNotFound
        if row["marked"]:
            summary = f"message {message_id}"
            await audit.record(conn, actor(request), "message.called", row["rider_id"], summary)
    location = _list_address((await request.post()).get("back", ""))
    rider = f"{row['name']} ({row['rider_id']})"
    if row["marked"]:
        done = f"Marked called: {rider}."
    else:
        when = row["called_at"].strftime("%Y-%m-%d %H:%M")
        done = f"Already marked called: {rider}, by {row['called_by']} at {when} UTC."
    return await notices.see_other(request, location, done)


def _list_address(back: str) -> str:
    """The messages list with the filters (and page) the form was sent from, from its `back`
    field: only the list's own names are kept, so the redirect stays on this page."""
    kept = [(key, value) for key, value in parse_qsl(back) if key in LIST_QUERY]
    return f"/admin/messages?{urlencode(kept)}" if kept else "/admin/messages"
