"""The web processes of `serve`, and the process that keeps them: it serves nothing itself.

The supervisor opens the listening socket and hands it to every web process, which accept
from it; it holds the socket for as long as it runs, so the port stays open while any web
process comes or goes. (With a socket of each process's own in an SO_REUSEPORT group, closing
one would reset the connections the kernel had already queued on it.)

A web process tells the supervisor two things over its pipe: it `serves` (listening, after
its start-up), and it should `retire` (its memory passed the limit). For a retiring process
the supervisor starts a replacement and, once that one serves, sends the old one SIGTERM: it
stops accepting, finishes its in-flight requests and exits. A web process that exits without
having been told to means something is wrong that a restart of the service may cure: the
supervisor logs `worker stopped`, stops the others and `serve` exits 1, so the platform
restarts the service whole. SIGTERM or SIGINT to the supervisor stops every web process the
same way (each finishing its in-flight requests) and `serve` exits 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import socket
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import TYPE_CHECKING

import structlog

if TYPE_CHECKING:  # the supervisor itself runs without aiohttp (app/serve.py)
    from aiohttp import web

log = structlog.get_logger("app")

# What a web process sends its supervisor.
SERVING = "serving"
RETIRE = "retire"

SHUTDOWN_TIMEOUT = 30
# Beyond a web process's own shutdown timeout, before it is killed.
KILL_GRACE = 5
# How often the supervisor looks at its web processes when nothing happens.
WATCH_INTERVAL = 1.0
LISTEN_BACKLOG = 1024


class ListenError(Exception):
    """The address cannot be listened on (in use, not this machine's)."""


def listen(host: str, port: int) -> socket.socket:
    """The listening socket every web process accepts from."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(LISTEN_BACKLOG)
    except OSError as exc:
        raise ListenError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc
    sock.set_inheritable(False)
    return sock


@dataclass
class WebProcess:
    process: multiprocessing.Process
    pipe: Connection
    # The web process this one replaces, sent SIGTERM once this one serves.
    replaces: WebProcess | None = None
    # Sent SIGTERM by the supervisor: its exit is expected.
    stopping: bool = False
    retiring: bool = False


class Supervisor:
    """Keeps `count` web processes running `target(sock, pipe)` (a module-level function:
    the processes are spawned, each a fresh interpreter)."""

    def __init__(
        self,
        count: int,
        target: Callable[..., None],
        args: tuple,
        sock: socket.socket,
        on_exit: Callable[[int], None] = lambda pid: None,
    ):
        self.count = count
        self.target = target
        self.args = args
        self.sock = sock
        self.on_exit = on_exit
        self.processes: list[WebProcess] = []
        self.context = multiprocessing.get_context("spawn")
        self.died: list[WebProcess] = []

    def start(self, replaces: WebProcess | None = None) -> WebProcess:
        ours, theirs = self.context.Pipe()
        process = self.context.Process(
            target=self.target, args=(*self.args, self.sock, theirs), name="web"
        )
        process.start()
        theirs.close()  # the web process holds its end; ours alone tells it we are gone
        child = WebProcess(process, ours, replaces=replaces)
        self.processes.append(child)
        return child

    def run(self) -> bool:
        """Run until told to stop or a web process dies; True when one died on its own."""
        stop = _StopSignals()
        with stop:
            for _ in range(self.count):
                self.start()
            while not stop.requested and not self.died:
                ready = wait(
                    [stop.reader, *(w.pipe for w in self.processes)]
                    + [w.process.sentinel for w in self.processes],
                    timeout=WATCH_INTERVAL,
                )
                self._read_messages(ready)
                self._reap()
            self._stop_all()
        return bool(self.died)

    def _read_messages(self, ready: list) -> None:
        for child in list(self.processes):
            if child.pipe not in ready:
                continue
            try:
                message = child.pipe.recv()
            except (EOFError, OSError):
                continue  # it is exiting: its sentinel tells
            if message == RETIRE and not child.retiring:
                child.retiring = True
                self.start(replaces=child)
            elif message == SERVING and child.replaces is not None:
                old, child.replaces = child.replaces, None
                log.info("web process replaced", pid=old.process.pid, by=child.process.pid)
                self._terminate(old)

    def _terminate(self, child: WebProcess) -> None:
        if not child.stopping and child.process.is_alive():
            child.stopping = True
            with contextlib.suppress(ProcessLookupError):
                os.kill(child.process.pid, signal.SIGTERM)

    def _reap(self) -> None:
        for child in list(self.processes):
            if child.process.is_alive():
                continue
            child.process.join()
            if not child.stopping:
                log.error("worker stopped", pid=child.process.pid, exit_code=child.process.exitcode)
                self.died.append(child)
            self._forget(child)

    def _forget(self, child: WebProcess) -> None:
        self.processes.remove(child)
        child.pipe.close()
        self.on_exit(child.process.pid)

    def _stop_all(self) -> None:
        for child in self.processes:
            self._terminate(child)
        for child in list(self.processes):
            child.process.join(SHUTDOWN_TIMEOUT + KILL_GRACE)
            if child.process.is_alive():
                child.process.kill()
                child.process.join()
            self._forget(child)


class _StopSignals:
    """SIGTERM and SIGINT set `requested` and wake the supervisor's wait."""

    def __init__(self) -> None:
        self.requested = False
        self.reader, self._writer = socket.socketpair()

    def _handle(self, _signum, _frame) -> None:
        self.requested = True

    def __enter__(self) -> _StopSignals:
        self._writer.setblocking(False)
        self._previous_wakeup = signal.set_wakeup_fd(self._writer.fileno())
        signals = (signal.SIGTERM, signal.SIGINT)
        self._previous = {signum: signal.signal(signum, self._handle) for signum in signals}
        return self

    def __exit__(self, *_exc) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)
        signal.set_wakeup_fd(self._previous_wakeup)
        self.reader.close()
        self._writer.close()


class Link:
    """A web process's side of its pipe to the supervisor."""

    def __init__(self, pipe: Connection):
        self.pipe = pipe

    def serving(self) -> None:
        self.pipe.send(SERVING)

    def retire(self) -> None:
        self.pipe.send(RETIRE)

    async def context(self, _app: web.Application):
        """cleanup_ctx: the supervisor never writes, so the pipe turns readable only when it
        is gone (killed): then this process stops too, instead of serving on unsupervised."""
        loop = asyncio.get_running_loop()
        pipe = self.pipe.fileno()

        def supervisor_gone() -> None:
            loop.remove_reader(pipe)  # readable for good: once is enough
            os.kill(os.getpid(), signal.SIGTERM)

        loop.add_reader(pipe, supervisor_gone)
        yield
        loop.remove_reader(pipe)
