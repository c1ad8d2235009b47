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
    """New checks go to the table by COPY as they are built; existing ones are collected on
    the way and updated together after it."""
    completed, asked = [], set()  # whether a check leaves answer fields out; their questions
    for check in checks:
        missing = questioner.incomplete_questions(check["answers"])
        completed.append(bool(missing))
        asked |= missing
    existing = await store.existing_checks(conn, [check["id"] for check in checks], completed)
    catalogue = await store.catalogue_snapshots(conn, asked)
    updates: list[tuple] = []
    await store.insert_checks(conn, _new_rows(checks, existing, catalogue, updates))
    await store.update_checks(conn, updates)


def _new_rows(checks: list[dict], existing: dict, catalogue: dict, updates: list[tuple]):
    """The rows of the checks missing from `existing`, built one at a time in record order
    (so the first bad record is the one reported); rows of existing checks go to `updates`."""
    for index, check in enumerate(checks):
        answers = questioner.build(
            index,
            check["answers"],
            questioner.by_question(existing.get(check["id"]) or []),
            catalogue,
        )
        reported = check["reported_items"]
        row = (
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
        if check["id"] in existing:
            updates.append(row)
        else:
            yield row


SECTIONS = [
    Section("questions", validate_questions, store.upsert_questions),
    Section("checks", validate_checks, write_checks),
]
