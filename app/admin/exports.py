"""CSV exports of the panel (docs/csv.md#csv-exports): riders, assignments, completions and
messages, with the filters of the page they come from, in parts of at most ROWS_PER_PART data rows.

Streamed as `app/checks/streaming.py` streams the check list: rows come from a server-side
cursor in batches and leave as they come (chunked, no Content-Length), so the first byte goes
out before the query ends and memory does not depend on the number of rows. A client that goes
away ends the query; a database failure after the first byte cuts the connection, so a broken
export never looks like a complete, shorter file. The database renders each row as a CSV line
(`sql/admin/functions/admin_csv_text.sql`: quoting and the formula guard, so a rider named
`=HYPERLINK(…)` stays text in a spreadsheet); this module joins the lines into chunks.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator, Iterable, Sequence
from urllib.parse import urlencode

import asyncpg
from aiohttp import web
from marshmallow import Schema, ValidationError, validate

from app.admin import roles
from app.admin.guard import ADMIN, actor
from app.admin.layout import render
from app.admin.messages import MessageFilters, message_filters
from app.admin.rider_csv_parser import FIELDS
from app.admin.riders import RiderFilters
from app.admin.search import PHONE_QUERY, matching_riders_parameters
from app.core import audit, database, sql
from app.core.fields import Integer
from app.core.forms import first_error, read_query
from app.core.gates import Gate
from app.core.keys import POOL, READ_POOL
from app.core.streaming import write_chunks

routes = web.RouteTableDef()

SQL = sql.load(
    "admin",
    "export_riders_count",
    "export_riders",
    "export_assignments_count",
    "export_assignments",
    "export_completions_count",
    "export_completions",
    "export_messages_count",
    "export_messages",
    "export_audit_count",
    "export_audit",
    "plan_whole_result",
)

# Rows a cursor fetch brings: a few hundred kB of CSV, so memory stays flat at any row count.
FETCH_ROWS = 5000


class ExportQuery(Schema):
    part = Integer(
        load_default=1, validate=validate.Range(min=1, error="part must be a whole number from 1.")
    )


class RiderFiltersQuery(RiderFilters, ExportQuery):
    """The riders list's filters and the part."""


class MessageFiltersQuery(MessageFilters, ExportQuery):
    """The messages page's filters (`/admin/messages`) and the part."""


@contextlib.asynccontextmanager
async def export_rows(pool: asyncpg.Pool, name: str, filters: Sequence):
    """(count, rows): how many rows export `name` holds with these filters (its statements'
    parameters), and `rows(offset, limit)`, batches of those rows read through a cursor. One
    snapshot for both, so the parts announced are the parts served. Leaving the context ends
    the transaction, which closes the cursor: the query stops even when it was not read to
    the end."""
    async with database.planned_per_call(pool, readonly=True, isolation="repeatable_read") as conn:
        await conn.execute(SQL.plan_whole_result)
        count = await conn.fetchval(getattr(SQL, f"export_{name}_count"), *filters)

        async def rows(offset: int, limit: int) -> AsyncIterator[list[asyncpg.Record]]:
            statement = getattr(SQL, f"export_{name}")
            async for batch in database.batches(
                await conn.cursor(statement, *filters, offset, limit), FETCH_ROWS
            ):
                yield batch

        yield count, rows


ROWS_PER_PART = 500_000  # docs/limits.md: CSV exports, rows per file

COLUMNS = {
    # The import's fields without the PIN (only its hash is stored), then when the rider came.
    "riders": (*(field for field in FIELDS if field != "pin"), "createdAt"),
    "assignments": ("riderId", "pathId", "path", "why", "assignedAt", "deadline", "completedAt"),
    "completions": (
        "riderId",
        "market",
        "courseId",
        "course",
        "language",
        "startedAt",
        "completedAt",
        "score",
        "attempts",
        "timeSpentSeconds",
        "proofCode",
    ),
    "messages": ("riderId", "kind", "status", "createdAt", "error"),
    # The audit log's CSV (app/admin/audit.py).
    "audit": ("at", "actor", "address", "action", "target", "summary"),
}

# An export holds a connection while its client reads: a few at a time per process, the
# others wait 5 seconds, then get a 503 page.
EXPORTS = Gate(size=3, wait=5.0, refusal=web.HTTPServiceUnavailable)

# Spreadsheets read a file without it as their local code page, which garbles Arabic names.
BOM = "\ufeff"


class BadExport(Exception):
    """A page of the panel naming what is wrong with the export's address: 400, or `status`
    (404 for a part the export does not have)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


# The page each export is offered on: where an export that cannot be made leads back to.
LIST_PAGES = {
    "riders": ("/admin/riders", "the riders list"),
    "assignments": ("/admin/riders", "the riders list"),
    "completions": ("/admin/riders", "the riders list"),
    "messages": ("/admin/messages", "the messages"),
    "audit": ("/admin/audit", "the audit log"),
}


def _cannot_be_made(request: web.Request, name: str, exc: BadExport) -> web.Response:
    """The panel's page (navigation kept) saying why, with links back to the list the export
    came from, with its filters, and to the export's first part."""
    filters = [(key, value) for key, value in request.query.items() if key != "part"]
    page, page_name = LIST_PAGES[name]
    query = f"?{urlencode(filters)}" if filters else ""
    context = {
        "title": "This export cannot be made",
        "hint": str(exc),
        "links": [
            (f"{page}{query}", f"Back to {page_name}"),
            (f"{request.path}?{urlencode([*filters, ('part', 1)])}", "Download part 1"),
        ],
    }
    return render(request, "admin/not_found.html", context, status=exc.status)


def _query(schema: Schema, request: web.Request) -> dict:
    try:
        return read_query(schema, request.query)
    except ValidationError as exc:
        (name, *_), message = first_error(exc.messages)
        raise BadExport(f"{name}: {message}") from None


def rider_filters(values: dict, markets: list[str]) -> list:
    """The parameters of admin_matching_riders for the riders list's filters and the admin's
    `markets`, then whether any of them narrows the export."""
    *filters, overdue = matching_riders_parameters(values, markets)
    return [*filters, overdue, overdue or any(value is not None for value in filters)]


def part_count(rows: int) -> int:
    """Parts of an export of `rows` data rows; an empty export is one file with its header."""
    return max(1, -(-rows // ROWS_PER_PART))


def _filename(name: str, part: int, parts: int) -> str:
    return f"{name}.csv" if parts == 1 else f"{name}-part-{part}-of-{parts}.csv"


async def export_csv(
    request: web.Request, name: str, schema: Schema, to_filters
) -> web.StreamResponse:
    """Export `name` with the filters of its query (`schema`, made into the statements'
    parameters by `to_filters`), recorded in the audit log as `<name>.exported`."""
    try:
        values = _query(schema, request)
        part = values["part"]
        filters = to_filters(values, roles.market_limit(request[ADMIN]))
        async with (
            EXPORTS.slot(),
            export_rows(request.app[READ_POOL], name, filters) as (count, rows),
        ):
            parts = part_count(count)
            if part > parts:
                raise BadExport(
                    f"part: this export has {parts} part{'s' * (parts > 1)}.", status=404
                )
            rows_sent = min(ROWS_PER_PART, count - (part - 1) * ROWS_PER_PART)
            given = {key: value for key, value in schema.dump(values).items() if key != "part"}
            summary = f"{rows_sent} rows, part {part} of {parts}; {filters_summary(given)}"
            await record_export(request, f"{name}.exported", summary)
            batches = rows((part - 1) * ROWS_PER_PART, ROWS_PER_PART)
            chunks = csv_lines(batches)
            async with contextlib.aclosing(batches), contextlib.aclosing(chunks):
                return await stream_csv(
                    request,
                    ",".join(COLUMNS[name]) + "\r\n",
                    chunks,
                    filename=_filename(name, part, parts),
                    parts=parts,
                )
    except BadExport as exc:
        return _cannot_be_made(request, name, exc)


def filters_summary(filters: dict) -> str:
    """The filters of an export for its audit event; a phone number searched for (the riders
    list's `q`) is not written out."""
    if PHONE_QUERY.match(filters.get("q") or ""):
        filters = {**filters, "q": "(a phone number)"}
    return audit.described(filters) or "no filters"


async def record_export(
    request: web.Request, action: str, summary: str, target: str | None = None
) -> None:
    """Write an export's audit event before its first byte is sent, so no row leaves without
    it. On the primary, committed at once: the export's own snapshot may be on the read
    replica, where nothing can be written; a failure here answers an error, nothing sent."""
    async with request.app[POOL].acquire() as conn:
        await audit.record(conn, actor(request), action, target, summary)


async def csv_lines(batches: AsyncIterator[Sequence[Sequence[str]]]) -> AsyncIterator[str]:
    """The text of batches of rows the database rendered as CSV lines."""
    async for batch in batches:
        yield "".join([line for (line,) in batch])


_NUMBER = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?\Z")


def _csv_cell(value) -> str:
    """A CSV cell as admin_csv_text (sql/admin/functions) writes the exports' free text, for
    rows made in Python (the reports):
    empty for None, quoted when needed, and a leading ' for a text a spreadsheet would run as
    a formula (a cell that is entirely a number needs none)."""
    if value is None:
        return ""
    text = str(value)
    if text[:1] in ("=", "+", "-", "@", "\t", "\r") and not _NUMBER.match(text):
        return "\"'" + text.replace('"', '""') + '"'
    if any(c in text for c in '",\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def csv_rows(rows: Iterable[Sequence]) -> str:
    return "".join(",".join(_csv_cell(cell) for cell in row) + "\r\n" for row in rows)


async def stream_csv(
    request: web.Request,
    header: str,
    chunks: AsyncIterator[str],
    *,
    filename: str,
    parts: int = 1,
) -> web.StreamResponse:
    """Answer 200 with a CSV file: `header` (CSV text) at once, then `chunks` as they come.

    The caller has run its first query (the count, the import's header) before: what fails
    there still answers a proper error page. After the header is sent, a client that goes
    away ends the stream quietly (the caller then leaves its transaction, which closes the
    cursor and ends the query); any other failure cuts the connection and is raised, so the
    body never ends properly.
    """
    response = web.StreamResponse(
        headers={
            "X-Export-Parts": str(parts),
            "Content-Disposition": f'attachment; filename="{filename}"',
        }
    )
    response.content_type = "text/csv"
    response.charset = "utf-8"
    await response.prepare(request)
    await write_chunks(request, response, chunks, head=BOM + header)
    return response


# Each export's query: the filters of the list it comes from (the three rider exports share the
# riders list's), and the part.
QUERIES = {
    "riders": (RiderFiltersQuery, rider_filters),
    "assignments": (RiderFiltersQuery, rider_filters),
    "completions": (RiderFiltersQuery, rider_filters),
    "messages": (MessageFiltersQuery, message_filters),
}


@routes.get("/admin/exports/{name:" + "|".join(QUERIES) + "}.csv")
@roles.needs("editor")
async def export(request: web.Request) -> web.StreamResponse:
    name = request.match_info["name"]
    query, filters = QUERIES[name]
    return await export_csv(request, name, query(), filters)
