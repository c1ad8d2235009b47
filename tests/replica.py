"""A real streaming read replica of the test server, built with the embedded PostgreSQL's own
binaries: `pg_basebackup -R` copies the running server into a temporary folder and a standby
is started on it (as the server's own system user when the tests run as root)."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from app.core.database import pg_bin_dir


class Standby:
    def __init__(self, folder: Path, user: str | None, system_user: str | None):
        self.folder, self.user, self.system_user = folder, user, system_user
        self.running = False

    def url(self, database: str) -> str:
        return f"postgresql://{self.user}@/{database}?host={self.folder}"

    def _run(self, program: str, *args: str) -> None:
        subprocess.run(
            [str(pg_bin_dir() / program), *args],
            check=True,
            capture_output=True,
            user=self.system_user,
            timeout=120,
        )

    def start(self) -> None:
        data = str(self.folder / "data")
        # Sockets only, in its own folder (the port number may repeat the primary's).
        options = f"-k {self.folder} -h ''"
        self._run("pg_ctl", "-D", data, "-w", "-o", options, "-l", f"{data}.log", "start")
        self.running = True

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "stop")
        self.running = False


@contextlib.contextmanager
def standby(server_url: str, system_user: str | None):
    """Yield a running Standby of the server at `server_url` (socket URL); it is stopped and
    deleted when the block ends."""
    server = urlsplit(server_url)
    primary_socket = dict(parse_qsl(server.query))["host"]
    folder = Path(tempfile.mkdtemp(prefix="rider-ops-replica-"))
    if system_user is not None and os.geteuid() == 0:
        shutil.chown(folder, system_user)
    folder.chmod(0o700)
    replica = Standby(folder, server.username, system_user)
    try:
        replica._run(
            "pg_basebackup",
            f"--host={primary_socket}",
            f"--username={server.username}",
            f"--pgdata={folder / 'data'}",
            "--write-recovery-conf",
            "--wal-method=stream",
            "--checkpoint=fast",
        )
        replica.start()
        yield replica
    finally:
        if replica.running:
            replica.stop()
        shutil.rmtree(folder, ignore_errors=True)
