"""The riders list's `q` (README, riders list; the CSV export reads it the same way)."""

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
    """The riders list's `q` as the statement's parameters (README, riders list)."""

    rider_id: str | None
    name_pattern: str | None
    phone_pattern: str | None


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
