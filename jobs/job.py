"""What a scheduled job is, what it runs with and how it fails."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import tzinfo

import asyncpg

from app.core.config import Settings

# How a run ends, as `job_runs_total` counts it: skipped when another process had the job or
# its slot.
OUTCOMES = ("succeeded", "failed", "skipped")


class JobFailed(Exception):
    """A run that did not do its work; the message is the one line the operator sees."""


@dataclass(frozen=True)
class JobContext:
    settings: Settings
    pool: asyncpg.Pool
    # The database the pool serves as PostgreSQL's client programs reach it (with a session
    # of their own: database.session_url).
    database_url: str


@dataclass(frozen=True)
class Job:
    name: str
    # Cron expression, in server time unless `tz` is given.
    schedule: str
    # Returns the run's result line (shown on the panel's jobs page); JobFailed when it failed.
    run: Callable[[JobContext], Awaitable[str | None]]
    tz: tzinfo | None = None
