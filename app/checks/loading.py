"""load-data sections `questions` and `checks` (docs/data-load.md): upserts by question_id and by
id.

`questions` is written first, so a file's checks can take omitted answer fields from the
questions loaded with them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.checks import questioner, store
from app.checks.plain_records import plain_check
from app.checks.records import CheckRecordSchema, QuestionRecordSchema
from app.checks.schemas import BIGINT_MAX
from app.core import json_stream
from app.core.loader import Section, Unique, json_text, plain_first_loader, unique, validated

validate_questions = validated(QuestionRecordSchema, unique("question_id"))
_load_check = plain_first_loader(CheckRecordSchema, plain_check)


class StoredChecks:
    """The stored checks a file reloads, met in its first pass: their IDs and whether each
    leaves answer fields to be taken from its stored snapshot."""

    def __init__(self) -> None:
        self.ids: list[int] = []
        self.completed: list[bool] = []

    def add(self, check: dict) -> None:
        self.ids.append(check["id"])
        self.completed.append(bool(questioner.incomplete_questions(check["answers"])))


async def write_checks(conn, records: Iterable[Any]) -> None:
    """One pass reads and validates every check and COPYs the new ones into the table as it
    builds them (the database stores what Python is still producing); the first bad record
    ends the COPY, and the load's transaction writes nothing. The stored checks the file
    reloads are staged by COPY in a second pass, with their snapshots, and updated together."""
    stored_ids = await store.stored_check_ids(conn, _ids(records, "id"))
    catalogue = await store.catalogue_snapshots(conn, _ids(records, "question_id"))
    stored = StoredChecks()
    await store.insert_checks(conn, _new_rows(records, stored_ids, catalogue, stored))
    if stored.ids:
        snapshots = await store.stored_snapshots(conn, stored.ids, stored.completed)
        await store.update_checks(conn, _stored_rows(records, snapshots, catalogue))


def _ids(records: Iterable[Any], key: str) -> list[int]:
    """The values of `key` in the records that may be IDs: others belong to records the pass
    refuses (and would not fit the query's bigint)."""
    return [value for value in json_stream.integers(records, key) if 0 < value <= BIGINT_MAX]


def _new_rows(records: Iterable[Any], stored_ids: set[int], catalogue: dict, stored: StoredChecks):
    """Every record validated in order (the first bad one is the one named); the rows of the
    new checks, the stored ones noted in `stored`."""
    ids = Unique("id")
    for index, record in enumerate(records):
        check = _load_check(index, record)
        ids.check(index, check)
        questioner.check_duplicates(index, check["answers"])
        if check["id"] in stored_ids:
            stored.add(check)
        else:
            yield _row(index, check, {}, catalogue)


def _stored_rows(records: Iterable[Any], snapshots: dict, catalogue: dict):
    """The rows of the stored checks (the records, valid, are read again: a record's id is
    the stored check's)."""
    for index, record in enumerate(records):
        if record["id"] in snapshots:
            check = _load_check(index, record)
            stored = questioner.by_question(snapshots[check["id"]] or [])
            yield _row(index, check, stored, catalogue)


def _row(index: int, check: dict, stored: dict, catalogue: dict) -> tuple:
    answers = questioner.build(index, check["answers"], stored, catalogue)
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
    Section("checks", None, write_checks, streamed=True, looked_up=("id", "question_id")),
]
