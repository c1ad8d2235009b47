"""The user import's rules: field validation per record, then the database's verdicts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from marshmallow import ValidationError

from app.core.fields import integer_text
from app.core.http import Bulk, MiB
from app.shop import laravel as lv
from app.shop.schemas import MAX_IMPORT, ImportRecordSchema, email_key

# The body of 5,000 import records of up to six 255-character texts.
IMPORT_BODY = Bulk(limit=12 * MiB, containers=2 * MAX_IMPORT + 16)
RECORD = ImportRecordSchema()
FIELD_ORDER = list(RECORD.fields)
NOT_AN_OBJECT = "The record must be an object."


def batch_errors(body: Any) -> dict[str, list[str]]:
    """Laravel-style errors of the request as a whole; empty when it can be processed."""
    users = body.get("users") if isinstance(body, dict) else None
    if users is None:
        return {"users": ["The users field is required."]}
    if not isinstance(users, list):
        return {"users": ["The users field must be an array."]}
    if not 1 <= len(users) <= MAX_IMPORT:
        return {"users": [f"The users field must have between 1 and {MAX_IMPORT} items."]}
    return {}


@dataclass
class Checked:
    """A batch after field validation."""

    payloads: list[dict[str, Any]] = field(default_factory=list)  # for the database, with `index`
    invalid: dict[int, str] = field(default_factory=dict)  # index -> the record's first error


def check(records: list[Any]) -> Checked:
    checked = Checked()
    for index, record in enumerate(records):
        payload, error = first_field_error(record)
        if error is None:
            checked.payloads.append({"index": index, **payload})
        else:
            checked.invalid[index] = error
    return checked


def first_field_error(record: Any) -> tuple[dict[str, Any], None] | tuple[None, str]:
    """(payload for the database, None) for a valid record, else (None, its first error)."""
    if not isinstance(record, dict):
        return None, NOT_AN_OBJECT
    try:
        loaded = RECORD.load(lv.blanks_as_null(record))
    except ValidationError as exc:
        first = min(
            exc.messages, key=lambda name: FIELD_ORDER.index(name) if name in FIELD_ORDER else -1
        )
        texts = exc.messages[first]
        return None, texts[0] if isinstance(texts, list) else NOT_AN_OBJECT
    nul = next((name for name in FIELD_ORDER if "\x00" in str(loaded.get(name) or "")), None)
    if nul is not None:
        return None, f"The {lv.label(nul)} field must not contain the NUL character."
    loaded["email"] = email_key(loaded["email"])
    if loaded.get("id") is None:
        loaded.pop("id", None)
    return loaded, None


def _as_given(value: Any) -> Any:
    """A scalar as sent (bools and structures are no ids)."""
    return value if isinstance(value, (int, str)) and not isinstance(value, bool) else None


def echo(record: Any) -> dict[str, Any]:
    """What a failed entry repeats of its record: id, ridehail_id (as a string), email."""
    if not isinstance(record, dict):
        return {"id": None, "ridehail_id": None, "email": None}
    given_id, ridehail_id = _as_given(record.get("id")), _as_given(record.get("ridehail_id"))
    email = record.get("email")
    return {
        "id": given_id if isinstance(given_id, int) else integer_text(given_id or ""),
        "ridehail_id": None if ridehail_id is None else str(ridehail_id),
        "email": email if isinstance(email, str) else None,
    }


def results(records: list[Any], checked: Checked, saved: list[Any]) -> dict[str, Any]:
    """The import result, entries in request order.

    `saved` holds the database's rows (index, user_id, saved_ridehail_id, action, error) for
    the records that passed field validation.
    """
    emails = {payload["index"]: payload["email"] for payload in checked.payloads}
    failed = [
        {"index": index, **echo(records[index]), "error": error}
        for index, error in checked.invalid.items()
    ]
    users = []
    for row in saved:
        index = row["index"]
        if row["error"] is not None:
            failed.append({"index": index, **echo(records[index]), "error": row["error"]})
            continue
        users.append(
            {
                "index": index,
                "id": row["user_id"],
                "ridehail_id": row["saved_ridehail_id"],
                "email": emails[index],
                "action": row["action"],
            }
        )
    failed.sort(key=lambda entry: entry["index"])
    return {
        "created": sum(user["action"] == "created" for user in users),
        "updated": sum(user["action"] == "updated" for user in users),
        "failed": failed,
        "users": users,
    }
