"""Server-side sessions (docs/admin-panel.md#every-page): the cookie holds a random id, the table
its SHA-256.

A session is revocable at once (sign-out, a disabled admin, an inactive rider, a new PIN):
every request looks it up, and `touch` refuses a session of a disabled admin.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

import asyncpg
from aiohttp import web

from app.core import sql
from app.core.config import Settings
from app.core.database import Db
from app.core.keys import POOL, SETTINGS

SQL = sql.load(
    "web",
    "create_session",
    "touch_session",
    "delete_session",
    "delete_admin_sessions",
    "delete_rider_sessions",
    "delete_riders_sessions",
    "set_session_language",
)


@dataclass(frozen=True)
class Kind:
    name: str
    cookie: str
    path: str
    lifetime: timedelta
    # A sliding session lives `lifetime` after the last visit, a fixed one after sign-in.
    sliding: bool
    # However often it is visited, a session ends this long after sign-in.
    absolute: timedelta


ADMIN = Kind(
    "admin",
    "admin_session",
    "/admin",
    timedelta(hours=12),
    sliding=True,
    absolute=timedelta(days=7),
)
RIDER = Kind(
    "rider", "rider_session", "/", timedelta(days=7), sliding=False, absolute=timedelta(days=7)
)


@dataclass(frozen=True)
class Session:
    kind: str
    admin_id: int | None
    rider_id: str | None
    csrf_secret: str
    language: str
    expires_at: datetime


def _hash(session_id: str) -> bytes:
    return hashlib.sha256(session_id.encode()).digest()


async def create(
    conn: Db,
    kind: Kind,
    *,
    admin_id: int | None = None,
    rider_id: str | None = None,
    language: str = "en",
) -> str:
    """A new session; returns the id for the cookie (never stored)."""
    session_id = secrets.token_urlsafe(32)
    await conn.execute(
        SQL.create_session,
        _hash(session_id),
        kind.name,
        admin_id,
        rider_id,
        secrets.token_urlsafe(32),
        language,
        kind.lifetime,
    )
    return session_id


def id_hash(kind: Kind, request: web.Request) -> bytes | None:
    """What the table keeps of the session id in the request's cookie, if it has one."""
    session_id = request.cookies.get(kind.cookie)
    return _hash(session_id) if session_id else None


async def load(pool: asyncpg.Pool, kind: Kind, request: web.Request) -> Session | None:
    """The live session named by the request's cookie, its visit recorded; None otherwise."""
    hashed = id_hash(kind, request)
    if hashed is None:
        return None
    row = await pool.fetchrow(
        SQL.touch_session, hashed, kind.name, kind.sliding, kind.lifetime, kind.absolute
    )
    return Session(**row) if row else None


async def revoke(pool: asyncpg.Pool, kind: Kind, request: web.Request) -> None:
    if session_id := request.cookies.get(kind.cookie):
        await pool.execute(SQL.delete_session, _hash(session_id))


async def sign_out(
    request: web.Request, kind: Kind, response: web.StreamResponse
) -> web.StreamResponse:
    """The request's session of `kind` ends, and `response` clears its cookie."""
    await revoke(request.app[POOL], kind, request)
    clear_cookie(response, kind)
    return response


async def revoke_admin(conn: Db, admin_id: int) -> None:
    await conn.execute(SQL.delete_admin_sessions, admin_id)


async def revoke_rider(conn: Db, rider_id: str) -> None:
    await conn.execute(SQL.delete_rider_sessions, rider_id)


async def revoke_riders(conn: Db, rider_ids: list[str]) -> None:
    """Ends every session of these riders in one statement (a bulk save's PIN or status)."""
    await conn.execute(SQL.delete_riders_sessions, rider_ids)


async def remember_language(
    pool: asyncpg.Pool, kind: Kind, request: web.Request, language: str
) -> None:
    """Keeps `language` for the request's session (the rider app's `?lang=`)."""
    if session_id := request.cookies.get(kind.cookie):
        await pool.execute(SQL.set_session_language, _hash(session_id), language)


def set_cookie(
    response: web.StreamResponse,
    kind: Kind,
    session_id: str,
    settings: Settings,
    lifetime: timedelta | None = None,
):
    """The session's cookie, kept by the browser for `lifetime` (default: the kind's)."""
    response.set_cookie(
        kind.cookie,
        session_id,
        max_age=int((lifetime or kind.lifetime).total_seconds()),
        path=kind.path,
        httponly=True,
        secure=settings.secure_cookies,
        samesite="Lax",
    )


def renew_cookie(
    request: web.Request, response: web.StreamResponse, kind: Kind, session: Session
) -> None:
    """A sliding session's cookie lives as long as the session now does (its Max-Age set at
    sign-in would end it while the session lives on); unless the answer already set it (a
    sign-out clears it) or is under way."""
    session_id = request.cookies.get(kind.cookie)
    if (
        kind.sliding
        and session_id
        and kind.cookie not in response.cookies
        and not response.prepared
    ):
        left = session.expires_at - datetime.now(session.expires_at.tzinfo)
        set_cookie(response, kind, session_id, request.app[SETTINGS], left)


def clear_cookie(response: web.StreamResponse, kind: Kind) -> None:
    response.del_cookie(kind.cookie, path=kind.path)
