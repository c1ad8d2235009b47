"""The users list's page envelope (Laravel's LengthAwarePaginator shape)."""

from __future__ import annotations

import math
from typing import Any

from yarl import URL

# Any page number or offset past this is past every row; capping keeps both 64-bit integers
# (a bigint for PostgreSQL, an integer JSON can carry).
MAX_OFFSET = 2**62


def envelope(url: URL, page: int, limit: int, total: int, data: list[Any]) -> dict[str, Any]:
    """The page envelope; its URLs keep every query parameter of `url` but `page`."""
    kept = [(key, value) for key, value in url.query.items() if key != "page"]
    path = url.with_query(None)

    def page_url(number: int) -> str:
        return str(path.with_query([*kept, ("page", str(number))]))

    last_page = max(1, math.ceil(total / limit))
    first = (page - 1) * limit + 1
    return {
        "current_page": page,
        "data": data,
        "first_page_url": page_url(1),
        "from": first if data else None,
        "last_page": last_page,
        "last_page_url": page_url(last_page),
        "next_page_url": page_url(page + 1) if page < last_page else None,
        "path": str(path),
        "per_page": limit,
        "prev_page_url": page_url(page - 1) if page > 1 else None,
        "to": first + len(data) - 1 if data else None,
        "total": total,
    }
