"""What a form of the panel did, said once on the page its POST redirects to
(docs/admin-panel.md, "After every action").

Every successful POST answers 303 to a page; the message travels as `?notice=<id>`, a random
reference to a row of `admin_notices` that only the same admin session may read. The page that
shows it deletes it, so a refresh shows the page without it and never sends the form again.
The row is in the database, not in a process, so the redirect may land on any instance."""

from __future__ import annotations

import uuid

from aiohttp import web

from app.core import pages, sessions, sql
from app.core.database import Db
from app.core.keys import POOL

SQL = sql.load("admin", "create_notice", "take_notice")

QUERY = "notice"
NOTICE = web.RequestKey("admin_notice", str)


async def see_other(request: web.Request, location: str, message: str, db: Db | None = None):
    """A 303 to `location` that shows `message` there once. `db`: the action's transaction,
    so the notice is kept only with what it says was done (default: the pool)."""
    session_hash = sessions.id_hash(sessions.ADMIN, request)
    notice_id = await (db or request.app[POOL]).fetchval(SQL.create_notice, session_hash, message)
    if notice_id is None:  # the session ended with the action: the next page is sign-in
        return pages.see_other(location)
    joint = "&" if "?" in location else "?"
    return pages.see_other(f"{location}{joint}{QUERY}={notice_id}")


async def take(request: web.Request) -> None:
    """Puts the notice named by a GET's `?notice=` in `request[NOTICE]`, once; a malformed,
    foreign or shown reference is ignored (the page is shown without it)."""
    if request.method != "GET" or QUERY not in request.query:
        return
    try:
        notice_id = uuid.UUID(request.query[QUERY])
    except ValueError:
        return
    session_hash = sessions.id_hash(sessions.ADMIN, request)
    message = await request.app[POOL].fetchval(SQL.take_notice, notice_id, session_hash)
    if message is not None:
        request[NOTICE] = message
