"""The completions feed's paging rules: `limit`, `since` and the opaque `cursor`.

A cursor is the key of the last record of a page, (completedAt, riderId, courseId) as the
page printed them, as base64url JSON followed by `.` and its full HMAC-SHA256, sealed by
`app.core.tokens`. The HMAC key is derived (an HMAC of a label, never the secret itself) from
`secret`: INTEGRATION_API_KEY when it is set, as it was before integrators had keys of their
own, else SESSION_SECRET. Changing that secret therefore invalidates outstanding cursors (a
client starts again with `since`); creating or revoking an API key does not.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Any

import orjson

from app.core import tokens
from app.core.config import Settings

DEFAULT_LIMIT = 1000
MAX_LIMIT = 5000
# The feed's texts (the OpenAPI document); the parameter's name comes first
# (`app.core.query.parse_query`).
CURSOR_TEXT = "must be the nextCursor value from a previous page"
SINCE_TEXT = "must be an ISO date"
CURSOR_MESSAGE = f"cursor {CURSOR_TEXT}"
NO_SECRET = "The feed is disabled on this server: set SESSION_SECRET and restart."
SINCE_MESSAGE = f"since {SINCE_TEXT}"
# What `tokens.seal` prints: base64url of the payload, `.`, base64url of the 32-byte HMAC
# (`(?![\s\S])` ends the text: `$` would also allow a final newline).
CURSOR_PATTERN = r"^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}(?![\s\S])"

NIL_COURSE = uuid.UUID(int=0)
BEGINNING = datetime.min.replace(tzinfo=UTC)
_DIGITS = re.compile(r"[0-9]+")
CURSOR_PURPOSE = b"completions-cursor"

Key = tuple[datetime, str, uuid.UUID]


class BadCursor(Exception):
    pass


class BadSince(Exception):
    pass


def parse_limit(raw: str | None) -> int:
    """1 to 5,000; anything that is not a positive integer means 1,000; more is capped."""
    digits = raw.lstrip("0") if raw is not None and _DIGITS.fullmatch(raw) else ""
    if not digits:
        return DEFAULT_LIMIT
    # Python refuses to convert thousands of digits; five or more are over the cap anyway.
    return MAX_LIMIT if len(digits) > 4 else min(int(digits), MAX_LIMIT)


def parse_since(raw: str) -> datetime:
    """An ISO 8601 date or date-time; without an offset it is UTC."""
    value = raw.strip()
    try:
        moment = _fromisoformat(value)
    except ValueError:
        # An unencoded '+' of an offset arrives as a space.
        head, _, tail = value.rpartition(" ")
        if not head:
            raise BadSince from None
        try:
            moment = _fromisoformat(f"{head}+{tail}")
        except ValueError:
            raise BadSince from None
    moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        # The offset moved it before year 1 or past 9999: before or after every record.
        return (datetime.min if moment.year == 1 else datetime.max).replace(tzinfo=UTC)


def _fromisoformat(value: str) -> datetime:
    if len(value) <= 10:
        # A date alone: its midnight (datetime.fromisoformat would also take a date, but
        # date.fromisoformat also rejects what is not a date at all).
        day = date.fromisoformat(value)
        return datetime(day.year, day.month, day.day)
    return datetime.fromisoformat(value)


def key_after(since: datetime | None) -> Key:
    """The page key that selects records completed strictly after `since`.

    Stored times are whole milliseconds, so "after `since`" is "at or after the next whole
    millisecond", and (that millisecond, '', nil UUID) sorts before every record at it.
    """
    if since is None:
        return BEGINNING, "", NIL_COURSE
    try:
        start = since + timedelta(microseconds=1000 - since.microsecond % 1000)
    except OverflowError:
        start = datetime.max.replace(tzinfo=UTC)
    return start, "", NIL_COURSE


def secret(settings: Settings) -> str | None:
    """What the cursors are sealed with; None only on a server with neither setting."""
    return settings.integration_api_key or settings.session_secret


def _key(api_key: str) -> str:
    return tokens.derive(api_key, CURSOR_PURPOSE)


def encode(completed_at: str, rider_id: str, course_id: str, api_key: str) -> str:
    """The cursor after a record; `completed_at` as printed (milliseconds, so exact)."""
    payload = orjson.dumps([completed_at, rider_id, course_id])
    return tokens.seal(_key(api_key), CURSOR_PURPOSE, payload)


def decode(cursor: str, api_key: str) -> Key:
    """The key a cursor encodes; BadCursor for anything this server did not issue."""
    try:
        completed_at, rider_id, course_id = orjson.loads(
            tokens.unseal(_key(api_key), CURSOR_PURPOSE, cursor)
        )
        return datetime.fromisoformat(completed_at), rider_id, uuid.UUID(course_id)
    except (tokens.ForgedToken, ValueError, TypeError, OverflowError):
        raise BadCursor from None


def start_key(given_cursor: str | None, since: datetime | None, api_key: str) -> Key:
    """The key a page starts after: the cursor's when one is given (`since` is then
    ignored), else `since`'s, else the beginning."""
    if given_cursor:
        return decode(given_cursor, api_key)
    return key_after(since)


def record(row: Mapping[str, Any]) -> dict[str, Any]:
    """One record of the feed, from a row of completions_page.sql."""
    return {
        "riderId": row["rider_id"],
        "market": row["market"],
        "courseId": str(row["course_id"]),
        "course": row["title"],
        "language": row["language"],
        "startedAt": row["started_at"],
        "completedAt": row["completed_at"],
        "score": row["score"],
        "attempts": row["attempts"],
        "timeSpentSeconds": row["time_spent_seconds"],
        "proofCode": row["proof_code"],
    }


def cursor_after(item: Mapping[str, Any], api_key: str) -> str:
    """The cursor of the page that starts after this record."""
    return encode(item["completedAt"], item["riderId"], item["courseId"], api_key)


def page(rows: Sequence[Mapping[str, Any]], limit: int, api_key: str) -> dict[str, Any]:
    """The response body: the records, and `next`/`nextCursor` only when the page is full."""
    data = [record(row) for row in rows]
    last = data[-1] if data and len(data) == limit else None
    return {
        "data": data,
        "next": last["completedAt"] if last else None,
        "nextCursor": cursor_after(last, api_key) if last else None,
    }


def completion_event(row: Mapping[str, Any], api_key: str | None) -> dict[str, Any]:
    """The data of a `completion.created` webhook event (docs/webhooks.md#events): the record as the
    feed prints it, and `cursor`, the feed's cursor after it (null while INTEGRATION_API_KEY is
    unset: the feed answers nothing then)."""
    item = record(row)
    return {**item, "cursor": cursor_after(item, api_key) if api_key else None}
