"""Continuous archiving as deploy/ configures it, with the real pgBackRest and a real
PostgreSQL: WAL archived by deploy/postgresql-archiving.conf's archive_command, a full backup,
and a point-in-time restore that finds exactly the rows written before the chosen moment.

The server is Debian's PostgreSQL, as on the VM: Debian 12's pgBackRest (2.45) supports
PostgreSQL up to 15, not the embedded server's 18.

The repository is a folder here, not the S3 store of deploy/pgbackrest.conf: pgBackRest speaks
to S3 over TLS only, and the loopback S3 server of the other tests serves plain HTTP (over a
TLS wrapper it broke pgBackRest's connections mid-request). Everything else is the deployed
configuration, relocated to a temporary folder.
"""

from __future__ import annotations

import configparser
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg
import pytest

ROOT = Path(__file__).resolve().parents[2]
PGBACKREST = shutil.which("pgbackrest") or "/usr/bin/pgbackrest"
# Debian's server programs, the newest installed.
BIN = max(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))
# The deployed paths, and where each goes in the test's folder.
DEPLOYED = {
    "/var/lib/postgresql/15/main": "pgdata",
    # Outside the data folder, as deployed: a backup would copy the socket's lock file.
    "/var/run/postgresql": "socket",
    "/var/spool/pgbackrest": "spool",
    "/var/log/pgbackrest": "log",
}


class Cluster:
    """A PostgreSQL cluster of its own under `folder`, run as `user` (the embedded server's
    system user when the tests run as root), with pgBackRest configured as deployed."""

    def __init__(self, folder: Path, user: str | None):
        self.folder, self.user = folder, user
        self.data = folder / "pgdata"
        self.socket = folder / "socket"
        self.env = {**os.environ, "PGBACKREST_CONFIG": str(folder / "pgbackrest.conf")}

    def run(self, *args: str) -> str:
        done = subprocess.run(
            args, capture_output=True, text=True, user=self.user, env=self.env, timeout=180
        )
        assert done.returncode == 0, (args, done.stdout, done.stderr)
        return done.stdout

    def pg(self, program: str, *args: str) -> str:
        return self.run(str(BIN / program), *args)

    def pgbackrest(self, *args: str) -> str:
        return self.run(PGBACKREST, "--stanza=rider-ops", *args)

    def start(self) -> None:
        options = f"-k {self.socket} -h ''"
        log = f"{self.folder}/server.log"
        self.pg("pg_ctl", "-D", str(self.data), "-w", "-o", options, "-l", log, "start")

    def stop(self) -> None:
        self.pg("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def connect(self):
        url = f"postgresql://postgres@/postgres?host={self.socket}"
        return psycopg.connect(url, autocommit=True)


def deployed_configuration(folder: Path) -> str:
    """deploy/pgbackrest.conf with its paths under `folder` (and a lock folder there), and a
    repository there."""
    config = configparser.ConfigParser(interpolation=None)
    config.optionxform = str  # keep the options' case
    config.read(ROOT / "deploy" / "pgbackrest.conf")
    for option in [o for o in config["global"] if o.startswith("repo1-s3-") or o == "repo1-type"]:
        del config["global"][option]
    config["global"]["repo1-path"] = str(folder / "repository")
    config["global"]["lock-path"] = str(folder / "lock")
    lines = []
    for section in config.sections():
        lines.append(f"[{section}]")
        for option, value in config[section].items():
            lines.append(f"{option}={folder / DEPLOYED[value] if value in DEPLOYED else value}")
    return "\n".join(lines) + "\n"


@pytest.fixture
def cluster():
    # PostgreSQL refuses to run as root: as the package's system user then.
    system_user = "postgres" if os.geteuid() == 0 else None
    folder = Path(tempfile.mkdtemp(prefix="rider-ops-pgbackrest-"))
    (folder / "pgbackrest.conf").write_text(deployed_configuration(folder))
    # The folders the Debian package makes.
    made = [folder / name for name in ("spool", "lock", "log", "socket")]
    for path in made:
        path.mkdir()
    if system_user is not None:
        for path in [folder, folder / "pgbackrest.conf", *made]:
            shutil.chown(path, system_user)
    folder.chmod(0o700)
    server = Cluster(folder, system_user)
    server.pg("initdb", "-D", str(server.data), "-U", "postgres", "--auth=trust")
    with (server.data / "postgresql.conf").open("a") as conf:
        conf.write((ROOT / "deploy" / "postgresql-archiving.conf").read_text())
    server.start()
    try:
        yield server
    finally:
        subprocess.run(
            [str(BIN / "pg_ctl"), "-D", str(server.data), "-m", "immediate", "stop"],
            capture_output=True,
            user=system_user,
        )
        shutil.rmtree(folder, ignore_errors=True)


def test_a_point_in_time_restore_finds_exactly_the_rows_written_before_it(cluster):
    cluster.pgbackrest("stanza-create")
    cluster.pgbackrest("check")  # archive_command works: a WAL segment reached the repository
    cluster.pgbackrest("--type=full", "backup")
    # pgBackRest restores to a time from a backup that stopped before it, by its stop time in
    # whole seconds: the rows come after that second.
    (backup,) = json.loads(cluster.pgbackrest("--output=json", "info"))[0]["backup"]
    with cluster.connect() as conn:
        deadline = time.monotonic() + 10
        while conn.execute("SELECT extract(epoch FROM now())").fetchone()[0] <= (
            backup["timestamp"]["stop"] + 1
        ):
            assert time.monotonic() < deadline, "the server's clock stands still"
            time.sleep(0.1)
        conn.execute("CREATE TABLE completions (n int PRIMARY KEY, at timestamptz DEFAULT now())")
        conn.execute("INSERT INTO completions (n) SELECT generate_series(1, 100)")
        (target,) = conn.execute("SELECT clock_timestamp()::text").fetchone()
        conn.execute("INSERT INTO completions (n) SELECT generate_series(101, 150)")
        conn.execute("DELETE FROM completions WHERE n <= 10")
    cluster.pgbackrest("check")  # the WAL of the later writes is archived too
    info = cluster.pgbackrest("info")
    assert "full backup" in info and "status: ok" in info

    cluster.stop()
    cluster.pgbackrest(
        "--delta", "--type=time", f"--target={target}", "--target-action=promote", "restore"
    )
    cluster.start()

    deadline = time.monotonic() + 60
    with cluster.connect() as conn:
        while conn.execute("SELECT pg_is_in_recovery()").fetchone()[0]:
            assert time.monotonic() < deadline, "recovery did not end"
            time.sleep(0.1)
        rows = [n for (n,) in conn.execute("SELECT n FROM completions ORDER BY n")]
    assert rows == list(range(1, 101))
