"""The audit log (docs/audit.md): who changed what, through the panel or the
command line. An event is written on the connection of the change it records, inside that
change's transaction, so the two are committed or lost together.

A summary says what changed in counts and filters; it never holds a PIN, a password, a key,
a token or a rider's contact details.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from app.core import sql
from app.core.database import Db

SQL = sql.load("core", "record_audit_event")

# The table's limits (migration 0036): a longer target or summary is cut to fit, so that a
# long email or filter never refuses the change it describes.
TARGET_MAX = 200
SUMMARY_MAX = 1000
ADDRESS_MAX = 64


@dataclass(frozen=True)
class Actor:
    """Who made a change: an admin's email and client address, or the command line."""

    name: str
    address: str | None = None


CLI = Actor("cli")


def _cut(text: str | None, limit: int) -> str | None:
    if text is None or len(text) <= limit:
        return text
    return text[: limit - 1] + "…"


async def record(
    db: Db, actor: Actor, action: str, target: str | None = None, summary: str = ""
) -> None:
    """Appends the event `action` (`rider.pin_reset`, `riders.exported`, …) on `target` (a
    rider ID, a path's id, an email…). Call it on the change's connection, in its transaction."""
    await db.execute(
        SQL.record_audit_event,
        actor.name,
        _cut(actor.address, ADDRESS_MAX),
        action,
        _cut(target, TARGET_MAX),
        _cut(summary, SUMMARY_MAX),
    )


def described(values: Mapping[str, object]) -> str:
    """`name=value, …` of the values given (lists joined by `|`; None, empty and False left
    out; True as the name alone): the filters or fields of a summary."""
    parts = []
    for name, value in values.items():
        if value is None or value is False or value == "" or value == []:
            continue
        if value is True:
            parts.append(name)
        elif isinstance(value, Iterable) and not isinstance(value, str):
            parts.append(f"{name}={'|'.join(str(item) for item in value)}")
        else:
            parts.append(f"{name}={value}")
    return ", ".join(parts)
