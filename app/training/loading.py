"""load-data sections of the training family: riders, courses, paths, completions.

Riders get the same checks as `POST /api/v1/riders`, completions their record schema; both are
staged by COPY as they are read from the file and written set-based from the staging tables.
Paths are written by the domain's `paths.save_paths`, as the panel's path form writes them.
After the file's sections are written, `after_load` completes the assignments whose courses are
now all passed and runs the automatic rules for every rider.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import asyncpg

from app.core import sql
from app.core.config import Settings
from app.core.loader import (
    RecordError,
    Section,
    Staging,
    first_fault,
    plain_first_loader,
    record_rows,
    staged,
    unique,
    validated,
)
from app.training import paths, results, store
from app.training.course_records import validate_courses, write_courses
from app.training.pins import hash_pin, pepper_of
from app.training.records import CompletionRecordSchema, PathRecordSchema, plain_completion
from app.training.riders import RowError, parse_rider
from app.webhooks import events as webhooks

SQL = sql.load(
    "training",
    "complete_assignments",
    "stage_riders",
    "load_riders",
    "end_staged_riders_sessions",
    "stage_completions",
    "unknown_in_completions",
)
RIDER_COLUMNS = (
    "rider_id",
    "name",
    "market",
    "phone",
    "city",
    "vehicle_type",
    "nationality",
    "language",
    "status",
)
COMPLETION_COLUMNS = (
    "rider_id",
    "course_id",
    "language",
    "started_at",
    "completed_at",
    "score",
    "attempts",
    "time_spent_seconds",
)


def rider_rows(records: Iterable[Any], settings: Settings | None) -> Iterator[tuple]:
    """Each record checked as POST /api/v1/riders checks a row, its PIN hashed with the
    service's pepper."""
    pepper = pepper_of(settings)
    for index, record in enumerate(records):
        try:
            rider = parse_rider(record)
        except RowError as exc:
            raise RecordError(index, exc.field, exc.message) from None
        pin_hash = hash_pin(pepper, rider.pin) if rider.pin else None
        yield (index, *(getattr(rider, name) for name in RIDER_COLUMNS), pin_hash)


async def write_riders(conn: asyncpg.Connection, _count: int) -> None:
    """The riders, and the end of the sessions of those sent a PIN or made inactive."""
    await conn.execute(SQL.load_riders)
    await conn.execute(SQL.end_staged_riders_sessions)


async def write_paths(conn: asyncpg.Connection, records: list[dict]) -> None:
    try:
        await paths.save_paths(conn, records)
    except paths.UnknownCourse as exc:
        raise RecordError(exc.path_index, f"courses[{exc.position}]", str(exc)) from None


async def write_completions(conn: asyncpg.Connection, _count: int) -> None:
    await first_fault(conn, SQL.unknown_in_completions)
    await results.merge_results(conn)


async def after_load(conn: asyncpg.Connection) -> None:
    """Completes and assigns what the loaded records call for; load-data writes no webhook
    events (docs/webhooks.md#events): a load is the service's own data, not news for integrators."""
    await webhooks.without_assignment_events(conn)
    await conn.execute(SQL.complete_assignments)
    await store.run_rules(conn, None)


SECTIONS = [
    staged(
        "riders",
        Staging(SQL.stage_riders, "staged_riders", ("ord", *RIDER_COLUMNS, "pin_hash"), rider_rows),
        write_riders,
    ),
    Section("courses", validate_courses, write_courses),
    Section("paths", validated(PathRecordSchema, unique("id")), write_paths),
    staged(
        "completions",
        Staging(
            SQL.stage_completions,
            "staged_completions",
            ("ord", *COMPLETION_COLUMNS),
            record_rows(
                plain_first_loader(CompletionRecordSchema, plain_completion),
                lambda index, r: (index, *(r[name] for name in COMPLETION_COLUMNS)),
            ),
        ),
        write_completions,
    ),
]
