"""`serve`: the supervising process, which keeps the web processes and serves nothing itself.

It stays small (bench/memory.py): it imports neither aiohttp nor asyncpg nor the app, nor
structlog (it logs with app.core.logs.Lines) nor multiprocessing. The steps before supervising
that need them (migrations, the warnings about secrets, the admin setup link) run in a
short-lived process of their own (app/serve_prepare.py), since memory taken by imports is never
given back; each web process (app/web_process.py) is a fresh interpreter that imports the app
itself. Both are started with `subprocess` and read their settings from the environment they
inherit, where serve leaves the database it resolved (the embedded server it started, which
it stops last, or DATABASE_URL).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys

from app.cli import CommandError, database_url
from app.core import logs, metric_files, supervisor
from app.core.config import Settings

URL_VARIABLE = "SERVE_DATABASE_URL"


def serve(settings: Settings, args) -> None:
    logs.setup_lines(settings.log_format)
    os.environ[URL_VARIABLE] = database_url(settings, logs.lines)
    _prepare()
    # This process serves nothing: it keeps WEB_CONCURRENCY web processes, each accepting from
    # a listening socket of its own (see app/core/supervisor.py), and the worker unless
    # --no-worker (app/worker_process.py), which runs the schedules (the job lock runs a slot
    # once, whatever the number of workers of all instances).
    worker = None if args.no_worker else [sys.executable, "-m", "app.worker_process"]
    try:
        sockets = supervisor.listen(settings.host, settings.port, settings.web_concurrency)
    except supervisor.ListenError as exc:
        raise CommandError(str(exc)) from None
    with contextlib.ExitStack() as held, metric_files.multiprocess_files():
        for sock in sockets:
            held.enter_context(sock)
        died = supervisor.Supervisor(
            [sys.executable, "-m", "app.web_process"],
            sockets,
            on_exit=metric_files.process_exited,
            worker=worker,
        ).run()
    if died:
        # Exit 1: the platform restarts the service whole instead of leaving it short.
        raise CommandError("a web process or the worker stopped on its own (see `worker stopped`)")


def inherited() -> tuple[Settings, str]:
    """In a process serve started: serve's settings and database."""
    return Settings.from_env(), os.environ[URL_VARIABLE]


def _prepare() -> None:
    """Runs app/serve_prepare.py and waits for it; the line it reports is this command's
    failure."""
    reader, writer = os.pipe()
    command = [sys.executable, "-m", "app.serve_prepare", str(writer)]
    with subprocess.Popen(command, pass_fds=(writer,)) as process:
        os.close(writer)  # the process holds its end: ours reads to its end of file
        with open(reader, encoding="utf-8") as report:
            failure = report.read()
    if failure:
        raise CommandError(failure)
    if process.returncode != 0:
        raise CommandError("serve could not start (see the traceback above)")


def worker(settings: Settings, _) -> None:
    """`python -m app worker`: the worker alone, in this process (the Procfile's worker)."""
    from app import worker_process

    logs.setup_lines(settings.log_format)
    worker_process.run(settings, database_url(settings, logs.lines))
