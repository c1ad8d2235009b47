"""The training family's SQL, one function a use; bulk work passes arrays to one statement."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

import asyncpg

from app.core import sessions, sql
from app.training.riders import Rider

SQL = sql.load(
    "training",
    "upsert_riders",
    "run_rules",
    "save_flag",
    "assign_flag_paths",
    "assign_path",
    "completions_page",
    "missing_keys",
)


@dataclass(frozen=True)
class SavedRiders:
    inserted: int
    updated: int
    enrollments_created: int

    def body(self, errors: list[dict]) -> dict:
        """The 200 answer of POST /api/v1/riders."""
        return {
            "inserted": self.inserted,
            "updated": self.updated,
            "enrollmentsCreated": self.enrollments_created,
            "errors": errors,
        }


async def save_riders(conn: asyncpg.Connection, riders: Sequence[Rider]) -> SavedRiders:
    """Upsert riders (IDs unique), then run the automatic rules for those of them that can
    newly match one; one transaction.

    Checking only the saved riders that are new or changed what a rule reads (market, vehicle
    type, nationality, status) is enough: any other rider cannot newly match a rule unless a
    path changed, and every path change runs the rules for every rider (load-data runs them
    all after a file, the panel's path form that path's).
    """
    async with conn.transaction():
        inserted, updated, due = await upsert_riders(conn, riders)
        created = await run_rules(conn, due) if due else 0
    return SavedRiders(inserted, updated, created)


async def upsert_riders(
    conn: asyncpg.Connection, riders: Sequence[Rider]
) -> tuple[int, int, list[str]]:
    """Create or update riders (IDs unique); returns (inserted, updated, the IDs of the riders
    the rules must see). Riders set inactive or sent a PIN lose their rider-app sessions in the
    same transaction (a PIN sent counts as a change: its hash is salted anew either way)."""
    # The riders go as one JSON array of their objects (orjson writes the dataclasses whole; the
    # PIN itself is None by now: only its hash is stored).
    saved = await conn.fetchrow(
        SQL.upsert_riders,
        riders,
        {r.rider_id: r.language for r in riders if r.language},
        {r.rider_id: r.status for r in riders if r.status},
    )
    signed_out = [r.rider_id for r in riders if r.pin_hash or r.status == "inactive"]
    if signed_out:
        await sessions.revoke_riders(conn, signed_out)
    return saved["inserted"], saved["updated"], saved["rules_due"]


async def run_rules(
    conn: asyncpg.Connection,
    rider_ids: Sequence[str] | None,
    path_id: uuid.UUID | None = None,
) -> int:
    """Run the automatic rules for these riders (None: every rider), of one path (None: every
    path); returns assignments made. Their webhook events are written by the trigger on
    assignments, in the same statement."""
    return await conn.fetchval(SQL.run_rules, rider_ids, path_id)


async def save_flag(
    conn: asyncpg.Connection,
    rider_id: str,
    flag_type: str,
    note: str | None,
    source: str = "api",
) -> tuple[uuid.UUID, list[uuid.UUID]] | None:
    """Save the flag (`source` 'api' or 'admin') and assign its paths in one transaction,
    with their webhook events: (flag_id, assigned path IDs), or None when the rider does not
    exist."""
    async with conn.transaction():
        flag_id = await conn.fetchval(SQL.save_flag, rider_id, flag_type, note, source)
        if flag_id is None:
            return None
        rows = await conn.fetch(SQL.assign_flag_paths, rider_id, flag_type, flag_id)
    return flag_id, [row["path_id"] for row in rows]


async def assign_path(
    conn: asyncpg.Connection,
    path_id: uuid.UUID,
    rider_ids: Sequence[str] | None,
    markets: Sequence[str] | None,
    vehicle_types: Sequence[str] | None,
    statuses: Sequence[str] | None,
    *,
    why: str = "api",
    cities: Sequence[str] | None = None,
    preview: bool = False,
) -> int | None:
    """Assignments created, with their webhook events (with `preview`: that would be created,
    nothing written), or None when the path does not exist."""
    chosen = {
        "rider_ids": rider_ids,
        "markets": markets,
        "vehicle_types": vehicle_types,
        "statuses": statuses,
        "cities": cities,
    }
    row = await assign_path_counts(conn, path_id, chosen, why=why, preview=preview)
    if row is None:
        return None
    return row["would_create"] if preview else row["created"]


async def assign_path_counts(
    conn: asyncpg.Connection,
    path_id: uuid.UUID,
    chosen: Mapping[str, Sequence[str] | None],
    *,
    why: str,
    preview: bool = False,
    expected: int | None = None,
) -> asyncpg.Record | None:
    """assign_path's row (created, would_create, matched; see its SQL) for the riders `chosen`
    (rider_ids, markets, vehicle_types, statuses, cities; None or absent: any), or None when the
    path does not exist. With `expected`, nothing is written unless that many riders would get
    the path: a confirm keeps to the count its preview showed."""
    row = await conn.fetchrow(
        SQL.assign_path,
        path_id,
        chosen.get("rider_ids"),
        chosen.get("markets"),
        chosen.get("vehicle_types"),
        chosen.get("statuses"),
        why,
        chosen.get("cities"),
        preview,
        expected,
    )
    return row if row["path_found"] else None


async def completions_page(
    conn: asyncpg.Connection, after: tuple[datetime, str, uuid.UUID], limit: int
) -> list[asyncpg.Record]:
    return await conn.fetch(SQL.completions_page, *after, limit)


async def missing_keys(conn: asyncpg.Connection, riders: list, courses: list) -> set[tuple]:
    """The ("rider", id) and ("course", id) of those named that do not exist."""
    rows = await conn.fetch(SQL.missing_keys, riders, courses)
    return {(row["kind"], row["key"]) for row in rows}
