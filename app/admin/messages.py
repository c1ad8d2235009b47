"""The messages list: what was sent, failed or only logged; the failed and logged ones are the
training team's call list."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from aiohttp import web

from app.admin import store
from app.admin.forms import MESSAGE_KINDS, MESSAGE_STATUSES, MessagesQuery
from app.admin.layout import render
from app.core.forms import read
from app.core.keys import POOL

routes = web.RouteTableDef()

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
    rows = await store.messages_page(request.app[POOL], before, between, PAGE_SIZE + 1)
    context["filters"] = filters
    context["messages"] = rows[:PAGE_SIZE]
    if len(rows) > PAGE_SIZE:
        context["next_before"] = rows[PAGE_SIZE - 1]["message_id"]
    return render(request, "admin/messages.html", context)
