"""The commands that work on the database (DESIGN §1): migrate, load-data, demo-data,
restore, run-job, revoke-links, create-admin, and the steps of `serve` before it supervises.

Imported by app/cli.py only when one of them runs.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
import sys
from pathlib import Path

import structlog
from marshmallow import ValidationError

from app.cli import OPERATOR_ERRORS, CommandError, database_url
from app.core import database, logs, migrations
from app.core import database_url as where
from app.core.config import Settings
from app.core.loader import LoadError, load_document, read_document
from app.training import pins

log = structlog.get_logger("app")


def _migrate(settings: Settings, url: str) -> None:
    # yoyo's session (its lock, psycopg's prepared statements) must not go through a
    # transaction pooler.
    applied = migrations.apply(database.session_url(settings, url))
    log.info("migrations applied", count=applied)


def prepare_serve(settings: Settings, url: str) -> str | None:
    """serve's steps before it supervises, in a process of their own (app/serve.py): None when
    done, else the line to print."""
    logs.setup(settings.log_format)
    try:
        if settings.migrate_on_start:
            _migrate(settings, url)
        if not settings.session_secret_ok:
            log.error("SESSION_SECRET must be set")
        if pins.pepper_of(settings) is None:
            log.warning("PINs are stored without a pepper: set PIN_PEPPER or SESSION_SECRET")
        asyncio.run(_offer_setup_link(settings, url))
    except OPERATOR_ERRORS as exc:
        return str(exc)
    return None


async def _offer_setup_link(settings: Settings, url: str) -> None:
    """While no admin exists, log a one-time link that lets the first visitor create one."""
    from app.admin import accounts

    async with database.connect(url) as conn:
        token = await accounts.new_setup_token(conn)
    if token is not None:
        log.warning("admin setup link", url=f"{settings.public_base_url}/admin/setup?token={token}")


def migrate(settings: Settings, _: argparse.Namespace) -> None:
    _migrate(settings, database_url(settings, log))


def _packages():
    # Imported when a command runs, so that a missing SQL file is reported as one line.
    from app.packages import PACKAGES

    return PACKAGES


def _sections():
    return [section for package in _packages() for section in package.sections]


def _after_load():
    return [hook for package in _packages() for hook in package.after_load]


async def _load_files(settings: Settings, url: str, paths: list[Path]) -> None:
    sections = _sections()
    streamed = {section.name: section.looked_up for section in sections if section.streamed}
    async with database.connect(url) as conn:
        for path in paths:
            document = read_document(path, streamed)
            counts = await load_document(
                conn, document, sections, _after_load(), source=str(path), settings=settings
            )
            summary = ", ".join(f"{name} {count}" for name, count in counts.items()) or "nothing"
            print(f"{path}: loaded {summary}")


def load_data(settings: Settings, args: argparse.Namespace) -> None:
    url = database_url(settings, log)
    _migrate(settings, url)  # a fresh database has no tables to load into yet
    _load(_load_files(settings, url, [Path(p) for p in args.files]))


def _load(loading) -> None:
    """Runs a load: a document's fault (LoadError) is one line, as any operator's error."""
    try:
        asyncio.run(loading)
    except LoadError as exc:
        raise CommandError(str(exc)) from None


async def _demo(settings: Settings, url: str, riders: int, admin_email: str | None) -> None:
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
        counts = await load_document(
            conn, document, _sections(), _after_load(), source="demo", settings=settings
        )
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
    url = database_url(settings, log)
    _migrate(settings, url)  # a fresh database has no tables to fill yet
    _load(_demo(settings, url, args.riders, args.admin))


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
    asyncio.run(_run_job(settings, database_url(settings, log), args.job))


def restore(settings: Settings, args: argparse.Namespace) -> None:
    """Restore an archive into an empty database and say what it holds (docs/operations.md)."""
    from jobs import JobFailed
    from jobs.restore import restore as restore_archive

    if not args.into.startswith(("postgresql://", "postgres://")):
        raise CommandError("--into must be a postgresql:// URL")
    try:
        restored = asyncio.run(restore_archive(settings, args.archive, args.into))
    except JobFailed as exc:
        raise CommandError(f"restore failed: {exc}") from None
    recorded = restored.recorded or {}
    rows = sum(restored.tables.values())
    print(
        f"restored {restored.archive} from {restored.source} into {where.describe(args.into)}:"
        f" {len(restored.tables)} tables, {rows} rows"
    )
    for table, count in restored.tables.items():
        at_backup = recorded.get(table)
        differs = "" if at_backup in (None, count) else f" ({at_backup} at backup time)"
        print(f"  {table} {count}{differs}")
    if restored.recorded is None:
        print("(the archive has no manifest: no row counts of backup time to compare with)")


async def _revoke(url: str, rider_id: str) -> None:
    from app.messaging.links import revoke_links

    async with database.connect(url) as conn:
        if not await revoke_links(conn, rider_id):
            raise CommandError(f"no rider {rider_id!r}")
    print(f"{rider_id}: every one-tap link and rider session issued until now is refused")


def revoke_links(settings: Settings, args: argparse.Namespace) -> None:
    asyncio.run(_revoke(database_url(settings, log), args.rider_id))


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
    asyncio.run(_create_admin(database_url(settings, log), args.email, args.name, password))
