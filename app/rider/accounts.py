"""Rider sign-in: rider ID and PIN, within the sign-in limits (app/core/throttle.py; a known
device's by app/core/devices.py), a server-side session."""

from __future__ import annotations

import asyncpg

from app.core import devices, sessions, throttle
from app.rider import store
from app.training.pins import pin_matches
from app.training.riders import MAX_LENGTHS

THROTTLE = throttle.sign_in_limits("rider")


class WrongCredentials(Exception):
    """Unknown rider, wrong PIN or a rider without a PIN: one answer for all three."""


class NotActive(Exception):
    """An inactive rider with the right PIN."""


async def sign_in(
    pool: asyncpg.Pool,
    pepper: bytes | None,
    rider_id: str,
    pin: str,
    language: str | None,
    address: str,
    known: devices.Known,
) -> tuple[str, str]:
    """A new session id for the rider, in `language` (else the rider's own), and the account
    its device cookie names (the rider's ID), when `pin` is the rider's (hashed with `pepper`,
    `pins.pepper_of`); WrongCredentials (the attempt stays counted), NotActive or
    throttle.TooManyAttempts (nothing checked) otherwise. The PIN check is one HMAC
    (app/training/pins.py), cheap enough for the event loop.

    The rider ID matches case-insensitively when exactly one rider matches so; an exact match
    always wins (sql/rider/rider_signing_in.sql). The limits count the rider the lookup found
    (the entered ID when none), and a device `known` for this very rider by its own limit
    alone. The PIN "Forgot your PIN?" sent works beside the old one; its first use makes it
    the rider's PIN (docs/rider-app.md, "Forgot your PIN?")."""
    if len(rider_id) > MAX_LENGTHS["riderId"]:  # no such rider: nothing to count or look up
        raise WrongCredentials
    row = await store.rider_signing_in(pool, rider_id)
    account = None if row is None else row["rider_id"]
    subject = rider_id if account is None else account
    attempt = await throttle.admit(pool, THROTTLE, subject, address, known.device(account))
    if row is None or row["pin_hash"] is None:
        throttle.failed(THROTTLE)
        raise WrongCredentials
    new_pin = row["new_pin_hash"] is not None and pin_matches(pepper, row["new_pin_hash"], pin)
    if not new_pin and not pin_matches(pepper, row["pin_hash"], pin):
        throttle.failed(THROTTLE)
        raise WrongCredentials
    await throttle.forget(pool, attempt)
    if row["status"] == "inactive":
        raise NotActive
    if new_pin:
        await store.use_new_pin(pool, account, row["new_pin_hash"])
    return await start_session(pool, account, language or row["language"]), account


async def start_session(pool: asyncpg.Pool, rider_id: str, language: str) -> str:
    return await sessions.create(pool, sessions.RIDER, rider_id=rider_id, language=language)
