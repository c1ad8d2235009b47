"""A web process of `serve`: the app on its socket from the supervisor (app/core/supervisor.py).

`python -m app.web_process SOCKET_FD LINK_FD`, as the supervisor starts it: a fresh
interpreter, which imports this module and the app's, never imported in the supervising
process, whose memory stays small (app/serve.py).
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
from app.core import database, logs, memory, supervisor
from app.core.config import Settings

log = structlog.get_logger("app")


def main() -> None:
    sock, link = (socket.socket(fileno=int(fd)) for fd in sys.argv[1:3])
    run(*serve.inherited(), sock, link)


def run(settings: Settings, url: str, sock: socket.socket, link: socket.socket) -> None:
    # The supervisor alone stops a web process (SIGTERM): a Ctrl-C reaches the whole process
    # group, and a second signal would cut this process's graceful shutdown short.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    logs.setup(settings.log_format)
    try:
        _serve_here(settings, url, sock, Link(link))
    except database.DatabaseUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(1)


async def _stop_on_first_sigterm(_app: web.Application) -> None:
    """on_startup, replacing aiohttp's handlers: SIGINT is ignored, and only the first SIGTERM
    counts. A platform may signal every process (Heroku does), and the supervisor then signals
    it again: a second graceful exit would cut the first one's in-flight requests short."""
    loop = asyncio.get_running_loop()
    loop.remove_signal_handler(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    stopping = False

    def stop() -> None:
        # Later SIGTERMs still reach this handler and are dropped here. (Removing it would
        # restore the default action, which ends the process, for an instant before another
        # disposition could be set: the supervisor's SIGTERM could land in that instant.)
        # Two that arrive before the loop wakes each queue a call: the second must not raise
        # again into the first one's drain.
        nonlocal stopping
        if stopping:
            return
        stopping = True
        raise web.GracefulExit()

    loop.add_signal_handler(signal.SIGTERM, stop)


def _serve_here(settings: Settings, url: str, sock: socket.socket, link: Link) -> None:
    from app.core import html
    from app.web import create_app, freeze_startup_objects, plan_ahead

    app = create_app(settings, url)
    html.compile_templates()
    plan_ahead(app)
    freeze_startup_objects(app)
    app.on_startup.append(_stop_on_first_sigterm)
    app.cleanup_ctx.append(link.context)
    if settings.memory_limit_mb:
        app.cleanup_ctx.append(memory.watch(settings.memory_limit_mb, link.retire))

    def serving(*_) -> None:
        log.info("serving", host=settings.host, port=settings.port, pid=os.getpid())
        link.serving()

    # Fail fast, with one line, when the database is unreachable: the pool is opened at start.
    web.run_app(
        app,
        sock=sock,
        access_log=None,
        shutdown_timeout=supervisor.SHUTDOWN_TIMEOUT,
        loop=uvloop.new_event_loop(),
        print=serving,
    )


class Link:
    """This process's end of its link to the supervisor."""

    def __init__(self, sock: socket.socket):
        self.sock = sock

    def serving(self) -> None:
        self.sock.send(supervisor.SERVING)

    def retire(self) -> None:
        self.sock.send(supervisor.RETIRE)

    async def context(self, _app: web.Application):
        """cleanup_ctx: the supervisor never writes, so the link turns readable only when it
        is gone (killed): then this process stops too, instead of serving on unsupervised."""
        loop = asyncio.get_running_loop()
        link = self.sock.fileno()

        def supervisor_gone() -> None:
            loop.remove_reader(link)  # readable for good: once is enough
            os.kill(os.getpid(), signal.SIGTERM)

        loop.add_reader(link, supervisor_gone)
        yield
        loop.remove_reader(link)


if __name__ == "__main__":
    main()
