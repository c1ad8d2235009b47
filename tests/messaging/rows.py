"""Training rows for the messaging tests, written straight into the test's database."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta


async def add_rider(db, rider_id, *, name="Sam Rider", phone="+971501234567", status="active"):
    await db.execute(
        "INSERT INTO riders (rider_id, name, market, phone, status) VALUES ($1, $2, 'AE', $3, $4)",
        rider_id,
        name,
        phone,
        status,
    )


async def add_path(db, name, *, rule="manual", flag_types=()) -> uuid.UUID:
    """A path of one course (a path without courses is completed as soon as it is assigned)."""
    path_id, course_id = uuid.uuid4(), uuid.uuid4()
    await db.execute(
        "INSERT INTO paths (path_id, name, days_to_complete, rule, flag_types)"
        " VALUES ($1, $2, 7, $3, $4)",
        path_id,
        name,
        rule,
        list(flag_types),
    )
    await db.execute(
        "INSERT INTO courses (course_id, title) VALUES ($1, $2)", course_id, f"{name} course"
    )
    await db.execute(
        "INSERT INTO path_courses (path_id, course_id, position) VALUES ($1, $2, 1)",
        path_id,
        course_id,
    )
    return path_id


async def assign(db, rider_id, path_id, *, due_in_days: float, completed=False) -> None:
    now = datetime.now(UTC)
    await db.execute(
        "INSERT INTO assignments (rider_id, path_id, why, deadline, completed_at)"
        " VALUES ($1, $2, 'api', $3, $4)",
        rider_id,
        path_id,
        now + timedelta(days=due_in_days),
        now if completed else None,
    )
