"""The command line (DESIGN §1): serve, migrate, load-data, demo-data, run-job, create-admin."""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import secrets
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

import structlog
import uvloop
from aiohttp import web
from marshmallow import ValidationError

from app.core import database, logs, migrations
from app.core.config import ConfigError, Settings
from app.core.loader import LoadError, load_document, read_document
from app.core.sql import SqlFileMissing
from app.training import pins

log = structlog.get_logger("app")

SHUTDOWN_TIMEOUT = 30
# How often the first web process checks that the others still run.
WATCH_INTERVAL = 1.0


class CommandError(Exception):
    """A failure the operator can fix: printed as one line, exit status 1."""


def _database_url(settings: Settings) -> str:
    url = database.resolve_url(settings)
    source = "DATABASE_URL" if settings.database_url else "embedded PostgreSQL"
    log.info("database", source=source, database=database.describe(url))
    return url


def _migrate(url: str) -> None:
    applied = migrations.apply(url)
    log.info("migrations applied", count=applied)


def serve(settings: Settings, _: argparse.Namespace) -> None:
    url = _database_url(settings)
    if settings.migrate_on_start:
        _migrate(url)
    if not settings.session_secret_ok:
        log.error("SESSION_SECRET must be set")
    if pins.pepper_of(settings) is None:
        log.warning("PINs are stored without a pepper: set PIN_PEPPER or SESSION_SECRET")
    asyncio.run(_offer_setup_link(settings, url))
    # WEB_CONCURRENCY processes share the port (SO_REUSEPORT: the kernel spreads connections).
    # This process is one of them and owns the others: it started the embedded database (if
    # any) and stops it last. Each process runs the schedules; the job lock runs a slot once.
    workers = [
        multiprocessing.get_context("spawn").Process(
            target=_worker, args=(settings, url), name=f"web-{n}"
        )
        for n in range(1, settings.web_concurrency)
    ]
    for worker in workers:
        worker.start()
    try:
        _serve_here(settings, url, shared_port=bool(workers), watched=workers)
    finally:
        died = [worker for worker in workers if not worker.is_alive()]
        for worker in workers:
            if worker.is_alive():
                worker.terminate()  # SIGTERM: in-flight requests finish, as in this process
        for worker in workers:
            worker.join(SHUTDOWN_TIMEOUT + 5)
    if died:
        # Exit 1: the platform restarts the service whole instead of leaving it short.
        raise CommandError("a web process stopped on its own (see `worker stopped`)")


def _watch(workers: Sequence[multiprocessing.Process]):
    """cleanup_ctx: a worker that dies on its own stops this process too (SIGTERM to itself,
    so in-flight requests finish), and `serve` exits 1."""

    async def watch(_app: web.Application):
        async def check() -> None:
            while all(worker.is_alive() for worker in workers):
                await asyncio.sleep(WATCH_INTERVAL)
            for worker in workers:
                if not worker.is_alive():
                    log.error("worker stopped", pid=worker.pid, exit_code=worker.exitcode)
            os.kill(os.getpid(), signal.SIGTERM)

        task = asyncio.create_task(check())
        yield
        task.cancel()

    return watch


def _worker(settings: Settings, url: str) -> None:
    logs.setup(settings.log_format)
    pins.configure(settings)
    try:
        _serve_here(settings, url, shared_port=True)
    except database.DatabaseUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(1)


def _serve_here(
    settings: Settings,
    url: str,
    *,
    shared_port: bool,
    watched: Sequence[multiprocessing.Process] = (),
) -> None:
    from app.ai import jobs as ai_jobs
    from app.web import create_app, freeze_startup_objects
    from jobs import scheduler

    app = create_app(settings, url)
    scheduler.setup(app)
    ai_jobs.setup(app)
    freeze_startup_objects(app)
    if watched:
        app.cleanup_ctx.append(_watch(watched))
    loop = uvloop.new_event_loop()
    # Fail fast, with one line, when the database is unreachable: the pool is opened at start.
    web.run_app(
        app,
        host=settings.host,
        port=settings.port,
        reuse_port=shared_port or None,
        access_log=None,
        shutdown_timeout=SHUTDOWN_TIMEOUT,
        loop=loop,
        print=lambda *_: log.info(
            "serving", host=settings.host, port=settings.port, pid=os.getpid()
        ),
    )


async def _offer_setup_link(settings: Settings, url: str) -> None:
    """While no admin exists, log a one-time link that lets the first visitor create one."""
    from app.admin import accounts

    async with database.connect(url) as conn:
        token = await accounts.new_setup_token(conn)
    if token is not None:
        log.warning("admin setup link", url=f"{settings.public_base_url}/admin/setup?token={token}")


def migrate(settings: Settings, _: argparse.Namespace) -> None:
    _migrate(_database_url(settings))


def _families():
    # Imported when a command runs, so that a missing SQL file is reported as one line.
    from app.families import FAMILIES

    return FAMILIES


def _sections():
    return [section for family in _families() for section in family.sections]


def _after_load():
    return [hook for family in _families() for hook in family.after_load]


async def _load_files(url: str, paths: list[Path]) -> None:
    async with database.connect(url) as conn:
        for path in paths:
            document = read_document(path)
            counts = await load_document(
                conn, document, _sections(), _after_load(), source=str(path)
            )
            summary = ", ".join(f"{name} {count}" for name, count in counts.items()) or "nothing"
            print(f"{path}: loaded {summary}")


def load_data(settings: Settings, args: argparse.Namespace) -> None:
    url = _database_url(settings)
    _migrate(url)  # a fresh database has no tables to load into yet
    asyncio.run(_load_files(url, [Path(p) for p in args.files]))


async def _demo(url: str, riders: int, admin_email: str | None) -> None:
    rng = random.Random(20261122)
    document: dict = {}
    for family in _families():
        if family.demo is not None:
            document.update(family.demo(rng, riders))
    async with database.connect(url) as conn:
        for family in _families():
            for table in family.demo_tables:
                if await conn.fetchval(f"SELECT EXISTS (SELECT FROM {table})"):
                    raise CommandError(
                        f"demo-data fills an empty database only, and {table} has rows"
                    )
        counts = await load_document(conn, document, _sections(), _after_load(), source="demo")
        print("demo data: " + ", ".join(f"{name} {count}" for name, count in counts.items()))
        if admin_email is not None:
            await _demo_admin(conn, admin_email)


async def _demo_admin(conn, email: str) -> None:
    """A demo admin, only when asked: a random password printed this once (never stored)."""
    from app.admin import accounts

    password = secrets.token_urlsafe(12)
    await accounts.create_or_reset(conn, email, "Demo Admin", password)
    print(f"demo admin {email}, password {password} (shown once: note it now)")


def demo_data(settings: Settings, args: argparse.Namespace) -> None:
    if args.admin is not None:
        _check_email(args.admin)
    url = _database_url(settings)
    _migrate(url)  # a fresh database has no tables to fill yet
    asyncio.run(_demo(url, args.riders, args.admin))


async def _run_job(settings: Settings, url: str, name: str) -> None:
    from jobs import JOBS, JobContext, JobFailed
    from jobs.scheduler import JobLocked, run_locked

    pool = await database.create_pool(url, min_size=1, max_size=4)
    try:
        await run_locked(JOBS[name], JobContext(settings=settings, pool=pool, database_url=url))
    except (JobLocked, JobFailed) as exc:
        raise CommandError(str(exc)) from None
    finally:
        await pool.close()


def run_job(settings: Settings, args: argparse.Namespace) -> None:
    asyncio.run(_run_job(settings, _database_url(settings), args.job))


async def _revoke(url: str, rider_id: str) -> None:
    from app.messaging.links import revoke_links

    async with database.connect(url) as conn:
        if not await revoke_links(conn, rider_id):
            raise CommandError(f"no rider {rider_id!r}")
    print(f"{rider_id}: every one-tap link and rider session issued until now is refused")


def revoke(settings: Settings, args: argparse.Namespace) -> None:
    asyncio.run(_revoke(_database_url(settings), args.rider_id))


async def _create_admin(url: str, email: str, name: str | None, password: str) -> None:
    from app.admin import accounts

    async with database.connect(url) as conn:
        created = await accounts.create_or_reset(conn, email, name, password)
    print(f"admin {email} " + ("created" if created else "updated: new password, sessions ended"))


def _check_email(email: str) -> None:
    from app.admin.sign_in import EMAIL

    try:
        EMAIL(email)
    except ValidationError:
        raise CommandError(f"not an email address: {email!r}") from None


def create_admin(settings: Settings, args: argparse.Namespace) -> None:
    from app.core.passwords import MIN_LENGTH

    _check_email(args.email)
    password = sys.stdin.readline().removesuffix("\n").removesuffix("\r")
    if len(password) < MIN_LENGTH:
        raise CommandError(
            f"the password (read from standard input) must have at least {MIN_LENGTH} characters"
        )
    asyncio.run(_create_admin(_database_url(settings), args.email, args.name, password))


def parser() -> argparse.ArgumentParser:
    from jobs import JOBS

    root = argparse.ArgumentParser(prog="python -m app", description=__doc__)
    commands = root.add_subparsers(dest="command", required=True)
    commands.add_parser("serve", help="apply migrations, then serve HTTP").set_defaults(run=serve)
    commands.add_parser("migrate", help="apply pending migrations").set_defaults(run=migrate)
    load = commands.add_parser("load-data", help="load JSON data documents")
    load.add_argument("files", nargs="+", metavar="FILE")
    load.set_defaults(run=load_data)
    demo = commands.add_parser("demo-data", help="fill an empty database with demo data")
    demo.add_argument("--riders", type=int, default=3000, help="riders to create (default 3000)")
    demo.add_argument(
        "--admin",
        metavar="EMAIL",
        help="also create this demo admin, with a random password printed once",
    )
    demo.set_defaults(run=demo_data)
    revoking = commands.add_parser(
        "revoke-links", help="refuse a rider's one-tap links and sessions issued until now"
    )
    revoking.add_argument("rider_id", metavar="RIDER_ID")
    revoking.set_defaults(run=revoke)
    job = commands.add_parser("run-job", help="run a scheduled job now, once")
    job.add_argument("job", choices=sorted(JOBS))
    job.set_defaults(run=run_job)
    admin = commands.add_parser(
        "create-admin", help="create an admin of the panel, or set a new password (from stdin)"
    )
    admin.add_argument("email", metavar="EMAIL")
    admin.add_argument("--name", help="the admin's name (default: the email's local part)")
    admin.set_defaults(run=create_admin)
    return root


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        settings = Settings.from_env()
        logs.setup(settings.log_format)
        pins.configure(settings)
        args.run(settings, args)
    except (
        ConfigError,
        CommandError,
        LoadError,
        SqlFileMissing,
        database.DatabaseUnavailable,
    ) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0
