"""The quick reader of load-data checks decides speed only: whatever it takes, the schema
would load to the same value, and whatever it leaves, the schema still judges."""

import copy

import pytest
from marshmallow import ValidationError

from app.checks.plain_records import plain_check
from app.checks.records import CheckRecordSchema
from tests.checks.data import answer, check

SCHEMA = CheckRecordSchema()

PLAIN = [
    check(1),
    check(2, timezone=None, country_code=None, reported_items=["helmet", {"x": 1}]),
    {k: v for k, v in check(3).items() if k not in ("timezone", "country_code")},
    check(
        4,
        answers=[
            answer(
                1, answer=None, score=None, evidence_image_url="https://cdn.example.com/e/1.jpg"
            ),
            answer(2, question="Asked?", category="Old", image_url=None),
            answer(3, answer="", image_url="https://cdn.example.com/q/3.png"),
        ],
    ),
    check(5, answers=[]),
    check(6, rider_name="محمد", check_date="2024-02-29 23:59:59", timezone="UTC-14:00"),
]

# Each is valid or not for the schema; the quick reader must leave all of them to it or
# load them exactly as the schema does.
UNUSUAL = [
    check(10, id=True),
    check(11, id=0),
    check(12, id=2**63),
    check(13, rider_id=1.0),
    check(14, rider_id="12"),
    check(15, rider_name=""),
    check(16, rider_name="a\x00b"),
    check(17, check_date="2026-02-30 09:30:00"),
    check(18, check_date="2026-3-4 9:30:00"),
    check(19, check_date="2026-03-14T09:30:00"),
    check(20, timezone="UTC+15:00"),
    check(21, country_code="ae"),
    check(22, id_validation=1),
    check(23, license_plate="true"),
    check(24, reported_items="helmet"),
    check(25, answers=None),
    check(26, extra="field"),
    {k: v for k, v in check(27).items() if k != "rider_name"},
    check(28, answers=[answer(1, evidence_image_url="not a url")]),
    check(29, answers=[answer(1, evidence_image_url="ftp://files.example.com/e.jpg")]),
    check(30, answers=[answer(1, evidence_image_url="https://localhost/e.jpg")]),
    check(31, answers=[answer(1, evidence_image_url="https://cdn.example.com/a b.jpg")]),
    check(32, answers=[answer(1, evidence_image_url="https://cdn.example.com/")]),
    check(33, answers=[answer(1, score=1)]),
    check(34, answers=[answer(1, question="")]),
    check(35, answers=[answer(1, question=None)]),
    check(36, answers=[answer(1, image_url="https://cdn.example.com/q.png?size=2")]),
    check(37, answers=[{**answer(1), "extra": 1}]),
    check(38, answers=[{k: v for k, v in answer(1).items() if k != "score"}]),
    check(39, answers=[answer(True)]),
    check(40, answers=["not an answer"]),
    "not a check",
]


def schema_load(record):
    try:
        return SCHEMA.load(copy.deepcopy(record))
    except ValidationError:
        return None


@pytest.mark.parametrize("record", PLAIN)
def test_plain_records_are_read_as_the_schema_reads_them(record):
    assert plain_check(record) is not None
    assert plain_check(record) == SCHEMA.load(copy.deepcopy(record))


@pytest.mark.parametrize("record", UNUSUAL)
def test_unusual_records_are_left_to_the_schema_or_read_alike(record):
    read = plain_check(record)
    assert read is None or read == schema_load(record)
    # Anything the schema refuses is left to it, so the message is the schema's.
    if schema_load(record) is None:
        assert read is None
