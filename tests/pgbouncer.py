"""A real PgBouncer in transaction pooling mode in front of the test server (TEST_PGBOUNCER=1).

Debian's `pgbouncer`, started on a free local port with every database of the server reachable
through it (the `*` fallback), trust authentication (the test server trusts local clients
too) and room for every client the suite opens at once.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from aiohttp.test_utils import unused_port

from app.core.database import SESSION_LIMITS

CONFIG = """\
[databases]
* = host={host} port={port} connect_query='{connect_query}'

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {listen_port}
unix_socket_dir =
auth_type = trust
auth_file = {auth_file}
pool_mode = transaction
max_client_conn = 5000
default_pool_size = 20
max_db_connections = 40
; A database that refuses connections (tests/conftest.py's database_down): clients get an
; error after a few seconds instead of waiting two minutes in the queue.
query_wait_timeout = 3
server_login_retry = 1
; A test database lives for one test: its idle server connections go soon.
server_idle_timeout = 10
autodb_idle_timeout = 10
log_connections = 0
log_disconnections = 0
logfile = {logfile}
pidfile = {pidfile}
{user_line}
"""


def executable() -> str:
    found = shutil.which("pgbouncer") or shutil.which("pgbouncer", path="/usr/sbin:/sbin")
    if found is None:
        raise RuntimeError("TEST_PGBOUNCER=1 needs Debian's pgbouncer (apt-get install pgbouncer)")
    return found


def _listening(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        return True
    return False


@contextlib.contextmanager
def running(server_url: str, system_user: str | None):
    """Yield the URL of a PgBouncer in front of `server_url` (same user; a socket folder in the
    query's `host` or a host name); it stops when the block ends. As root it runs as
    `system_user`, the server's own, which may open the server's socket."""
    server = urlsplit(server_url)
    host = dict(parse_qsl(server.query)).get("host") or server.hostname
    folder = Path(tempfile.mkdtemp(prefix="rider-ops-pgbouncer-"))
    # As root PgBouncer must drop to another user, which reads its files from here.
    folder.chmod(0o755)
    user = server.username or "postgres"
    (folder / "userlist.txt").write_text(f'"{user}" ""\n')
    listen_port = unused_port()
    config = folder / "pgbouncer.ini"
    config.write_text(
        CONFIG.format(
            host=host,
            # The service's limits, as an operator sets them on a transaction pooler's
            # server sessions (DATABASE_POOL_MODE=transaction does not send them).
            connect_query="; ".join(f"SET {k} = {v}" for k, v in SESSION_LIMITS.items()),
            port=server.port or 5432,
            listen_port=listen_port,
            auth_file=folder / "userlist.txt",
            logfile=folder / "pgbouncer.log",
            pidfile=folder / "pgbouncer.pid",
            user_line=f"user = {system_user}" if os.geteuid() == 0 else "",
        )
    )
    for path in folder.iterdir():
        path.chmod(0o644)
    folder.chmod(0o777)  # its log and pid file are written as that user
    process = subprocess.Popen(
        [executable(), str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 10
        while not _listening(listen_port):
            if process.poll() is not None or time.monotonic() > deadline:
                log = (folder / "pgbouncer.log").read_text(errors="replace")
                raise RuntimeError(f"pgbouncer did not start:\n{log}")
            time.sleep(0.05)
        yield f"postgresql://{user}@127.0.0.1:{listen_port}{server.path}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(folder, ignore_errors=True)
