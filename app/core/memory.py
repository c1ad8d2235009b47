"""The memory limit of a web process (docs/operations.md#memory-limit).

Each web process reads its resident memory every second; above MEMORY_LIMIT_MB it logs
`memory limit reached` once and asks its supervisor for a replacement, which takes over
before this process stops accepting (see app/core/supervisor.py).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable

import structlog
from aiohttp import web

from app.core.http import MiB

log = structlog.get_logger("app")

CHECK_INTERVAL = 1.0

_PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


def resident_bytes() -> int:
    """This process's resident memory (Linux: /proc/self/statm, in pages)."""
    with open("/proc/self/statm", "rb") as statm:
        return int(statm.read().split()[1]) * _PAGE_SIZE


def watch(limit_mb: int, reached: Callable[[], None]):
    """cleanup_ctx: calls `reached` once, the first time resident memory passes `limit_mb`."""

    async def check() -> None:
        while (rss := resident_bytes()) <= limit_mb * MiB:
            await asyncio.sleep(CHECK_INTERVAL)
        log.warning("memory limit reached", pid=os.getpid(), rss_mb=rss // MiB, limit_mb=limit_mb)
        reached()

    async def context(_app: web.Application):
        task = asyncio.create_task(check())
        yield
        task.cancel()

    return context
