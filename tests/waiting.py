"""Waiting for a state, not for a time: every wait has a deadline and fails with what it was
waiting for."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable


async def until(check: Callable[[], object], what: str, seconds: float = 30.0) -> None:
    """Wait until `check()` (a function or a coroutine function) is true; fail after `seconds`
    saying `what` never happened."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while True:
        result = check()
        if inspect.isawaitable(result):
            result = await result
        if result:
            return
        assert loop.time() < deadline, f"{what}: not within {seconds} s"
        await asyncio.sleep(0.02)


async def waits_for_a_lock(conn) -> bool:
    """Whether a session of `conn`'s database waits for a lock: the positive signal that a
    racing transaction got as far as the lock."""
    return await conn.fetchval(
        "SELECT count(*) > 0 FROM pg_stat_activity"
        " WHERE datname = current_database() AND wait_event_type = 'Lock'"
    )
