"""load-data sections of the training family (DESIGN §6): riders, courses, paths, completions.

Riders get the same validation as `POST /api/v1/riders`; paths and completions are written by
the domain's `paths.save_paths` and `results.merge_results`, as the panel's path form and the
rider app's quiz write them. After the file's sections are written, `after_load` completes the
assignments whose courses are now all passed and runs the automatic rules for every rider.
"""

from __future__ import annotations

from typing import Any

import asyncpg

from app.core import sql
from app.core.config import Settings
from app.core.loader import RecordError, Section, unique, validated
from app.training import paths, results, store
from app.training.course_records import validate_courses, write_courses
from app.training.pins import pepper_of, with_pin_hashes
from app.training.records import CompletionRecordSchema, PathRecordSchema
from app.training.riders import Rider, parse_riders

SQL = sql.load("training", "complete_assignments")


def validate_riders(records: list[Any]) -> list[Any]:
    riders, errors = parse_riders(records)
    if errors:
        index, error = errors[0]
        raise RecordError(index, error.field, error.message)
    return riders


def hash_pins(riders: list[Rider], settings: Settings) -> list[Rider]:
    return with_pin_hashes(riders, pepper_of(settings))


async def write_riders(conn: asyncpg.Connection, riders: list[Any]) -> None:
    await store.upsert_riders(conn, riders)


async def write_paths(conn: asyncpg.Connection, records: list[dict]) -> None:
    try:
        await paths.save_paths(conn, records)
    except paths.UnknownCourse as exc:
        raise RecordError(exc.path_index, f"courses[{exc.position}]", str(exc)) from None


async def write_completions(conn: asyncpg.Connection, records: list[dict]) -> None:
    missing = await store.missing_keys(
        conn,
        list({r["rider_id"] for r in records}),
        list({r["course_id"] for r in records}),
    )
    for index, result in enumerate(records):
        if ("rider", result["rider_id"]) in missing:
            raise RecordError(index, "riderId", f"unknown rider {result['rider_id']!r}")
        if ("course", str(result["course_id"])) in missing:
            raise RecordError(index, "courseId", f"unknown course {result['course_id']}")
    await results.merge_results(conn, records)


async def after_load(conn: asyncpg.Connection) -> None:
    """Completes and assigns what the loaded records call for; load-data writes no webhook
    events (DESIGN §12): a load is the service's own data, not news for integrators."""
    await conn.execute(SQL.complete_assignments)
    await store.run_rules(conn, None, events=False)


SECTIONS = [
    Section("riders", validate_riders, write_riders, prepare=hash_pins),
    Section("courses", validate_courses, write_courses),
    Section("paths", validated(PathRecordSchema, unique("id")), write_paths),
    Section("completions", validated(CompletionRecordSchema), write_completions),
]
