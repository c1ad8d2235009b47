"""The command line (DESIGN §1): serve, migrate, load-data, demo-data, run-job, create-admin."""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import signal
import socket
import sys
from pathlib import Path

import structlog
import uvloop
from aiohttp import web
from marshmallow import ValidationError

from app.core import database, logs, memory, metrics, migrations, supervisor
from app.core.config import ConfigError, Settings
from app.core.loader import LoadError, load_document, read_document
from app.core.sql import SqlFileMissing
from app.training import pins

log = structlog.get_logger("app")


class CommandError(Exception):
    """A failure the operator can fix: printed as one line, exit status 1."""


def _database_url(settings: Settings) -> str:
    url = database.resolve_url(settings)
    source = "DATABASE_URL" if settings.database_url else "embedded PostgreSQL"
    log.info("database", source=source, database=database.describe(url))
    return url


def _migrate(settings: Settings, url: str) -> None:
    # yoyo's session (its lock, psycopg's prepared statements) must not go through a
    # transaction pooler.
    applied = migrations.apply(database.session_url(settings, url))
    log.info("migrations applied", count=applied)


def serve(settings: Settings, _: argparse.Namespace) -> None:
    url = _database_url(settings)
    if settings.migrate_on_start:
        _migrate(settings, url)
    if not settings.session_secret_ok:
        log.error("SESSION_SECRET must be set")
    if pins.pepper_of(settings) is None:
        log.warning("PINs are stored without a pepper: set PIN_PEPPER or SESSION_SECRET")
    asyncio.run(_offer_setup_link(settings, url))
    # This process (which started the embedded database, if any, and stops it last) serves
    # nothing: it keeps WEB_CONCURRENCY web processes that accept from its socket (see
    # app/core/supervisor.py). Each runs the schedules; the job lock runs a slot once.
    try:
        sock = supervisor.listen(settings.host, settings.port)
    except supervisor.ListenError as exc:
        raise CommandError(str(exc)) from None
    with sock, metrics.multiprocess_files():
        died = supervisor.Supervisor(
            settings.web_concurrency,
            _web_process,
            (settings, url),
            sock,
            on_exit=metrics.process_exited,
        ).run()
    if died:
        # Exit 1: the platform restarts the service whole instead of leaving it short.
        raise CommandError("a web process stopped on its own (see `worker stopped`)")


def _web_process(settings: Settings, url: str, sock: socket.socket, pipe) -> None:
    # The supervisor alone stops a web process (SIGTERM): a Ctrl-C reaches the whole process
    # group, and a second signal would cut this process's graceful shutdown short.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    logs.setup(settings.log_format)
    pins.configure(settings)
    try:
        _serve_here(settings, url, sock, supervisor.Link(pipe))
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

    def stop() -> None:
        loop.remove_signal_handler(signal.SIGTERM)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise web.GracefulExit()

    loop.add_signal_handler(signal.SIGTERM, stop)


def _serve_here(settings: Settings, url: str, sock: socket.socket, link: supervisor.Link) -> None:
    from app.ai import runner
    from app.web import create_app, freeze_startup_objects
    from app.webhooks import delivery as webhooks
    from jobs import scheduler

    app = create_app(settings, url)
    scheduler.setup(app)
    runner.setup(app)
    webhooks.setup(app)
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


async def _offer_setup_link(settings: Settings, url: str) -> None:
    """While no admin exists, log a one-time link that lets the first visitor create one."""
    from app.admin import accounts

    async with database.connect(url) as conn:
        token = await accounts.new_setup_token(conn)
    if token is not None:
        log.warning("admin setup link", url=f"{settings.public_base_url}/admin/setup?token={token}")


def migrate(settings: Settings, _: argparse.Namespace) -> None:
    _migrate(settings, _database_url(settings))


def _packages():
    # Imported when a command runs, so that a missing SQL file is reported as one line.
    from app.packages import PACKAGES

    return PACKAGES


def _sections():
    return [section for package in _packages() for section in package.sections]


def _after_load():
    return [hook for package in _packages() for hook in package.after_load]


async def _load_files(url: str, paths: list[Path]) -> None:
    sections = _sections()
    streamed = {section.name for section in sections if section.streamed}
    async with database.connect(url) as conn:
        for path in paths:
            document = read_document(path, streamed)
            counts = await load_document(conn, document, sections, _after_load(), source=str(path))
            summary = ", ".join(f"{name} {count}" for name, count in counts.items()) or "nothing"
            print(f"{path}: loaded {summary}")


def load_data(settings: Settings, args: argparse.Namespace) -> None:
    url = _database_url(settings)
    _migrate(settings, url)  # a fresh database has no tables to load into yet
    asyncio.run(_load_files(url, [Path(p) for p in args.files]))


async def _demo(url: str, riders: int, admin_email: str | None) -> None:
    rng = random.Random(20261122)
    document: dict = {}
    for package in _packages():
        if package.demo is not None:
            document.update(package.demo(rng, riders))
    async with database.connect(url) as conn:
        for package in _packages():
            for table in package.demo_tables:
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
    _migrate(settings, url)  # a fresh database has no tables to fill yet
    asyncio.run(_demo(url, args.riders, args.admin))


async def _run_job(settings: Settings, url: str, name: str) -> None:
    from jobs import JOBS, JobContext, JobFailed
    from jobs.scheduler import JobLocked, run_locked

    pool = await database.create_pool(
        url, pool_mode=settings.database_pool_mode, min_size=1, max_size=4
    )
    try:
        context = JobContext(
            settings=settings, pool=pool, database_url=database.session_url(settings, url)
        )
        await run_locked(JOBS[name], context)
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
