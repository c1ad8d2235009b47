"""load-data sections `questions` and `checks` (DESIGN §6): upserts by question_id and by id.

`questions` is written first, so a file's checks can take omitted answer fields from the
questions loaded with them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from app.checks import questioner, store
from app.checks.plain_records import plain_check
from app.checks.records import CheckRecordSchema, QuestionRecordSchema
from app.core.loader import Section, Unique, json_text, plain_first_loader, unique, validated

validate_questions = validated(QuestionRecordSchema, unique("question_id"))
_load_check = plain_first_loader(CheckRecordSchema, plain_check)


class ValidatedChecks:
    """A section's checks, valid; what writing them needs to know before the first row (their
    IDs, whether each leaves answer fields to the catalogue, and the questions those are). The
    checks themselves are loaded again from the records when iterated, so that a file's
    100,000 checks are never held (the records are a file's streamed section)."""

    def __init__(self, records: Iterable[Any]):
        self.records = records
        self.ids: list[int] = []
        self.completed: list[bool] = []
        self.asked: set[int] = set()

    def __len__(self) -> int:
        return len(self.ids)

    def __iter__(self) -> Iterator[dict]:
        for index, record in enumerate(self.records):
            yield _load_check(index, record)


def validate_checks(records: Iterable[Any]) -> ValidatedChecks:
    """Every check loaded and checked, one at a time: the first bad record is the one named."""
    checks = ValidatedChecks(records)
    ids = Unique("id")
    for index, check in enumerate(checks):
        ids.check(index, check)
        questioner.check_duplicates(index, check["answers"])
        missing = questioner.incomplete_questions(check["answers"])
        checks.ids.append(check["id"])
        checks.completed.append(bool(missing))
        checks.asked |= missing
    return checks


async def write_checks(conn, checks: ValidatedChecks) -> None:
    """New checks go to the table by COPY as they are built; existing ones are staged by COPY
    in a second pass over the checks and updated together."""
    existing = await store.existing_checks(conn, checks.ids, checks.completed)
    catalogue = await store.catalogue_snapshots(conn, checks.asked)
    await store.insert_checks(conn, _rows(checks, existing, catalogue, stored=False))
    if existing:
        await store.update_checks(conn, _rows(checks, existing, catalogue, stored=True))


def _rows(checks: ValidatedChecks, existing: dict, catalogue: dict, stored: bool):
    """The rows of the checks that are (`stored`) or are not in `existing`, built one at a time
    in record order (so the first bad record of the pass is the one reported)."""
    for index, check in enumerate(checks):
        if (check["id"] in existing) != stored:
            continue
        answers = questioner.build(
            index,
            check["answers"],
            questioner.by_question(existing.get(check["id"]) or []),
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
    Section("checks", validate_checks, write_checks, streamed=True),
]
