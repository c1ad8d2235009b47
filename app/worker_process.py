"""The worker (docs/operations.md, "The worker"): the scheduled jobs, the AI job runner and
webhook delivery, in a process of their own, apart from the web processes that serve requests.

Two ways in:
- `python -m app worker` (the Procfile's `worker:`): this process is the worker, until SIGTERM
  or SIGINT.
- `python -m app.worker_process LINK_FD`, as `serve`'s supervisor starts it beside its web
  processes unless `--no-worker` (app/core/supervisor.py): it tells the supervisor it works and
  when its memory passes the limit, and stops when the supervisor is gone, as a web process.

Several workers may run at once (several instances, or a replacement starting before the one it
replaces stops): a scheduled run, an AI job and a webhook delivery are each claimed in the
database by one of them.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys

import structlog
import uvloop
from aiohttp import web

from app import serve
from app.core import database, logs, memory
from app.core.config import Settings
from app.web_process import Link

log = structlog.get_logger("app")


def main() -> None:
    run(*serve.inherited(), Link(socket.socket(fileno=int(sys.argv[1]))))


def run(settings: Settings, url: str, link: Link | None = None) -> None:
    """Works until told to stop; under a supervisor (`link`), only its SIGTERM stops it: a
    Ctrl-C reaches the whole process group, and the supervisor passes it on."""
    if link is not None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    logs.setup(settings.log_format)
    try:
        uvloop.run(_work(settings, url, link))
    except database.DatabaseUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(1)


async def _work(settings: Settings, url: str, link: Link | None) -> None:
    from app.web import create_worker_app

    app = create_worker_app(settings, url)
    if link is not None:
        app.cleanup_ctx.append(link.context)
        if settings.memory_limit_mb:
            app.cleanup_ctx.append(memory.watch(settings.memory_limit_mb, link.retire))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM,) if link is not None else (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    # An application with no site: its start runs the hooks that hold the loops, its cleanup
    # ends them (a job or delivery under way is cancelled and claimed again later).
    runner = web.AppRunner(app, handle_signals=False)
    await runner.setup()
    try:
        log.info("working", pid=os.getpid())
        if link is not None:
            link.serving()
        await stop.wait()
    finally:
        await runner.cleanup()
    log.info("worker stopped by signal", pid=os.getpid())


if __name__ == "__main__":
    main()
