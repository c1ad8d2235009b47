"""Health and readiness probes for a platform's router and orchestrator
(docs/operations.md#probes-and-metrics).

`/healthz` answers while the process serves and touches nothing else: a platform restarts the
process when it stops answering. `/readyz` also asks PostgreSQL (within 1 s) whether every
migration this code knows is applied: a platform routes traffic only to a ready process, so
an instance started before `migrate` ran, or cut off from its database, gets none.
"""

from __future__ import annotations

import asyncio
import time

import asyncpg
from aiohttp import web

from app.core import migrations, sql
from app.core.database import UNAVAILABLE
from app.core.http import json_response
from app.core.keys import POOL

SQL = sql.load("core", "applied_migrations")

HEALTH_PATH = "/healthz"
READY_PATH = "/readyz"
# Polled every few seconds by platforms: the access log would be mostly these lines.
QUIET_PATHS = frozenset((HEALTH_PATH, READY_PATH))

DATABASE_TIMEOUT = 1.0
# Migrations only move forward while a process runs (`migrate` in a release phase): once all
# are seen applied, the check is repeated this rarely; while some are pending, on every probe,
# so that readiness follows the moment `migrate` finishes.
APPLIED_RECHECK = 60.0

routes = web.RouteTableDef()


class MigrationCheck:
    """Which of this code's migrations the database lacks, remembered while none is missing."""

    def __init__(self, known: frozenset[str]):
        self.known = known
        self._all_applied_at: float | None = None

    async def pending(self, conn: asyncpg.Connection) -> int:
        now = time.monotonic()
        if self._all_applied_at is not None and now - self._all_applied_at < APPLIED_RECHECK:
            return 0
        try:
            applied = {row["migration_id"] for row in await conn.fetch(SQL.applied_migrations)}
        except asyncpg.UndefinedTableError:  # a database no migration ever ran on
            applied = set()
        missing = len(self.known - applied)
        self._all_applied_at = now if missing == 0 else None
        return missing


MIGRATIONS = web.AppKey("migration_check", MigrationCheck)


def _unavailable(reason: str) -> web.Response:
    return json_response({"status": "unavailable", "reason": reason}, status=503)


@routes.get(HEALTH_PATH)
async def healthz(_request: web.Request) -> web.Response:
    return json_response({"status": "ok"})


@routes.get(READY_PATH)
async def readyz(request: web.Request) -> web.Response:
    try:
        async with asyncio.timeout(DATABASE_TIMEOUT):
            async with request.app[POOL].acquire() as conn:
                pending = await request.app[MIGRATIONS].pending(conn)
    except TimeoutError:
        return _unavailable(f"the database did not answer within {DATABASE_TIMEOUT:g} s")
    except (*UNAVAILABLE, asyncpg.PostgresError) as exc:
        return _unavailable(f"the database is unavailable ({type(exc).__name__})")
    if pending:
        return _unavailable(f"{pending} migration(s) pending: run `python -m app migrate`")
    return json_response({"status": "ready"})


def setup(app: web.Application) -> None:
    app[MIGRATIONS] = MigrationCheck(migrations.known_ids())
    app.router.add_routes(routes)
