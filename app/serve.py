"""`serve`: the supervising process, which keeps the web processes and serves nothing itself.

It stays small (bench/memory.py): it imports neither aiohttp nor asyncpg nor the app. The
steps before supervising that need them (migrations, the warnings about secrets, the admin
setup link) run in a short-lived process of their own, since memory taken by imports is never
given back; each web process is spawned as a fresh interpreter that imports the app itself.
"""

from __future__ import annotations

import argparse
import multiprocessing
import socket

from app.cli import CommandError, database_url
from app.core import metric_files, supervisor
from app.core.config import Settings


def serve(settings: Settings, _: argparse.Namespace) -> None:
    url = database_url(settings)
    _prepare(settings, url)
    # This process (which started the embedded database, if any, and stops it last) serves
    # nothing: it keeps WEB_CONCURRENCY web processes that accept from its socket (see
    # app/core/supervisor.py). Each runs the schedules; the job lock runs a slot once.
    try:
        sock = supervisor.listen(settings.host, settings.port)
    except supervisor.ListenError as exc:
        raise CommandError(str(exc)) from None
    with sock, metric_files.multiprocess_files():
        died = supervisor.Supervisor(
            settings.web_concurrency,
            _web_process,
            (settings, url),
            sock,
            on_exit=metric_files.process_exited,
        ).run()
    if died:
        # Exit 1: the platform restarts the service whole instead of leaving it short.
        raise CommandError("a web process stopped on its own (see `worker stopped`)")


def _prepare(settings: Settings, url: str) -> None:
    """Runs app.commands.prepare_serve in a process of its own and waits for it; its failure
    (one line) is this command's."""
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe(duplex=False)
    process = context.Process(target=_prepare_here, args=(settings, url, theirs), name="prepare")
    process.start()
    theirs.close()  # ours alone reads: its end of file says the process is gone
    try:
        failure = ours.recv()
    except EOFError:
        failure = "serve could not start (see the traceback above)"
    finally:
        ours.close()
        process.join()
    if failure is not None:
        raise CommandError(failure)


# The targets of spawned processes: a module-level function of this module, so that pickling
# it imports nothing here; each imports its heavy module in the new process.


def _prepare_here(settings: Settings, url: str, pipe) -> None:
    from app.commands import prepare_serve

    pipe.send(prepare_serve(settings, url))


def _web_process(settings: Settings, url: str, sock: socket.socket, pipe) -> None:
    from app import web_process

    web_process.run(settings, url, sock, pipe)
