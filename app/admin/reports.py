"""The reports of the training team (docs/reports.md): completion by path, completions and
assignments per week, overdue by city, and the item analysis of a course's quiz — each a
table beside a chart drawn on the server (SVG, `admin/charts.html`), and a CSV download with
the page's filters.

The pages only read the summaries that the `reports` job (jobs/reports.py) recounts whole,
every REFRESH_MINUTES or when an editor presses Recount now, from the tables the API and the
exports read (migrations 0027, 0043): counting 1.5 M assignments and 2 M completions for each
page took seconds (bench/README.md), a summary takes milliseconds. So a figure is as old as
the last run; each page says when it was counted.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Iterable, Sequence
from decimal import ROUND_HALF_UP, Decimal
from urllib.parse import urlencode

import asyncpg
from aiohttp import web
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from app.admin import jobs_page, notices, roles
from app.admin.assign import rider_choices
from app.admin.exports import csv_rows, stream_csv
from app.admin.guard import ADMIN
from app.admin.layout import render
from app.admin.report_charts import ATTEMPT_BUCKETS, SCORE_BUCKETS, charts, course_charts
from app.core import database, html, sql
from app.core.fields import Text
from app.core.forms import read
from app.core.keys import POOL, READ_POOL
from app.training.courses import Course, read_course
from app.training.riders import MARKETS, MAX_LENGTHS
from jobs.reports import JOB, REFRESH_MINUTES
from jobs.scheduler import JobLocked

routes = web.RouteTableDef()

SQL = sql.load(
    "admin",
    "report_refreshed_at",
    "report_paths",
    "report_weeks",
    "report_overdue",
    "report_courses",
    "report_questions",
    "report_options",
    "report_distributions",
)

MAX_CITIES = 50
ASSIGNED_DAYS = ("assigned_from", "assigned_to")
# Rates are shown in percent with one decimal, half away from zero as PostgreSQL rounds.
TENTH = Decimal("0.1")


class ReportFilters(Schema):
    """The reports page's filters: the riders' markets and cities (repeated; none: any), and
    for the paths report the UTC days an assignment was made (both included)."""

    markets = fields.List(fields.String(validate=validate.OneOf(MARKETS)))
    cities = fields.List(
        Text(validate=validate.Length(max=MAX_LENGTHS["city"])),
        validate=validate.Length(max=MAX_CITIES, error=f"Choose at most {MAX_CITIES} cities."),
    )
    assigned_from = fields.Date(format="%Y-%m-%d")
    assigned_to = fields.Date(format="%Y-%m-%d")

    @validates_schema
    def _range(self, data: dict, **_) -> None:
        start, end = data.get("assigned_from"), data.get("assigned_to")
        if start and end and start > end:
            raise ValidationError("The end comes before the start.", "assigned_to")


def _riders(values: dict) -> list:
    """Markets (those chosen, within the admin's) and cities as the statements take them:
    NULL for any. The summaries are counted by market, so an admin's markets are a sum of
    their rows, as quick as any filter."""
    return [values["rider_markets"], values.get("cities") or None]


def _assigned(values: dict) -> list:
    return [values.get("assigned_from"), values.get("assigned_to")]


def query_string(values: dict) -> str:
    """The filters as an address's query (repeated names for markets and cities)."""
    pairs = [(name, value) for name in ("markets", "cities") for value in values.get(name, [])]
    for name in ASSIGNED_DAYS:
        value = values.get(name)
        if value:
            pairs.append((name, value.isoformat()))
    return urlencode(pairs)


def path_riders_filters(values: dict) -> dict | None:
    """The report's filters as the riders list's, for the paths table's links to the riders
    behind each count (with `path` and `path_state` added), or None when the list cannot
    narrow as the report does: more than one market or city, or days assigned, chosen."""
    markets, cities = values.get("markets") or [], values.get("cities") or []
    if len(markets) > 1 or len(cities) > 1 or any(map(values.get, ASSIGNED_DAYS)):
        return None
    chosen = {"market": markets, "city": cities}
    return {name: values[0] for name, values in chosen.items() if values}


async def _fetch(pool: asyncpg.Pool, statement: str, *args) -> list[asyncpg.Record]:
    async with database.planned_per_call(pool, readonly=True) as conn:
        return await conn.fetch(statement, *args)


async def paths_report(pool: asyncpg.Pool, values: dict) -> list[asyncpg.Record]:
    return await _fetch(pool, SQL.report_paths, *_riders(values), *_assigned(values))


async def weeks_report(pool: asyncpg.Pool, values: dict) -> list[asyncpg.Record]:
    return await _fetch(pool, SQL.report_weeks, *_riders(values))


async def overdue_report(pool: asyncpg.Pool, values: dict) -> list[asyncpg.Record]:
    return await _fetch(pool, SQL.report_overdue, *_riders(values))


def top_wrong_options(course: Course, rows: Iterable[asyncpg.Record]) -> dict[int, str]:
    """Per question, the text of the wrong option chosen most in wrong answers (the lower
    index on a tie); an option the course now counts as correct, or no longer has, is left
    out."""
    best: dict[int, tuple[int, int]] = {}
    for row in rows:
        question, option, wrong = row["question"], row["option"], row["wrong"]
        if question >= len(course.quiz):
            continue
        item = course.quiz[question]
        if option in item["correct"] or option >= len(item["options"]):
            continue
        if (wrong, -option) > best.get(question, (0, 0)):
            best[question] = (wrong, -option)
    return {q: course.quiz[q]["options"][-option] for q, (_, option) in best.items()}


def option_counts(course: Course, question: int, answered: int, chosen: dict) -> list[dict]:
    """Each option of the course's `question` now: its text, whether it is correct, how many
    of the `answered` answers chose it (`chosen`: by option index) and that in percent."""
    if question >= len(course.quiz):
        return []
    item = course.quiz[question]
    return [
        {
            "text": text,
            "correct": option in item["correct"],
            "chosen": (count := chosen.get((question, option), 0)),
            "rate": (Decimal(100 * count) / answered).quantize(TENTH, ROUND_HALF_UP)
            if answered
            else None,
        }
        for option, text in enumerate(item["options"])
    ]


# Moodle's question statistics flag a question whose discrimination index is below 30% as
# "very likely" to need checking and below 50% as "likely" (docs/reports.md).
NEEDS_CHECKING = ((30, "very likely"), (50, "likely"))


def needs_checking(discrimination: Decimal | None) -> str | None:
    """How likely the question needs checking, from its discrimination index (None: not
    flagged, or no index)."""
    if discrimination is None:
        return None
    return next((words for below, words in NEEDS_CHECKING if discrimination < below), None)


async def course_report(pool: asyncpg.Pool, course: Course, values: dict) -> dict:
    """The item analysis of `course`: its questions' rows and the two distributions."""
    riders = _riders(values)
    async with database.planned_per_call(pool, readonly=True, isolation="repeatable_read") as conn:
        questions = await conn.fetch(SQL.report_questions, course.course_id, *riders)
        options = await conn.fetch(SQL.report_options, course.course_id, *riders)
        buckets = await conn.fetch(SQL.report_distributions, course.course_id, *riders)
    top = top_wrong_options(course, options)
    chosen = {(row["question"], row["option"]): row["chosen"] for row in options}
    rows = [
        {
            **row,
            "text": course.quiz[row["question"]]["question"]
            if row["question"] < len(course.quiz)
            else "",
            "top_wrong_option": top.get(row["question"], ""),
            "options": option_counts(course, row["question"], row["answered"], chosen),
            "needs_checking": needs_checking(row["discrimination"]),
        }
        for row in questions
    ]
    counts = {(row["kind"], row["bucket"]): row["count"] for row in buckets}
    return {
        "questions": rows,
        "attempts": [(n, counts.get(("attempts", n), 0)) for n in ATTEMPT_BUCKETS],
        "scores": [(n, counts.get(("score", n), 0)) for n in SCORE_BUCKETS],
    }


def _filters(request: web.Request) -> tuple[dict, dict]:
    """The filters of the address; valid ones with `rider_markets`, the markets the reports
    count (see `_riders`)."""
    values, errors = read(ReportFilters(), request.query)
    admin = request[ADMIN]
    if not errors and (outside := roles.outside_markets(admin, values.get("markets"))):
        errors = {"markets": outside}
    if not errors:
        values["rider_markets"] = roles.within_markets(admin, values.get("markets"))
    return values, errors


async def _page_context(request: web.Request) -> tuple[dict, dict]:
    """The filters read from the address, and what every report page shows with them."""
    values, errors = _filters(request)
    async with request.app[READ_POOL].acquire() as conn:
        cities = (await rider_choices(conn))["city"]
        refreshed_at = await conn.fetchval(SQL.report_refreshed_at)
    context = {
        "values": values,
        "errors": errors,
        "markets": roles.market_choices(request[ADMIN]),
        "cities": cities,
        "query": "" if errors else query_string(values),
        "refreshed_at": refreshed_at,
        "refresh_minutes": REFRESH_MINUTES,
    }
    return values, context


@routes.get("/admin/reports")
@roles.needs("viewer")
async def reports_page(request: web.Request) -> web.Response:
    values, context = await _page_context(request)
    if context["errors"]:
        return render(request, "admin/reports.html", context, status=400)
    pool = request.app[READ_POOL]
    # Each report on a connection of its own, at once: the page waits for the slowest only.
    paths, weeks, overdue, courses = await asyncio.gather(
        paths_report(pool, values),
        weeks_report(pool, values),
        overdue_report(pool, values),
        _fetch(pool, SQL.report_courses),
    )
    context |= {"paths": paths, "weeks": weeks, "overdue": overdue, "courses": courses}
    context["path_riders"] = path_riders_filters(values)
    context |= charts(paths, weeks, overdue)
    return render(request, "admin/reports.html", context)


@routes.post("/admin/reports/recount")
@roles.needs("editor")
async def recount_now(request: web.Request) -> web.Response:
    """Recount the summaries now through the reports job (recorded on the jobs page like a run
    of the schedule), then back to the reports saying how it went."""
    # The primary's pool: a read replica may not have the new time yet.
    pool = request.app[POOL]
    before = await pool.fetchval(SQL.report_refreshed_at)
    task = await jobs_page.start(request, JOB.name)
    if not task.done():
        said = "Recount started: it goes on in the background; reload the page to see it."
    elif isinstance(task.exception(), JobLocked):
        said = "A recount is already running: the figures change when it finishes."
    elif (after := await pool.fetchval(SQL.report_refreshed_at)) != before:
        said = f"Recounted at {after:%Y-%m-%d %H:%M:%S} UTC."
    else:
        said = "The recount failed: the Jobs page says why."
    return await notices.see_other(request, "/admin/reports", said)


COURSE = "/admin/reports/courses/{course_id:[0-9a-fA-F-]{36}}"


async def _course(request: web.Request) -> Course:
    try:
        course_id = uuid.UUID(request.match_info["course_id"])
    except ValueError:
        raise web.HTTPNotFound from None
    async with request.app[READ_POOL].acquire() as conn:
        course = await read_course(conn, course_id)
    if course is None or not course.quiz:
        raise web.HTTPNotFound
    return course


@routes.get(COURSE)
@roles.needs("viewer")
async def course_report_page(request: web.Request) -> web.Response:
    course = await _course(request)
    values, context = await _page_context(request)
    context["course"] = course
    if context["errors"]:
        return render(request, "admin/report_course.html", context, status=400)
    report = await course_report(request.app[READ_POOL], course, values)
    context |= report | course_charts(report)
    return render(request, "admin/report_course.html", context)


# CSV: the report's rows with docs/reports.md's columns, free text through the formula guard.


async def _csv(request: web.Request, name: str, columns: Sequence[str], rows_of):
    """The report `name` as CSV: `rows_of(values)` gives its rows (cells in `columns` order)
    for the page's filters; bad filters answer a 400 page naming the first."""
    values, errors = _filters(request)
    if errors:
        field, message = next(iter(errors.items()))
        return html.page(400, "This report cannot be made", f"{field}: {message}")
    text = csv_rows(await rows_of(values))

    async def chunks() -> AsyncIterator[str]:
        yield text

    return await stream_csv(request, ",".join(columns) + "\r\n", chunks(), filename=f"{name}.csv")


PATHS_COLUMNS = ("pathId", "path", "assigned", "completed", "completionRate", "overdue")
PATHS_KEYS = ("path_id", "path", "assigned", "completed", "completion_rate", "overdue")


@routes.get("/admin/reports/paths.csv")
@roles.needs("viewer")
async def paths_csv(request: web.Request) -> web.StreamResponse:
    async def rows(values):
        found = await paths_report(request.app[READ_POOL], values)
        return [[row[key] for key in (*PATHS_KEYS, "median_days")] for row in found]

    return await _csv(request, "paths", (*PATHS_COLUMNS, "medianDaysToComplete"), rows)


@routes.get("/admin/reports/weeks.csv")
@roles.needs("viewer")
async def weeks_csv(request: web.Request) -> web.StreamResponse:
    async def rows(values):
        return [list(row) for row in await weeks_report(request.app[READ_POOL], values)]

    return await _csv(request, "weeks", ("week", "completions", "assignments"), rows)


@routes.get("/admin/reports/overdue.csv")
@roles.needs("viewer")
async def overdue_csv(request: web.Request) -> web.StreamResponse:
    async def rows(values):
        return [list(row) for row in await overdue_report(request.app[READ_POOL], values)]

    return await _csv(request, "overdue", ("market", "city", "overdue"), rows)


QUESTION_COLUMNS = ("question", "text", "answered", "firstAttemptCorrectRate", "correctRate")
QUESTION_KEYS = ("question", "text", "answered", "first_correct_rate", "correct_rate")


@routes.get(COURSE + ".csv")
@roles.needs("viewer")
async def course_csv(request: web.Request) -> web.StreamResponse:
    course = await _course(request)

    async def rows(values):
        report = await course_report(request.app[READ_POOL], course, values)
        keys = (*QUESTION_KEYS, "top_wrong_option")
        return [[row[key] for key in keys] for row in report["questions"]]

    columns = (*QUESTION_COLUMNS, "topWrongOption")
    return await _csv(request, f"course-{course.course_id}", columns, rows)
