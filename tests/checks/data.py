"""Load-data records for the checks tests, loaded through the real sections."""

from __future__ import annotations

from typing import Any

from app.checks.loading import SECTIONS
from app.core.loader import load_document

AUTH = {"x-api-key": "test-checks-key"}


def question(question_id: int, country_id: int = 1, **fields: Any) -> dict[str, Any]:
    return {
        "question_id": question_id,
        "question": f"Question {question_id}?",
        "question_type": "MULTIPLE_CHOICE:SINGLE",
        "country_id": country_id,
        "category": "Safety",
        "image_url": f"https://cdn.example.com/q/{question_id}.png",
        "answers": [
            {"name": "Yes", "name_ar": "نعم", "score": "1", "jump": "", "skip": []},
            {"name": "No", "name_ar": "لا", "score": "0", "jump": "", "skip": []},
        ],
        **fields,
    }


def answer(question_id: int, **fields: Any) -> dict[str, Any]:
    return {
        "question_id": question_id,
        "answer": "Yes",
        "score": "1",
        "evidence_image_url": None,
        **fields,
    }


def check(check_id: int, **fields: Any) -> dict[str, Any]:
    return {
        "id": check_id,
        "rider_id": 500 + check_id,
        "rider_name": f"Rider {check_id}",
        "third_party_logistics": "Fleet Co",
        "recorder_id": 70,
        "check_date": "2026-03-14 09:30:00",
        "timezone": "UTC+04:00",
        "country_code": "AE",
        "id_validation": True,
        "license_plate": True,
        "reported_items": None,
        "answers": [answer(1)],
        **fields,
    }


async def load(db, **sections: list[dict[str, Any]]) -> dict[str, int]:
    return await load_document(db, sections, SECTIONS)
