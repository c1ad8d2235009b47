"""The command line (docs/commands.md): serve, worker, migrate, load-data,
demo-data, restore, run-job, create-admin, create-api-key, revoke-api-key, …"""

from __future__ import annotations

import argparse
import importlib
import sys

from app.core import database_url as where
from app.core import kept_secret, logs
from app.core.config import ConfigError, Settings
from app.core.sql import SqlFileMissing


class CommandError(Exception):
    """A failure the operator can fix: printed as one line, exit status 1."""


# What a command (or serve's start, in its own process) reports as one line.
OPERATOR_ERRORS = (ConfigError, CommandError, SqlFileMissing, where.DatabaseUnavailable)


def database_url(settings: Settings, log) -> str:
    url = where.resolve_url(settings)
    source = "DATABASE_URL" if settings.database_url else "embedded PostgreSQL"
    log.info("database", source=source, database=where.describe(url))
    return url


class _JobNames:
    """run-job's choices, read when argparse checks or lists them: the jobs import asyncpg,
    which no other command needs when its arguments are parsed."""

    def _names(self) -> list[str]:
        from jobs import JOBS

        return sorted(JOBS)

    def __contains__(self, name: object) -> bool:
        return name in self._names()

    def __iter__(self):
        return iter(self._names())


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="python -m app", description=__doc__)
    commands = root.add_subparsers(dest="command", required=True)
    # Each command runs from its module, imported then: `serve` from app/serve.py (small: it
    # logs without structlog, see app/core/logs.py), the others from app/commands.py.
    root.set_defaults(module="app.commands", structlog=True)
    serving = commands.add_parser("serve", help="apply migrations, then serve HTTP")
    serving.set_defaults(module="app.serve", structlog=False)
    serving.add_argument(
        "--no-worker",
        action="store_true",
        help="web processes only: the schedules, AI jobs and webhooks run in `worker`",
    )
    working = commands.add_parser(
        "worker", help="run the scheduled jobs, AI jobs and webhook delivery (no HTTP)"
    )
    working.set_defaults(module="app.serve", structlog=False)
    commands.add_parser("migrate", help="apply pending migrations")
    load = commands.add_parser("load-data", help="load JSON data documents")
    load.add_argument("files", nargs="+", metavar="FILE")
    demo = commands.add_parser("demo-data", help="fill an empty database with demo data")
    demo.add_argument("--riders", type=int, default=3000, help="riders to create (default 3000)")
    demo.add_argument(
        "--admin",
        metavar="EMAIL",
        help="also create this demo admin, with a random password printed once",
    )
    revoking = commands.add_parser(
        "revoke-links", help="refuse a rider's one-tap links and sessions issued until now"
    )
    revoking.add_argument("rider_id", metavar="RIDER_ID")
    restoring = commands.add_parser(
        "restore",
        help="restore a backup archive (BACKUP_S3_URL, else BACKUP_DIR) into an empty database",
    )
    restoring.add_argument("archive", metavar="latest|ARCHIVE", help="latest, or an archive's name")
    restoring.add_argument(
        "--into", required=True, metavar="DATABASE_URL", help="the empty database to restore into"
    )
    job = commands.add_parser("run-job", help="run a scheduled job now, once")
    # A metavar, or argparse would list the choices (and import the jobs) as it builds the parser.
    job.add_argument("job", choices=_JobNames(), metavar="JOB", help="one of %(choices)s")
    admin = commands.add_parser(
        "create-admin", help="create an admin of the panel, or set a new password (from stdin)"
    )
    admin.add_argument("email", metavar="EMAIL")
    admin.add_argument("--name", help="the admin's name (default: the email's local part)")
    admin.add_argument(
        "--role",
        metavar="ROLE",
        help="owner, editor or viewer (default: owner for the first admin, else editor; an "
        "existing admin's stays)",
    )
    admin.add_argument(
        "--markets",
        metavar="AE,JO",
        help="the markets whose riders the admin sees, comma-separated (default: every market; "
        "an existing admin's stay; `all` for every market)",
    )
    # Scopes and days are checked by the command, so that a wrong one is one line (argparse's
    # own errors print the usage too).
    creating = commands.add_parser(
        "create-api-key", help="create an integrator's API key, printed once on the last line"
    )
    creating.add_argument("name", metavar="NAME")
    creating.add_argument(
        "--scope",
        action="append",
        required=True,
        metavar="SCOPE",
        help="training, checks, shop-import or shop-orders; repeat for several",
    )
    creating.add_argument("--expires-days", metavar="N", help="refused after N days")
    revoking_key = commands.add_parser("revoke-api-key", help="refuse an API key from now on")
    revoking_key.add_argument("name", metavar="NAME")
    return root


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        settings = kept_secret.kept(Settings.from_env())
        if args.structlog:
            logs.setup(settings.log_format)
        command = importlib.import_module(args.module)
        getattr(command, args.command.replace("-", "_"))(settings, args)
    except OPERATOR_ERRORS as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0
