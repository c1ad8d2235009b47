"""What the streaming tests (checks list, CSV exports) share: has the app let go of the query?"""

import asyncio

from app.core.keys import POOL


async def _busy_backends(db) -> int:
    return await db.fetchval(
        "SELECT count(*) FROM pg_stat_activity"
        " WHERE application_name = 'rider-ops' AND state <> 'idle' AND pid <> pg_backend_pid()"
    )


async def settled(app, db) -> bool:
    """Wait until no pool connection is busy and no query of the app is running."""
    pool = app[POOL]
    for _ in range(100):
        if pool.get_idle_size() == pool.get_size() and await _busy_backends(db) == 0:
            return True
        await asyncio.sleep(0.05)
    return False
