"""The commands that work on the database (docs/commands.md): migrate, load-data, demo-data,
restore, run-job, revoke-links, create-admin, create-api-key, revoke-api-key, and the steps of
`serve` before it supervises.

Each change a command makes is written to the audit log as the actor `cli`, in the change's
transaction (docs/audit.md).

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
from app.core import audit, database, logs, migrations
from app.core import database_url as where
from app.core.config import Settings
from app.core.loader import LoadError, load_document, read_document
from app.training import pins

log = structlog.get_logger("app")

SIGN_IN_OFF = "sign-in to the panel and the rider app is off until it is set (16+ characters)"


def _migrate(settings: Settings, url: str) -> None:
    # yoyo's session (its lock, psycopg's prepared statements) must not go through a
    # transaction pooler.
    applied = migrations.apply(database.session_url(settings, url))
    log.info("migrations applied", count=applied)
    if applied:
        # After yoyo's own transactions, which a statement of ours cannot join.
        asyncio.run(_record(url, "migrations.applied", None, f"{applied} migrations"))


async def _record(url: str, action: str, target: str | None, summary: str) -> None:
    async with database.connect(url) as conn:
        await audit.record(conn, audit.CLI, action, target, summary)


def prepare_serve(settings: Settings, url: str) -> str | None:
    """serve's steps before it supervises, in a process of their own (app/serve.py): None when
    done, else the line to print."""
    logs.setup(settings.log_format)
    try:
        if settings.migrate_on_start:
            _migrate(settings, url)
        if pins.pepper_of(settings) is None:
            log.warning("PINs are stored without a pepper: set PIN_PEPPER or SESSION_SECRET")
        if not settings.session_secret_ok:
            log.error("SESSION_SECRET must be set", consequence=SIGN_IN_OFF)
        asyncio.run(_offer_setup_link(settings, url))
    except OPERATOR_ERRORS as exc:
        return str(exc)
    return None


async def _offer_setup_link(settings: Settings, url: str) -> None:
    """While no admin exists, log a one-time link that lets the first visitor create one;
    none while sign-in is off, since nobody could sign in as the admin it makes. Either way
    the database is reached: serve does not start on one it cannot reach."""
    from app.admin import accounts

    async with database.connect(url) as conn:
        if not settings.session_secret_ok:
            return
        token = await accounts.new_setup_token(conn)
    if token is not None:
        link = f"{settings.public_base_url}/admin/setup?token={token}"
        log.warning("admin setup link", url=link)
        # Also plainly, apart from the JSON log lines, for whoever just ran the command.
        print(f"Open {link} to create the first admin", file=sys.stderr, flush=True)


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
                conn,
                document,
                sections,
                _after_load(),
                source=str(path),
                settings=settings,
                actor=audit.CLI,
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
        pins = _give_pins(document.get("riders", []))
        counts = await load_document(
            conn,
            document,
            _sections(),
            _after_load(),
            source="demo",
            settings=settings,
            actor=audit.CLI,
        )
        print("demo data: " + ", ".join(f"{name} {count}" for name, count in counts.items()))
        for rider in pins:
            print(
                f"demo rider {rider['riderId']} ({rider['name']}, {rider['market']}): "
                f"PIN {rider['pin']}, sign in at {settings.public_base_url}/"
            )
        if admin_email is not None:
            await _demo_admin(conn, admin_email)


DEMO_RIDERS_WITH_PINS = 3


def _give_pins(riders: list[dict]) -> list[dict]:
    """A few active demo riders get a random PIN, printed once, so the rider app can be tried
    at once; the others have none, as riders have until the team sets one."""
    chosen = [rider for rider in riders if rider["status"] == "active"][:DEMO_RIDERS_WITH_PINS]
    for rider in chosen:
        rider["pin"] = f"{secrets.randbelow(1_000_000):06d}"
    return chosen


async def _demo_admin(conn, email: str) -> None:
    """A demo admin, only when asked: a random password printed this once (never stored)."""

    password = secrets.token_urlsafe(12)
    # The demo shows the whole panel: an owner.
    await _save_admin(conn, email, "Demo Admin", password, role="owner")
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
        await run_locked(JOBS[name], context, actor=audit.CLI)
    except (JobLocked, JobFailed) as exc:
        raise CommandError(str(exc)) from None
    finally:
        await pool.close()


def run_job(settings: Settings, args: argparse.Namespace) -> None:
    asyncio.run(_run_job(settings, database_url(settings, log), args.job))


def restore(settings: Settings, args: argparse.Namespace) -> None:
    """Restore an archive into an empty database and say what it holds (docs/backups.md#restore)."""
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

    async with database.connect(url) as conn, conn.transaction():
        if not await revoke_links(conn, rider_id):
            raise CommandError(f"no rider {rider_id!r}")
        await audit.record(conn, audit.CLI, "links.revoked", rider_id, "sessions ended")
    print(f"{rider_id}: every one-tap link and rider session issued until now is refused")


def revoke_links(settings: Settings, args: argparse.Namespace) -> None:
    asyncio.run(_revoke(database_url(settings, log), args.rider_id))


async def _save_admin(conn, email: str, name: str | None, password: str, role=None, markets=None):
    """create_or_reset with its audit event, in one transaction (a changed role or markets is
    audited by create_or_reset itself); its row."""
    from app.admin import accounts

    async with conn.transaction():
        row = await accounts.create_or_reset(
            conn, email, name, password, role=role, markets=markets
        )
        if row["created"]:
            role_text = accounts.role_text(row["role"], row["markets"])
            summary = f"{role_text}, by the command line"
            await audit.record(conn, audit.CLI, "admin.created", email, summary)
        else:
            summary = "new password, sessions ended"
            await audit.record(conn, audit.CLI, "admin.password_reset", email, summary)
    return row


async def _create_admin(url: str, email: str, name: str | None, password: str, role, markets):
    from app.admin import accounts

    async with database.connect(url) as conn:
        try:
            row = await _save_admin(conn, email, name, password, role, markets)
        except accounts.LastOwner:
            raise CommandError(
                f"{email} is the last active owner: make another admin an owner first"
            ) from None
    role_text = accounts.role_text(row["role"], row["markets"])
    if row["created"]:
        print(f"admin {email} created: {role_text}")
    else:
        print(f"admin {email} updated: new password, sessions ended; {role_text}")


def _role_and_markets(args: argparse.Namespace) -> tuple[str | None, list[str] | None]:
    """--role and --markets (comma-separated codes, `all` or empty for every market) as
    create_or_reset takes them; CommandError naming a wrong one."""
    from app.admin.roles import ROLES
    from app.training.riders import MARKETS

    if args.role is not None and args.role not in ROLES:
        raise CommandError(f"--role: {args.role!r} is not one of {', '.join(reversed(ROLES))}")
    if args.markets is None:
        return args.role, None
    codes = [code.strip().upper() for code in args.markets.split(",") if code.strip()]
    if codes == ["ALL"]:
        codes = []
    unknown = [code for code in codes if code not in MARKETS]
    if unknown:
        raise CommandError(
            f"--markets: {', '.join(unknown)} is not a market code ({', '.join(MARKETS)})"
        )
    return args.role, list(dict.fromkeys(codes))


def _check_email(email: str) -> None:
    from app.admin.sign_in import EMAIL

    try:
        EMAIL(email)
    except ValidationError:
        raise CommandError(f"not an email address: {email!r}") from None


def create_admin(settings: Settings, args: argparse.Namespace) -> None:
    from app.core.passwords import MIN_LENGTH

    _check_email(args.email)
    role, markets = _role_and_markets(args)
    password = sys.stdin.readline().removesuffix("\n").removesuffix("\r")
    if len(password) < MIN_LENGTH:
        raise CommandError(
            f"the password (read from standard input) must have at least {MIN_LENGTH} characters"
        )
    url = database_url(settings, log)
    asyncio.run(_create_admin(url, args.email, args.name, password, role, markets))


async def _create_api_key(url: str, name: str, scopes: list[str], days: int | None) -> None:
    from app.core import api_keys, audit

    async with database.connect(url) as conn, conn.transaction():
        created = await api_keys.create(conn, name, scopes, days)
        if created is None:
            raise CommandError(f"an API key named {name!r} exists already")
        summary = api_keys.summary(scopes, days)
        await audit.record(conn, audit.CLI, "api_key.created", name, summary)
    print(f"API key {name} created: {summary}. It is shown once, on the next line:")
    print(created.key)


def create_api_key(settings: Settings, args: argparse.Namespace) -> None:
    from app.core import api_keys

    problem = api_keys.name_problem(args.name) or api_keys.scopes_problem(args.scope)
    if problem:
        raise CommandError(problem)
    days = None
    if args.expires_days is not None:
        try:
            days = api_keys.expiry_days(args.expires_days)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
    scopes = list(dict.fromkeys(args.scope))
    asyncio.run(_create_api_key(database_url(settings, log), args.name, scopes, days))


async def _revoke_api_key(url: str, name: str) -> None:
    from app.core import api_keys, audit

    async with database.connect(url) as conn, conn.transaction():
        scopes = await api_keys.revoke(conn, name)
        if scopes is None:
            raise CommandError(f"no API key named {name!r} that is not revoked already")
        await audit.record(conn, audit.CLI, "api_key.revoked", name, api_keys.summary(scopes))
    print(f"API key {name} revoked: every instance refuses it within 5 seconds")


def revoke_api_key(settings: Settings, args: argparse.Namespace) -> None:
    asyncio.run(_revoke_api_key(database_url(settings, log), args.name))
