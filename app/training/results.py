"""Course results, written: the rider app's passes and load-data's completions."""

from __future__ import annotations

import asyncpg

from app.core import sql

SQL = sql.load("training", "upsert_results")
PROOF_CODE_CONSTRAINT = "course_results_proof_code_key"
PROOF_CODE_ATTEMPTS = 5


async def merge_results(conn: asyncpg.Connection, results: list[dict]) -> None:
    """Merge passed-course records into the stored ones (first completedAt, proof code and
    language kept, score never lowered). Keys: rider_id, course_id, language, started_at,
    completed_at, score, attempts, time_spent_seconds."""
    for attempt in range(1, PROOF_CODE_ATTEMPTS + 1):
        try:
            async with conn.transaction():  # a savepoint: a repeated proof code is retried
                await conn.execute(SQL.upsert_results, results)
            return
        except asyncpg.UniqueViolationError as exc:
            if exc.constraint_name != PROOF_CODE_CONSTRAINT or attempt == PROOF_CODE_ATTEMPTS:
                raise
