"""Rows the rider pages' tests share: riders, a path with a course, a pass, a flag, a message."""

PATH_ID = "00000000-0000-0000-0000-0000000000a1"
FLAG_PATH_ID = "00000000-0000-0000-0000-0000000000a2"
COURSE_ID = "00000000-0000-0000-0000-0000000000c1"


async def add_riders(db):
    await add_rider_rows(db)
    await db.execute(
        "INSERT INTO courses (course_id, title, has_quiz, pass_mark) VALUES ($1, 'Road safety',"
        " true, 80)",
        COURSE_ID,
    )
    await db.execute(
        "INSERT INTO paths (path_id, name, active, days_to_complete, rule, flag_types) VALUES"
        " ($1, 'Road basics', true, 7, 'manual', '{}'),"
        " ($2, 'Safe driving refresher', true, 14, 'flag', '{unsafe_driving}')",
        PATH_ID,
        FLAG_PATH_ID,
    )
    await db.execute(
        "INSERT INTO path_courses (path_id, course_id, position) VALUES ($1, $2, 1), ($3, $2, 1)",
        PATH_ID,
        COURSE_ID,
        FLAG_PATH_ID,
    )


async def add_rider_rows(db):
    """The riders alone, for a journey that makes its courses and paths in the panel."""
    await db.execute(
        "INSERT INTO riders (rider_id, name, market, phone, city, vehicle_type, nationality,"
        " status) VALUES"
        " ('R-1', 'Sam Rivers', 'AE', '+971501234567', 'Dubai', 'motorbike', 'IN', 'active'),"
        " ('R-2', 'Alia Stone', 'AE', '+971509990001', 'Abu Dhabi', 'car', 'PK', 'onboarding'),"
        " ('R-3', '<script>alert(1)</script>', 'KW', '+96550001111', 'Kuwait City', 'bicycle',"
        "  'EG', 'active'),"
        " ('R-4', 'Omar 100%_done', 'QA', NULL, 'Doha', 'car', 'IN', 'inactive')"
    )


async def add_history(db):
    """R-1 passed the course, had the path assigned by the API, got a flag and a message."""
    await db.execute(
        "INSERT INTO course_results (rider_id, course_id, language, started_at, completed_at,"
        " score, attempts, proof_code) VALUES ('R-1', $1, 'en', now(), now(), 90, 1, 'ABCD2345')",
        COURSE_ID,
    )
    await db.execute(
        "INSERT INTO assignments (rider_id, path_id, why, deadline, completed_at) VALUES"
        " ('R-2', $1, 'api', now() - interval '1 day', NULL)",
        PATH_ID,
    )
    await db.execute(
        "INSERT INTO flags (rider_id, type, note, source) VALUES ('R-1', 'late_delivery',"
        " 'Three late orders', 'api')"
    )
    await db.execute(
        "INSERT INTO messages (rider_id, kind, body, status, error) VALUES"
        " ('R-1', 'reminder', 'Hi Sam', 'failed', 'provider answered 400: bad number')"
    )
