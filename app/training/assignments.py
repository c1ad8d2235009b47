"""The body of `POST /api/v1/assignments`, checked with plain loops (250,000 IDs a call)."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from typing import Any

from app.core.http import Bulk, MiB

MAX_RIDER_IDS = 250_000
# 250,000 rider IDs of up to 64 characters (67 bytes each with quotes and comma: 16.8 MB).
ASSIGNMENTS_BODY = Bulk(limit=20 * MiB, containers=16)
# A filter lists values to match; no market, vehicle type or status list is longer.
MAX_FILTER_VALUES = 100
MAX_VALUE_LENGTH = 64
SHAPE_MESSAGE = (
    "Send { pathId, riderIds?, markets?, vehicleTypes?, statuses? }: pathId a UUID, the others "
    f"arrays of strings of 1 to {MAX_VALUE_LENGTH} characters (riderIds at most "
    f"{MAX_RIDER_IDS}, each filter at most {MAX_FILTER_VALUES})."
)
NO_CRITERIA_MESSAGE = "Give riderIds or at least one filter."
FILTERS = ("markets", "vehicleTypes", "statuses")
# A UUID as JSON Schema's `uuid` format writes it (uuid.UUID() would also take braces, a
# `urn:uuid:` prefix or no hyphens, which the OpenAPI document does not allow).
UUID = re.compile(r"[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}")


class BadAssignment(Exception):
    pass


@dataclass(frozen=True)
class Assignment:
    """None means the criterion was not given. An empty filter array is the same, but an empty
    `rider_ids` is a list of no riders: it matches nobody, so a client whose ID list came out
    empty never assigns everyone who matches its filters."""

    path_id: uuid.UUID
    rider_ids: list[str] | None
    markets: list[str] | None
    vehicle_types: list[str] | None
    statuses: list[str] | None


def _strings(body: dict, field: str, most: int) -> list[str] | None:
    if field not in body:
        return None
    value = body[field]
    if (
        not isinstance(value, list)
        or len(value) > most
        or not all(type(item) is str and 0 < len(item) <= MAX_VALUE_LENGTH for item in value)
    ):
        raise BadAssignment(SHAPE_MESSAGE)
    return value


def parse_assignment(body: Any) -> Assignment:
    path_id = body.get("pathId") if isinstance(body, dict) else None
    if not isinstance(path_id, str) or not UUID.fullmatch(path_id):
        raise BadAssignment(SHAPE_MESSAGE)
    rider_ids = _strings(body, "riderIds", MAX_RIDER_IDS)
    markets, vehicle_types, statuses = (
        _strings(body, field, MAX_FILTER_VALUES) or None for field in FILTERS
    )
    if rider_ids is None and markets is None and vehicle_types is None and statuses is None:
        raise BadAssignment(NO_CRITERIA_MESSAGE)
    return Assignment(uuid.UUID(path_id), rider_ids, markets, vehicle_types, statuses)
