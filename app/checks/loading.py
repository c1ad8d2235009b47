"""load-data sections `questions` and `checks` (DESIGN §6): upserts by question_id and by id.

`questions` is written first, so a file's checks can take omitted answer fields from the
questions loaded with them.
"""

from __future__ import annotations

from typing import Any

import orjson

from app.checks import questioner, store
from app.checks.schemas import CheckRecordSchema, QuestionRecordSchema
from app.core.loader import RecordError, Section, schema_validator

_validate_questions = schema_validator(QuestionRecordSchema)
_validate_checks = schema_validator(CheckRecordSchema)


def _unique(records: list[dict], key: str) -> None:
    first_at: dict[Any, int] = {}
    for index, record in enumerate(records):
        if record[key] in first_at:
            raise RecordError(
                index, key, f"{record[key]} is already used by record {first_at[record[key]]}"
            )
        first_at[record[key]] = index


def validate_questions(records: list[Any]) -> list[dict]:
    questions = _validate_questions(records)
    _unique(questions, "question_id")
    return questions


def validate_checks(records: list[Any]) -> list[dict]:
    checks = _validate_checks(records)
    _unique(checks, "id")
    for index, check in enumerate(checks):
        questioner.check_duplicates(index, check["answers"])
    return checks


def _json_text(value: Any) -> str:
    return orjson.dumps(value).decode()


async def write_checks(conn, checks: list[dict]) -> None:
    incomplete = [questioner.incomplete_questions(check["answers"]) for check in checks]
    stored = await store.stored_questioners(
        conn, [check["id"] for check, missing in zip(checks, incomplete) if missing]
    )
    catalogue = await store.catalogue_snapshots(conn, set().union(*incomplete))
    rows = []
    for index, check in enumerate(checks):
        answers = questioner.build(
            index,
            check["answers"],
            questioner.by_question(stored.get(check["id"], [])),
            catalogue,
        )
        reported = check["reported_items"]
        rows.append(
            (
                check["id"], check["rider_id"], check["rider_name"],
                check["third_party_logistics"], check["recorder_id"], check["check_date"],
                check["timezone"], check["country_code"], check["id_validation"],
                check["license_plate"], None if reported is None else _json_text(reported),
                _json_text(answers),
            )
        )
    await store.upsert_checks(conn, rows)


SECTIONS = [
    Section("questions", validate_questions, store.upsert_questions),
    Section("checks", validate_checks, write_checks),
]
