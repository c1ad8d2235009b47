"""load-data sections of the training family (DESIGN §6): riders, courses, paths, completions.

Riders get the same validation as `POST /api/v1/riders`. After the file's sections are
written, `after_load` completes the assignments whose courses are now all passed and runs the
automatic rules for every rider: a load is the only way paths change, and that is what lets
`POST /api/v1/riders` run the rules for the riders it saved only.
"""

from __future__ import annotations

from typing import Any

import asyncpg

from app.core import sql
from app.core.loader import RecordError, Section, unique, validated
from app.training import store
from app.training.course_records import validate_courses, write_courses
from app.training.records import CompletionRecordSchema, PathRecordSchema
from app.training.riders import parse_riders

SQL = sql.load(
    "training",
    "upsert_paths",
    "delete_path_courses",
    "insert_path_courses",
    "missing_keys",
    "upsert_results",
    "complete_assignments",
)
PROOF_CODE_CONSTRAINT = "course_results_proof_code_key"
PROOF_CODE_ATTEMPTS = 5


def validate_riders(records: list[Any]) -> list[Any]:
    riders, errors = parse_riders(records)
    if errors:
        index, error = errors[0]
        raise RecordError(index, error.field, error.message)
    return riders


async def write_riders(conn: asyncpg.Connection, riders: list[Any]) -> None:
    await store.upsert_riders(conn, riders)


async def write_paths(conn: asyncpg.Connection, paths: list[dict]) -> None:
    referenced = list({course for path in paths for course in path["courses"]})
    missing = await _missing(conn, [], referenced)
    for index, path in enumerate(paths):
        for position, course in enumerate(path["courses"]):
            if ("course", str(course)) in missing:
                raise RecordError(index, f"courses[{position}]", f"unknown course {course}")
    await conn.execute(
        SQL.upsert_paths, [{k: v for k, v in p.items() if k != "courses"} for p in paths]
    )
    links = [
        (p["id"], course, position)
        for p in paths
        for position, course in enumerate(p["courses"], start=1)
    ]
    await conn.execute(SQL.delete_path_courses, [p["id"] for p in paths])
    await conn.execute(
        SQL.insert_path_courses,
        [link[0] for link in links],
        [link[1] for link in links],
        [link[2] for link in links],
    )


async def write_completions(conn: asyncpg.Connection, results: list[dict]) -> None:
    missing = await _missing(
        conn,
        list({r["rider_id"] for r in results}),
        list({r["course_id"] for r in results}),
    )
    for index, result in enumerate(results):
        if ("rider", result["rider_id"]) in missing:
            raise RecordError(index, "riderId", f"unknown rider {result['rider_id']!r}")
        if ("course", str(result["course_id"])) in missing:
            raise RecordError(index, "courseId", f"unknown course {result['course_id']}")
    await merge_results(conn, results)


async def merge_results(conn: asyncpg.Connection, results: list[dict]) -> None:
    """Merge passed-course records into the stored ones (first completedAt, proof code and
    language kept, score never lowered): load-data's completions and the rider app's passes.
    Keys: rider_id, course_id, language, started_at, completed_at, score, attempts,
    time_spent_seconds."""
    for attempt in range(1, PROOF_CODE_ATTEMPTS + 1):
        try:
            async with conn.transaction():  # a savepoint: a repeated proof code is retried
                await conn.execute(SQL.upsert_results, results)
            return
        except asyncpg.UniqueViolationError as exc:
            if exc.constraint_name != PROOF_CODE_CONSTRAINT or attempt == PROOF_CODE_ATTEMPTS:
                raise


async def _missing(conn: asyncpg.Connection, riders: list, courses: list) -> set[tuple]:
    rows = await conn.fetch(SQL.missing_keys, riders, courses)
    return {(row["kind"], row["key"]) for row in rows}


async def after_load(conn: asyncpg.Connection) -> None:
    """Completes and assigns what the loaded records call for; load-data writes no webhook
    events (DESIGN §12): a load is the service's own data, not news for integrators."""
    await conn.execute(SQL.complete_assignments)
    await store.run_rules(conn, None, events=False)


SECTIONS = [
    Section("riders", validate_riders, write_riders),
    Section("courses", validate_courses, write_courses),
    Section("paths", validated(PathRecordSchema, unique("id")), write_paths),
    Section("completions", validated(CompletionRecordSchema), write_completions),
]
