"""Rider rows of `POST /api/v1/riders` (and of the `riders` load-data section).

A row is checked field by field in the order of docs/api-training.md#riders; the first problem is
the row's error. The messages are docs/api-training.md's exact texts. Plain functions,
not a marshmallow schema per row: 5,000 rows must validate in a few milliseconds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from app.core.errors import NUL_MESSAGE
from app.core.http import Bulk, MiB
from app.training.languages import LANGUAGES

# The rider limits (docs/limits.md), enforced here and shown by the OpenAPI schemas (`schemas.py`)
# from these same constants: the longest value of each rider field, and riders in one call.
MAX_LENGTHS = {
    "riderId": 64,
    "name": 200,
    "phone": 32,
    "city": 100,
    "vehicleType": 40,
    "nationality": 60,
}
MAX_RIDERS = 5000
# The body of 5,000 riders of every field at its longest (~0.7 kB in ASCII, ~1.2 kB in Arabic
# script).
RIDERS_BODY = Bulk(limit=8 * MiB, containers=2 * MAX_RIDERS + 16)

MARKETS = ("AE", "KW", "QA", "BH", "OM", "JO", "EG", "IQ")
MARKET_NAMES = {
    "UAE": "AE",
    "KUWAIT": "KW",
    "QATAR": "QA",
    "BAHRAIN": "BH",
    "OMAN": "OM",
    "JORDAN": "JO",
    "EGYPT": "EG",
    "IRAQ": "IQ",
}
MARKET_BY_TEXT = {**{code: code for code in MARKETS}, **MARKET_NAMES}
STATUSES = ("onboarding", "active", "suspended", "inactive")
VEHICLE_TYPES = ("motorbike", "car", "bicycle", "scooter", "walker")

MARKET_MESSAGE = (
    "market must be one of AE, KW, QA, BH, OM, JO, EG, IQ (or the market name, e.g. Qatar)"
)
LANGUAGE_MESSAGE = "language must be en, ar, ur or ku"
STATUS_MESSAGE = 'Invalid option: expected one of "onboarding"|"active"|"suspended"|"inactive"'
PIN_MESSAGE = "pin must be 4 to 8 digits"
PHONE_MESSAGE = "phone must be in international format, e.g. +971501234567"
MISSING_MESSAGE = "Invalid input: expected string, received undefined"
BLANK_MESSAGE = "Too small: expected string to have >=1 characters"

_RIDER_ID, _NAME, _PHONE_LENGTH, _CITY, _VEHICLE_TYPE, _NATIONALITY = (
    MAX_LENGTHS[field]
    for field in ("riderId", "name", "phone", "city", "vehicleType", "nationality")
)
_PIN = re.compile(r"[0-9]{4,8}")
_PHONE_NOISE = re.compile(r"[\s\-()\[\]]")
_PHONE = re.compile(r"\+[0-9]{7,15}")


# Not frozen: a frozen dataclass sets each field through object.__setattr__, 1 µs a rider
# against 0.2 µs, a third of the checks of 5,000 rows. Nothing changes a Rider after it is
# made (`with_pin_hash` makes a new one).
@dataclass(slots=True)
class Rider:
    """A valid row. Optional fields are None when omitted or empty: the stored value is kept."""

    rider_id: str
    name: str
    market: str
    phone: str | None
    city: str | None
    vehicle_type: str | None
    nationality: str | None
    language: str | None
    status: str | None
    pin: str | None
    # Set by `pins.with_pin_hashes`, which every writer of riders calls first.
    pin_hash: str | None = None

    def with_pin_hash(self, pin_hash: str) -> Rider:
        """The rider as stored: the PIN's hash, and no PIN. Spelled out: dataclasses.replace
        costs more than the hash itself, 5,000 times a request."""
        return Rider(
            self.rider_id,
            self.name,
            self.market,
            self.phone,
            self.city,
            self.vehicle_type,
            self.nationality,
            self.language,
            self.status,
            None,
            pin_hash,
        )


class RowError(Exception):
    """The first problem of a row; `field` is the field it names (None: the row is no object),
    since the messages do not."""

    def __init__(self, field: str | None, message: str):
        super().__init__(message)
        self.field, self.message = field, message


def json_type(value: Any) -> str:
    """The JSON type name of a parsed value, as the messages print it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _string(row: dict, field: str) -> str | None:
    """The field's value if it is a string; None if omitted; a type error otherwise."""
    if field not in row:
        return None
    value = row[field]
    if not isinstance(value, str):
        raise RowError(field, f"Invalid input: expected string, received {json_type(value)}")
    if "\x00" in value:
        raise RowError(field, NUL_MESSAGE)
    return value


def _too_big(field: str, value: str, limit: int) -> None:
    if len(value) > limit:
        raise RowError(field, f"Too big: expected string to have <={limit} characters")


def _required(row: dict, field: str, limit: int) -> str:
    value = _string(row, field)
    if value is None:
        raise RowError(field, MISSING_MESSAGE)
    value = value.strip()
    if not value:
        raise RowError(field, BLANK_MESSAGE)
    _too_big(field, value, limit)
    return value


def _optional(row: dict, field: str, limit: int, normalise=str.strip) -> str | None:
    """Normalised (trimmed) text, or None when omitted, empty or blank (the stored value is
    kept). The limit applies to the value as stored."""
    value = _string(row, field)
    if value is None:
        return None
    value = normalise(value)
    _too_big(field, value, limit)
    return value or None


def _market(row: dict) -> str:
    value = _string(row, "market")
    if value is None:
        raise RowError("market", MISSING_MESSAGE)
    code = MARKET_BY_TEXT.get(value.strip().upper())
    if code is None:
        raise RowError("market", MARKET_MESSAGE)
    return code


def _phone(row: dict) -> str | None:
    value = _optional(row, "phone", MAX_LENGTHS["phone"])
    if value is None:
        return None
    digits = _PHONE_NOISE.sub("", value)
    if not _PHONE.fullmatch(digits):
        raise RowError("phone", PHONE_MESSAGE)
    return digits


def _accepted(row: dict, field: str, normalise, accept, message: str) -> str | None:
    """An optional string that must be accepted once normalised; omitted or empty: None."""
    value = _string(row, field)
    if not value:
        return None
    value = normalise(value)
    if not accept(value):
        raise RowError(field, message)
    return value


def _language(row: dict) -> str | None:
    return _accepted(
        row, "language", lambda text: text.strip().lower(), LANGUAGES.__contains__, LANGUAGE_MESSAGE
    )


def _status(row: dict) -> str | None:
    # Lower case only: "Active" is an invalid option, not a spelling of "active".
    return _accepted(row, "status", str, STATUSES.__contains__, STATUS_MESSAGE)


def _pin(row: dict) -> str | None:
    return _accepted(row, "pin", str, _PIN.fullmatch, PIN_MESSAGE)


def parse_rider(row: Any) -> Rider:
    """A valid rider from one element of `riders`, or RowError naming the first problem."""
    if not isinstance(row, dict):
        raise RowError(None, f"Invalid input: expected object, received {json_type(row)}")
    # One field after the other: the first problem in the field order is the error.
    rider_id = _required(row, "riderId", MAX_LENGTHS["riderId"])
    name = _required(row, "name", MAX_LENGTHS["name"])
    market = _market(row)
    phone = _phone(row)
    city = _optional(row, "city", MAX_LENGTHS["city"])
    vehicle_type = _optional(
        row, "vehicleType", MAX_LENGTHS["vehicleType"], lambda text: text.strip().lower()
    )
    nationality = _optional(row, "nationality", MAX_LENGTHS["nationality"])
    return Rider(
        rider_id=rider_id,
        name=name,
        market=market,
        phone=phone,
        city=city,
        vehicle_type=vehicle_type,
        nationality=nationality,
        language=_language(row),
        status=_status(row),
        pin=_pin(row),
    )


def _well_formed(row: Any) -> Rider | None:
    """The rider of a row with no problem at all, checked with as few calls as can be (the
    common case: 5,000 rows a request); None for any doubt, and `parse_rider` then finds the
    row's first problem, so the errors are its own. Each value is normalised and checked as
    `parse_rider` does it."""
    if type(row) is not dict:
        return None
    for value in row.values():
        if type(value) is not str or "\x00" in value:
            return None  # a value of another type, or a NUL, maybe in a field not read here
    get = row.get
    rider_id = get("riderId", "").strip()
    name = get("name", "").strip()
    market = MARKET_BY_TEXT.get(get("market", "").strip().upper())
    phone = get("phone", "").strip()
    city = get("city", "").strip()
    vehicle_type = get("vehicleType", "").strip().lower()
    nationality = get("nationality", "").strip()
    if (
        not rider_id
        or not name
        or market is None
        or len(rider_id) > _RIDER_ID
        or len(name) > _NAME
        or len(phone) > _PHONE_LENGTH
        or len(city) > _CITY
        or len(vehicle_type) > _VEHICLE_TYPE
        or len(nationality) > _NATIONALITY
    ):
        return None
    if phone:
        phone = _PHONE_NOISE.sub("", phone)
        if not _PHONE.fullmatch(phone):
            return None
    language = get("language")
    if language:
        language = language.strip().lower()
        if language not in LANGUAGES:
            return None
    status = get("status")
    if status and status not in STATUSES:
        return None
    pin = get("pin")
    if pin and not _PIN.fullmatch(pin):
        return None
    return Rider(
        rider_id,
        name,
        market,
        phone or None,
        city or None,
        vehicle_type or None,
        nationality or None,
        language or None,
        status or None,
        pin or None,
    )


def parse_riders(rows: list[Any]) -> tuple[list[Rider], list[tuple[int, RowError]]]:
    """The valid riders, one per riderId (the last valid row wins), and (index, error) of
    every rejected row."""
    riders: dict[str, Rider] = {}
    errors = []
    for index, row in enumerate(rows):
        rider = _well_formed(row)
        if rider is None:
            try:
                rider = parse_rider(row)
            except RowError as exc:
                errors.append((index, exc))
                continue
        riders.pop(rider.rider_id, None)  # the later row takes the earlier one's place
        riders[rider.rider_id] = rider
    return list(riders.values()), errors
