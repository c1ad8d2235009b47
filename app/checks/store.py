"""The SQL of Family A, run."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterable
from typing import Any

import asyncpg

from app.core import database, sql
from app.core.loader import columns, json_text

SQL = sql.load(
    "checks",
    "select_checks",
    "select_rider_checks",
    "select_questions",
    "select_question_snapshots",
    "stored_check_ids",
    "stored_snapshots",
    "upsert_questions",
    "lock_checks",
    "create_staged_checks",
    "update_staged_checks",
)

# The columns of checks, in the order of the rows write_checks hands over.
CHECK_COLUMNS = (
    "id",
    "rider_id",
    "rider_name",
    "third_party_logistics",
    "recorder_id",
    "check_date",
    "timezone",
    "country_code",
    "id_validation",
    "license_plate",
    "reported_items",
    "answers",
)

# One round trip to PostgreSQL per FETCH_ROWS checks (~2 kB each): ~0.5 MB held at a time.
FETCH_ROWS = 256

# In the order of select_checks.sql's parameters.
CHECK_FILTERS = (
    "recorder_id",
    "rider_id",
    "check_date_from",
    "check_date_to",
    "is_validation",
    "license_plate",
)


async def rider_checks(pool: asyncpg.Pool, filters: dict[str, Any]) -> list[Any] | None:
    """The rendered checks (1-column rows of JSON text) when `filters` is a lone rider_id and
    the rider has at most FETCH_ROWS of them, in one round trip to PostgreSQL; otherwise None,
    and check_batches streams the answer. On a busy machine each round trip waits for both
    processes to be scheduled: the stream's transaction and cursor cost three, where one
    rider's query runs in a fraction of a millisecond."""
    if filters.keys() != {"rider_id"}:
        return None
    async with pool.acquire() as conn:
        rows = await conn.fetch(SQL.select_rider_checks, filters["rider_id"], FETCH_ROWS + 1)
    return rows if len(rows) <= FETCH_ROWS else None


@contextlib.asynccontextmanager
async def check_batches(pool: asyncpg.Pool, filters: dict[str, Any]) -> AsyncIterator[Any]:
    """Batches of rendered checks (1-column rows of JSON text) in ID order, read through a
    server-side cursor. Leaving the context ends the transaction, which closes the cursor:
    the query stops even when the batches were not read to the end."""
    async with database.planned_per_call(pool, readonly=True) as conn:
        # Iterated, the cursor binds and fetches its first FETCH_ROWS rows in one round trip
        # and knows from a short fetch that it is exhausted: a short answer costs a single
        # round trip besides the transaction's.
        rows = conn.cursor(
            SQL.select_checks, *(filters.get(f) for f in CHECK_FILTERS), prefetch=FETCH_ROWS
        )

        async def batches():
            batch = []
            async for row in rows:
                batch.append(row)
                if len(batch) == FETCH_ROWS:
                    yield batch
                    batch = []
            if batch:
                yield batch

        async with contextlib.aclosing(batches()) as iterator:
            yield iterator


async def questions(pool: asyncpg.Pool, country_id: int | None) -> list[dict[str, Any]]:
    """The catalogue as GET /questioner serves it (QuestionSchema's fields, in its order).
    Stored options went through AnswerOptionSchema when loaded, so they are copied as they
    are: dumping them through the schema again cost half of the request's time."""
    return [
        {
            "question_id": row["question_id"],
            "question": row["question"],
            "question_type": row["question_type"],
            "answers": [
                {
                    "name": option["name"],
                    "name_ar": option["name_ar"],
                    "score": option["score"],
                    "jump": option["jump"],
                    "skip": option["skip"],
                }
                for option in row["answers"]
            ],
        }
        for row in await pool.fetch(SQL.select_questions, country_id)
    ]


async def catalogue_snapshots(
    conn: asyncpg.Connection, question_ids: Iterable[int]
) -> dict[int, dict]:
    """question_id -> {question, category, imageUrl} as the catalogue has it now."""
    rows = await conn.fetch(SQL.select_question_snapshots, list(question_ids))
    return {
        row["question_id"]: {
            "question": row["question"],
            "category": row["category"],
            "imageUrl": row["image_url"],
        }
        for row in rows
    }


async def stored_check_ids(conn: asyncpg.Connection, check_ids: Iterable[int]) -> set[int]:
    """Which of `check_ids` are stored; other writers of checks wait from now on until the
    transaction ends, so the answer stays true."""
    await conn.execute(SQL.lock_checks)
    return {row["id"] for row in await conn.fetch(SQL.stored_check_ids, list(check_ids))}


async def stored_snapshots(
    conn: asyncpg.Connection, check_ids: list[int], completed: list[bool]
) -> dict[int, list[dict] | None]:
    """Stored check id -> its stored Questioner array (None unless `completed`, parallel to
    `check_ids`)."""
    rows = await conn.fetch(SQL.stored_snapshots, check_ids, completed)
    return {row["id"]: row["answers"] for row in rows}


async def upsert_questions(conn: asyncpg.Connection, records: list[dict]) -> None:
    if not records:
        return
    await conn.execute(
        SQL.upsert_questions,
        *columns(
            records,
            "question_id",
            "question",
            "question_type",
            "country_id",
            "category",
            "image_url",
        ),
        [json_text(record["answers"]) for record in records],
    )


async def insert_checks(conn: asyncpg.Connection, rows: Iterable[tuple]) -> None:
    """COPY new checks into the table. `rows` (any iterable, consumed while COPY sends it, so
    that the database stores what Python is still producing): tuples in CHECK_COLUMNS order,
    check_date a naive local datetime, reported_items (or None) and answers (the Questioner)
    JSON text."""
    async with database.json_as_text(conn):
        await conn.copy_records_to_table("checks", records=rows, columns=CHECK_COLUMNS)


async def update_checks(conn: asyncpg.Connection, rows: Iterable[tuple]) -> None:
    """Stage rows of existing checks (as for insert_checks; consumed while COPY sends them) by
    COPY, then update them in one statement."""
    await conn.execute(SQL.create_staged_checks)
    async with database.json_as_text(conn):
        await conn.copy_records_to_table("staged_checks", records=rows, columns=CHECK_COLUMNS)
    await conn.execute(SQL.update_staged_checks)
