"""The riders list's `q` (docs/admin-panel.md: riders list; the CSV export reads it alike)."""

from __future__ import annotations

import re
from dataclasses import dataclass

# A phone search needs enough digits to be worth it; `+` is how phones are written.
PHONE_QUERY = re.compile(r"\+?([0-9]{4,})\Z")
MIN_NAME_QUERY = 3


def _like_escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


@dataclass(frozen=True)
class RiderSearch:
    """The riders list's `q` as the statement's parameters (docs/admin-panel.md, riders list)."""

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


def matching_riders_parameters(filters: dict, markets: list[str]) -> list:
    """The parameters of admin_matching_riders (see its SQL) for the riders list's filters and
    the admin's `markets` (empty: every market); `q` as rider_search reads it."""
    q = filters.get("q")
    phone_end = PHONE_QUERY.match(q) if q else None
    return [
        q,
        q if q and len(q) >= MIN_NAME_QUERY else None,
        phone_end.group(1) if phone_end else None,
        filters.get("market"),
        filters.get("status"),
        filters.get("vehicle_type"),
        filters.get("city"),
        filters.get("nationality"),
        True if filters.get("overdue") == "1" else None,
        markets,
    ]
