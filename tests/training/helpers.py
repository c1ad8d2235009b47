"""Arranging the training tables directly, and reading assignments back."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime


async def add_course(db, title: str = "Course", quiz: bool = True) -> uuid.UUID:
    course_id = uuid.uuid4()
    await db.execute(
        "INSERT INTO courses (course_id, title, has_quiz) VALUES ($1, $2, $3)",
        course_id,
        title,
        quiz,
    )
    return course_id


async def add_path(
    db,
    rule: str = "manual",
    courses: Sequence[uuid.UUID] = (),
    *,
    active: bool = True,
    days: int = 10,
    flag_types: Sequence[str] = (),
    markets: Sequence[str] = (),
    vehicle_types: Sequence[str] = (),
    nationalities: Sequence[str] = (),
) -> uuid.UUID:
    path_id = uuid.uuid4()
    await db.execute(
        "INSERT INTO paths (path_id, name, active, days_to_complete, rule, flag_types, markets,"
        " vehicle_types, nationalities) VALUES ($1, 'Path', $2, $3, $4, $5, $6, $7, $8)",
        path_id,
        active,
        days,
        rule,
        list(flag_types),
        list(markets),
        list(vehicle_types),
        list(nationalities),
    )
    await db.executemany(
        "INSERT INTO path_courses (path_id, course_id, position) VALUES ($1, $2, $3)",
        [(path_id, course, i) for i, course in enumerate(courses, start=1)],
    )
    return path_id


async def add_rider(db, rider_id: str, **fields) -> None:
    values = {"name": "Rider", "market": "AE", "status": "active", **fields}
    columns = ["rider_id", *values]
    await db.execute(
        f"INSERT INTO riders ({', '.join(columns)})"
        f" VALUES ({', '.join(f'${i}' for i in range(1, len(columns) + 1))})",
        rider_id,
        *values.values(),
    )


async def add_result(
    db,
    rider_id: str,
    course_id: uuid.UUID,
    completed_at: datetime,
    proof_code: str,
    score: float | None = 80,
) -> None:
    await db.execute(
        "INSERT INTO course_results (rider_id, course_id, language, started_at, completed_at,"
        " score, attempts, time_spent_seconds, proof_code) VALUES ($1, $2, 'en', $3, $3, $4,"
        " 1, 60, $5)",
        rider_id,
        course_id,
        completed_at,
        score,
        proof_code,
    )


async def assignments(db, rider_id: str | None = None) -> list[dict]:
    rows = await db.fetch(
        "SELECT rider_id, path_id, why, assigned_at, deadline, completed_at FROM assignments"
        " WHERE $1::text IS NULL OR rider_id = $1 ORDER BY assignment_id",
        rider_id,
    )
    return [dict(row) for row in rows]


def utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)
