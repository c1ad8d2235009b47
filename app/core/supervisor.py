"""The web processes of `serve`, and the process that keeps them: it serves nothing itself.

The supervisor opens one listening socket for each web process, all on the one address in an
SO_REUSEPORT group, so that the kernel spreads new connections evenly over the processes. (On
one shared socket, the process that woke first accepted all it found: 140 of a burst of 200
connections went to one of two processes, whose riders then waited twice as long.) It holds
every socket for as long as it runs, so the port stays open, and a socket's queued
connections stay queued, while a web process comes or goes: a replacement takes over the
socket of the process it replaces.

A web process is a fresh interpreter (`subprocess`, not `multiprocessing`, whose spawned
children come with a resource tracker process of 13 MB): the listening socket and its end of a
socketpair, its link, are passed as file descriptors, whose numbers follow its command line.
It tells the supervisor two things over its link: it `serves` (listening, after its start-up),
and it should `retire` (its memory passed the limit). For a retiring process the supervisor
starts a replacement and, once that one serves, sends the old one SIGTERM: it stops
accepting, finishes its in-flight requests and exits. The supervisor never writes to a link:
a web process whose link turns readable knows its supervisor is gone (killed) and stops.

A web process that exits without having been told to means something is wrong that a restart
of the service may cure: the supervisor logs `worker stopped`, stops the others and `serve`
exits 1, so the platform restarts the service whole. SIGTERM or SIGINT to the supervisor stops
every web process the same way (each finishing its in-flight requests) and `serve` exits 0.

It waits on the links, on each process's exit (a pidfd: Linux 5.3 or later) and on its own
signals (a socketpair as the wakeup fd) with one selector.
"""

from __future__ import annotations

import os
import selectors
import signal
import socket
import subprocess
from collections.abc import Callable
from dataclasses import dataclass

from app.core.logs import lines as log

# What a web process sends its supervisor, one message each (the link keeps their bounds).
SERVING = b"serving"
RETIRE = b"retire"

SHUTDOWN_TIMEOUT = 30
# Beyond a web process's own shutdown timeout, before it is killed.
KILL_GRACE = 5
# The longest the supervisor waits without looking at its web processes.
WATCH_INTERVAL = 1.0
LISTEN_BACKLOG = 1024


class ListenError(Exception):
    """The address cannot be listened on (in use, not this machine's)."""


def listen(host: str, port: int, count: int) -> list[socket.socket]:
    """`count` listening sockets on the address in one SO_REUSEPORT group, one for each web
    process; the address must be free (a plain socket binds it first), so that a second
    service on the same port fails instead of joining the group."""
    sockets: list[socket.socket] = []
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
            address = probe.getsockname()  # port 0: the port the system chose
        for _ in range(count):
            sockets.append(sock := socket.socket(family, kind, proto))
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            sock.bind(address)
            sock.listen(LISTEN_BACKLOG)
            sock.set_inheritable(False)
    except OSError as exc:
        for sock in sockets:
            sock.close()
        raise ListenError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc
    return sockets


def link_pair() -> tuple[socket.socket, socket.socket]:
    """(the supervisor's end, the web process's end) of a link: datagrams in order, so each
    message arrives whole; neither end is inherited unless passed."""
    return socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)


@dataclass(eq=False)
class WebProcess:
    process: subprocess.Popen
    # Which of the listening sockets it accepts from; None: the worker, which has none.
    slot: int | None
    link: socket.socket
    # Readable once the process has exited.
    exited: int
    # The web process this one replaces, sent SIGTERM once this one serves.
    replaces: WebProcess | None = None
    # Sent SIGTERM by the supervisor: its exit is expected.
    stopping: bool = False
    retiring: bool = False


class Supervisor:
    """Keeps a web process on each of the listening `sockets`, running `command` followed by
    the numbers of its socket's and its link's file descriptors; and, given a `worker`
    command, one worker process, which has a link and no socket, kept the same way."""

    def __init__(
        self,
        command: list[str],
        sockets: list[socket.socket],
        on_exit: Callable[[int], None] = lambda pid: None,
        worker: list[str] | None = None,
    ):
        self.command = command
        self.sockets = sockets
        self.on_exit = on_exit
        self.worker = worker
        self.processes: list[WebProcess] = []
        self.died: list[WebProcess] = []
        self.selector = selectors.DefaultSelector()

    def start(self, slot: int | None, replaces: WebProcess | None = None) -> WebProcess:
        ours, theirs = link_pair()
        with theirs:  # the web process holds its end; ours alone tells it we are gone
            if slot is None:
                command, fds = self.worker, (theirs.fileno(),)
            else:
                command, fds = self.command, (self.sockets[slot].fileno(), theirs.fileno())
            process = subprocess.Popen([*command, *map(str, fds)], pass_fds=fds)
        child = WebProcess(process, slot, ours, os.pidfd_open(process.pid), replaces=replaces)
        # A message to read; an exit, which the next _reap takes.
        self.selector.register(ours, selectors.EVENT_READ, child)
        self.selector.register(child.exited, selectors.EVENT_READ)
        self.processes.append(child)
        return child

    def run(self) -> bool:
        """Run until told to stop or a web process dies; True when one died on its own."""
        stop = _StopSignals()
        with stop, self.selector:
            self.selector.register(stop.reader, selectors.EVENT_READ)
            for slot in range(len(self.sockets)):
                self.start(slot)
            if self.worker is not None:
                self.start(None)
            while not stop.requested and not self.died:
                for key, _ in self.selector.select(WATCH_INTERVAL):
                    if key.data is not None:
                        self._read_message(key.data)
                self._reap()
            self._stop_all()
        return bool(self.died)

    def _read_message(self, child: WebProcess) -> None:
        try:
            message = child.link.recv(64)
        except OSError:
            message = b""
        if not message:  # it is exiting (its pidfd tells): its link stays readable, unheard
            self.selector.unregister(child.link)
        elif message == RETIRE and not child.retiring:
            child.retiring = True
            self.start(child.slot, replaces=child)
        elif message == SERVING and child.replaces is not None:
            old, child.replaces = child.replaces, None
            kind = "worker" if child.slot is None else "web"
            log.info(f"{kind} process replaced", pid=old.process.pid, by=child.process.pid)
            self._terminate(old)

    def _terminate(self, child: WebProcess) -> None:
        if not child.stopping:
            child.stopping = True
            child.process.send_signal(signal.SIGTERM)  # nothing once it has been reaped

    def _reap(self) -> None:
        for child in list(self.processes):
            if child.process.poll() is None:
                continue
            if not child.stopping:
                log.error(
                    "worker stopped", pid=child.process.pid, exit_code=child.process.returncode
                )
                self.died.append(child)
            self._forget(child)

    def _forget(self, child: WebProcess) -> None:
        self.processes.remove(child)
        for fileobj in (child.link, child.exited):
            if fileobj in self.selector.get_map():
                self.selector.unregister(fileobj)
        child.link.close()
        os.close(child.exited)
        self.on_exit(child.process.pid)

    def _stop_all(self) -> None:
        for child in self.processes:
            self._terminate(child)
        for child in list(self.processes):
            try:
                child.process.wait(SHUTDOWN_TIMEOUT + KILL_GRACE)
            except subprocess.TimeoutExpired:
                child.process.kill()
                child.process.wait()
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
