"""A check's `Questioner`: its answers with the question's text, category and image as they
were when the check was recorded (a snapshot, never a live join with the catalogue)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.core.loader import RecordError

# Load-record field -> Questioner field, for what a record may leave to the catalogue.
SNAPSHOT_FIELDS = {"question": "question", "category": "category", "image_url": "imageUrl"}
_SNAPSHOT_KEYS = frozenset(SNAPSHOT_FIELDS)


def check_duplicates(index: int, answers: list[dict]) -> None:
    seen: set[int] = set()
    for position, answer in enumerate(answers):
        if answer["question_id"] in seen:
            raise RecordError(
                index,
                f"answers[{position}].question_id",
                f"question {answer['question_id']} is answered twice in this check",
            )
        seen.add(answer["question_id"])


def incomplete_questions(answers: list[dict]) -> set[int]:
    """IDs of the questions whose text, category or image the record leaves out."""
    return {a["question_id"] for a in answers if not _SNAPSHOT_KEYS <= a.keys()}


def build(
    index: int,
    answers: list[dict],
    stored: Mapping[str, Mapping[str, Any]],
    catalogue: Mapping[int, Mapping[str, Any]],
) -> list[dict[str, Any]]:
    """The Questioner entries, ordered by question_id. A field the record leaves out comes
    from the check's stored snapshot when the check exists (reloading keeps what was
    recorded), else from the catalogue now; a question in neither is an error."""
    entries = []
    for position, answer in sorted(enumerate(answers), key=_question_id):
        question_id = answer["question_id"]
        if _SNAPSHOT_KEYS <= answer.keys():
            snapshot = answer
        else:
            snapshot = _snapshot(index, position, answer, stored, catalogue)
        entries.append(
            {
                "question": snapshot["question"],
                "question_id": str(question_id),
                "answer": answer["answer"],
                "imageUrl": snapshot["image_url"],
                "evidenceImageUrl": answer["evidence_image_url"],
                "score": answer["score"],
                "category": snapshot["category"],
            }
        )
    return entries


def _question_id(item: tuple[int, dict]) -> int:
    return item[1]["question_id"]


def _snapshot(
    index: int,
    position: int,
    answer: dict,
    stored: Mapping[str, Mapping[str, Any]],
    catalogue: Mapping[int, Mapping[str, Any]],
) -> dict[str, Any]:
    """The answer's question, category and image_url, each from the record when given."""
    question_id = answer["question_id"]
    known = stored.get(str(question_id)) or catalogue.get(question_id)
    snapshot = {}
    for field, name in SNAPSHOT_FIELDS.items():
        if field in answer:
            snapshot[field] = answer[field]
        elif known is not None:
            snapshot[field] = known[name]
        else:
            raise RecordError(
                index,
                f"answers[{position}].{field}",
                f"missing, and question {question_id} is not in the catalogue",
            )
    return snapshot


def by_question(entries: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """A stored Questioner array keyed by question_id (a string, as stored)."""
    return {entry["question_id"]: entry for entry in entries}
