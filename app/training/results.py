"""Course results, written: the rider app's passes and load-data's completions."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

import asyncpg

from app.core import sql

SQL = sql.load("training", "upsert_results")
PROOF_CODE_CONSTRAINT = "course_results_proof_code_key"
PROOF_CODE_ATTEMPTS = 5
T = TypeVar("T")


async def retrying_proof_codes(transaction: Callable[[], Awaitable[T]]) -> T:
    """Run `transaction` (a transaction or a savepoint that draws proof codes) again when a
    code it drew repeats a stored one, up to PROOF_CODE_ATTEMPTS times in all."""
    for _ in range(PROOF_CODE_ATTEMPTS - 1):
        try:
            return await transaction()
        except asyncpg.UniqueViolationError as exc:
            if exc.constraint_name != PROOF_CODE_CONSTRAINT:
                raise
    return await transaction()


async def merge_results(conn: asyncpg.Connection) -> None:
    """Merge the staged passed-course records (load-data's staged_completions) into the
    stored ones (first completedAt, proof code and language kept, score never lowered)."""

    async def merge() -> None:
        async with conn.transaction():  # a savepoint in the load's transaction
            await conn.execute(SQL.upsert_results)

    await retrying_proof_codes(merge)
