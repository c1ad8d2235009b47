"""The riders list's search text `q` and filters as the parameters of the one riders filter,
the SQL function admin_matching_riders (docs/admin-riders.md, "One riders filter"): the list,
its count and its exports read them alike, through `matching_riders_parameters`."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

# A phone search needs enough digits to be worth it; `+` is how phones are written.
PHONE_QUERY = re.compile(r"\+?([0-9]{4,})\Z")
MIN_NAME_QUERY = 3


def _like_escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


@dataclass(frozen=True)
class RiderSearch:
    """The riders list's `q` as the function's parameters (docs/admin-riders.md, riders list)."""

    rider_id: str | None
    name_pattern: str | None
    phone_pattern: str | None

    @property
    def too_short(self) -> bool:
        """`q` was given but is too short to search names or phones: only an ID equal to it
        can match."""
        return self.rider_id is not None and self.name_pattern is None and not self.phone_pattern


def rider_search(q: str | None) -> RiderSearch:
    """Without `q` every rider matches; else a rider matches when `q` is their ID, their name
    contains `q` (any case; `q` of at least 3 characters), or `q` is 4 or more ASCII digits (a
    leading `+` allowed) that their phone ends with."""
    if not q:
        return RiderSearch(rider_id=None, name_pattern=None, phone_pattern=None)
    name = f"%{_like_escaped(q)}%" if len(q) >= MIN_NAME_QUERY else None
    digits = PHONE_QUERY.match(q)
    # Phones are stored as + and digits: "ends with" is a prefix of the reversed phone.
    phone = f"{digits.group(1)[::-1]}%" if digits else None
    return RiderSearch(rider_id=q, name_pattern=name, phone_pattern=phone)


def folded(values: Iterable[str] | None) -> list[str] | None:
    """City and vehicle type filter values as training_rider_matches compares them: in lower
    case, so that "hawalli" finds the riders of "Hawalli" (None: not given)."""
    return None if values is None else [value.lower() for value in values]


def market_scope(chosen: str | None, limit: list[str]) -> list[str] | None:
    """The markets the filter keeps: the one `chosen` (if any) within the admin's `limit`
    (empty: every market); None: any. A market outside the limit keeps none."""
    if chosen:
        return [chosen] if not limit or chosen in limit else []
    return list(limit) or None


def _one(value: str | None) -> list[str] | None:
    return [value] if value else None


def matching_riders_parameters(filters: dict, markets: list[str]) -> list:
    """The parameters of admin_matching_riders (see its SQL) for the riders list's query
    `filters` and the admin's `markets` (empty: every market)."""
    search = rider_search(filters.get("q"))
    return [
        search.rider_id,
        search.name_pattern,
        search.phone_pattern,
        market_scope(filters.get("market"), markets),
        _one(filters.get("status")),
        folded(_one(filters.get("vehicle_type"))),
        folded(_one(filters.get("city"))),
        _one(filters.get("nationality")),
        filters.get("path"),
        filters.get("path_state"),
        filters.get("overdue") == "1",
    ]
