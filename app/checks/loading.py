"""load-data sections `questions` and `checks` (DESIGN §6): upserts by question_id and by id.

`questions` is written first, so a file's checks can take omitted answer fields from the
questions loaded with them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.checks import questioner, store
from app.checks.plain_records import plain_check
from app.checks.records import CheckRecordSchema, QuestionRecordSchema
from app.core.loader import Section, Unique, json_text, plain_first_loader, unique, validated

validate_questions = validated(QuestionRecordSchema, unique("question_id"))
_load_check = plain_first_loader(CheckRecordSchema, plain_check)

# Checks validated and held before their stored versions are looked up (one query a batch)
# and their rows sent: a few MB, whatever the file's size.
BATCH = 5_000


def checks_written_as_validated(records: Iterable[Any]) -> Iterable[Any]:
    """The checks are validated by write_checks, in the load's transaction, as they are
    written: one pass over a file's 100,000 checks instead of one to validate and another to
    validate again and write. A bad record raises before commit, so nothing of the file is
    kept, as when it is refused before the transaction."""
    return records


async def write_checks(conn, records: Iterable[Any]) -> None:
    """Each batch of checks, once valid, is looked up among the stored ones; new checks go to
    the table by COPY, stored ones are staged by COPY and updated together at the end."""
    await store.lock_checks(conn)
    staged = False
    ids = Unique("id")
    # (index, check, the questions whose text, category or image it leaves to the catalogue)
    batch: list[tuple[int, dict, set[int]]] = []
    for index, record in enumerate(records):
        check = _load_check(index, record)
        ids.check(index, check)
        questioner.check_duplicates(index, check["answers"])
        batch.append((index, check, questioner.incomplete_questions(check["answers"])))
        if len(batch) == BATCH:
            staged |= await _write_batch(conn, batch, staged)
            batch = []
    if batch:
        staged |= await _write_batch(conn, batch, staged)
    if staged:
        await store.update_staged_checks(conn)


async def _write_batch(conn, batch: list[tuple[int, dict, set[int]]], staged: bool) -> bool:
    """Writes a batch of valid checks; whether some were stored already (and are staged)."""
    existing = await store.existing_checks(
        conn, [check["id"] for _, check, _ in batch], [bool(missing) for *_, missing in batch]
    )
    catalogue = await store.catalogue_snapshots(conn, set().union(*(m for *_, m in batch)))
    # The rows are built while COPY sends them, so the database stores what Python is still
    # producing; a batch's new checks first, then its stored ones.
    stored = [(index, check) for index, check, _ in batch if check["id"] in existing]
    await store.insert_checks(
        conn,
        (
            _row(index, check, None, catalogue)
            for index, check, _ in batch
            if check["id"] not in existing
        ),
    )
    if stored:
        await store.stage_checks(
            conn,
            (_row(index, check, existing[check["id"]], catalogue) for index, check in stored),
            create=not staged,
        )
    return bool(stored)


def _row(index: int, check: dict, stored: list[dict] | None, catalogue: dict) -> tuple:
    answers = questioner.build(
        index, check["answers"], questioner.by_question(stored or []), catalogue
    )
    reported = check["reported_items"]
    return (
        check["id"],
        check["rider_id"],
        check["rider_name"],
        check["third_party_logistics"],
        check["recorder_id"],
        check["check_date"],
        check["timezone"],
        check["country_code"],
        check["id_validation"],
        check["license_plate"],
        None if reported is None else json_text(reported),
        json_text(answers),
    )


SECTIONS = [
    Section("questions", validate_questions, store.upsert_questions),
    Section("checks", checks_written_as_validated, write_checks, streamed=True),
]
