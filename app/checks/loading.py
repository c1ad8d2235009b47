"""load-data sections `questions` and `checks` (DESIGN §6): upserts by question_id and by id.

`questions` is written first, so a file's checks can take omitted answer fields from the
questions loaded with them.
"""

from __future__ import annotations

from app.checks import questioner, store
from app.checks.plain_records import plain_check
from app.checks.records import CheckRecordSchema, QuestionRecordSchema
from app.core.loader import Section, json_text, unique, validated


def _answered_once(checks: list[dict]) -> list[dict]:
    for index, check in enumerate(checks):
        questioner.check_duplicates(index, check["answers"])
    return checks


validate_questions = validated(QuestionRecordSchema, unique("question_id"))
validate_checks = validated(CheckRecordSchema, unique("id"), _answered_once, plain=plain_check)


async def write_checks(conn, checks: list[dict]) -> None:
    completed, asked = [], set()  # checks that leave answer fields out, and their questions
    for check in checks:
        if missing := questioner.incomplete_questions(check["answers"]):
            completed.append(check["id"])
            asked |= missing
    stored = await store.stored_questioners(conn, completed)
    catalogue = await store.catalogue_snapshots(conn, asked)
    await store.upsert_checks(conn, _rows(checks, stored, catalogue))


def _rows(checks: list[dict], stored: dict, catalogue: dict):
    """The checks as staged rows, built one at a time while COPY sends them."""
    for index, check in enumerate(checks):
        answers = questioner.build(
            index,
            check["answers"],
            questioner.by_question(stored.get(check["id"], [])),
            catalogue,
        )
        reported = check["reported_items"]
        yield (
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
    Section("checks", validate_checks, write_checks),
]
