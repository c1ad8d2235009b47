"""The audit log (docs/security.md, "Audit log"): who changed what, through the panel or the
command line. An event is written on the connection of the change it records, inside that
change's transaction, so the two are committed or lost together.

A summary says what changed in counts and filters; it never holds a PIN, a password or a key.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core import sql
from app.core.database import Db

SQL = sql.load("core", "record_audit_event")


@dataclass(frozen=True)
class Actor:
    """Who made a change: an admin's email and client address, or the command line."""

    name: str
    address: str | None = None


CLI = Actor("cli")


async def record(
    db: Db, actor: Actor, action: str, target: str | None = None, summary: str = ""
) -> None:
    """Appends the event `action` (`rider.pin_reset`, `riders.exported`, …) on `target` (a
    rider ID, a path's id, an email…). Call it on the change's connection, in its transaction."""
    await db.execute(SQL.record_audit_event, actor.name, actor.address, action, target, summary)
