"""Reads load-data checks of the usual shape without marshmallow.

Loading a check with the schema costs ~0.8 ms (eleven nested answers), 400 s of a 500,000-check
load. These readers take a record only when every value has the plain form the schema would
accept unchanged (and return what the schema would return); for anything else they return None
and the record goes through CheckRecordSchema, which accepts it or names the field and says
what is wrong. So they decide speed only, never what is valid nor what a message says.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from marshmallow import ValidationError, validate

from app.checks.records import CheckAnswerRecordSchema, CheckRecordSchema
from app.checks.schemas import BIGINT_MAX

_CHECK_FIELDS = frozenset(CheckRecordSchema().fields)
_CHECK_REQUIRED = _CHECK_FIELDS - {"timezone", "country_code"}
_ANSWER_FIELDS = frozenset(CheckAnswerRecordSchema().fields)
_ANSWER_REQUIRED = frozenset({"question_id", "answer", "score", "evidence_image_url"})
# The strict spelling of "%Y-%m-%d %H:%M:%S" (strptime also takes unpadded numbers).
_CHECK_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\Z")
_TIMEZONE = re.compile(r"UTC[+-](0[0-9]|1[0-4]):[0-5][0-9]\Z")
_COUNTRY_CODE = re.compile(r"[A-Z]{2}\Z")
_URL = validate.URL()  # what fields.Url checks, with its defaults
# A narrower form of what _URL accepts (http(s), a plain host name, a path of printable ASCII),
# matched ~5x faster; other URLs are checked by _URL itself.
_COMMON_URL = re.compile(
    r"https?://(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,6}(?:/[!-~]+)?\Z"
)


def _id(value: Any) -> bool:
    return type(value) is int and 0 < value <= BIGINT_MAX


def _text(value: Any) -> bool:
    """A non-empty string PostgreSQL can store."""
    return type(value) is str and value != "" and "\x00" not in value


def _optional_text(value: Any) -> bool:
    return value is None or (type(value) is str and "\x00" not in value)


def _optional_url(value: Any) -> bool:
    if value is None or (type(value) is str and _COMMON_URL.match(value)):
        return True
    if type(value) is not str:
        return False
    try:
        _URL(value)
    except ValidationError:
        return False
    return True


def _matches(pattern: re.Pattern, value: Any) -> bool:
    return value is None or (type(value) is str and pattern.match(value) is not None)


def plain_answer(answer: Any) -> bool:
    """Whether the schema would load this answer as it is (the tests are inlined: this runs
    for every answer of every check)."""
    if type(answer) is not dict or not _ANSWER_REQUIRED <= answer.keys():
        return False
    question_id, text, score = answer["question_id"], answer["answer"], answer["score"]
    if not (
        type(question_id) is int
        and 0 < question_id <= BIGINT_MAX
        and (text is None or (type(text) is str and "\x00" not in text))
        and (score is None or (type(score) is str and "\x00" not in score))
        and _optional_url(answer["evidence_image_url"])
    ):
        return False
    return len(answer) == len(_ANSWER_REQUIRED) or (
        answer.keys() <= _ANSWER_FIELDS
        and ("question" not in answer or _text(answer["question"]))
        and ("category" not in answer or _text(answer["category"]))
        and ("image_url" not in answer or _optional_url(answer["image_url"]))
    )


def plain_check(record: Any) -> dict | None:
    """The loaded check, or None when the record needs the schema."""
    if type(record) is not dict:
        return None
    keys = record.keys()
    if not (_CHECK_REQUIRED <= keys <= _CHECK_FIELDS):
        return None
    timezone, country_code = record.get("timezone"), record.get("country_code")
    check_date, reported = record["check_date"], record["reported_items"]
    if not (
        _id(record["id"])
        and _id(record["rider_id"])
        and _id(record["recorder_id"])
        and _text(record["rider_name"])
        and _text(record["third_party_logistics"])
        and type(check_date) is str
        and _CHECK_DATE.match(check_date)
        and _matches(_TIMEZONE, timezone)
        and _matches(_COUNTRY_CODE, country_code)
        and type(record["id_validation"]) is bool
        and type(record["license_plate"]) is bool
        and (reported is None or type(reported) is list)
        and type(record["answers"]) is list
    ):
        return None
    if not all(map(plain_answer, record["answers"])):
        return None
    try:
        when = datetime.fromisoformat(check_date)
    except ValueError:  # e.g. 2026-02-30: the schema says so
        return None
    return {
        **record,
        "check_date": when,
        "timezone": timezone,
        "country_code": country_code,
    }
