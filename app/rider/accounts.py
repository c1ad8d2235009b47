"""Rider sign-in: rider ID and PIN, within the sign-in limits (app/core/throttle.py; a known
device's by app/core/devices.py), a server-side session."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import asyncpg

from app.core import devices, sessions, throttle
from app.rider import store
from app.training.pins import hash_pin, pin_matches
from app.training.riders import MAX_LENGTHS

THROTTLE = throttle.sign_in_limits("rider")
# "Forgot your PIN?": every request counts (none is forgotten), 3 per rider in 15 minutes
# whatever the address, 10 per address over all riders; and at most 3 new PINs a rider a day
# (sql/rider/issue_pin_reset.sql).
RESET_THROTTLE = throttle.Limits("pin_reset", per_subject=3, per_address=10)
NEW_PIN_DIGITS = 6


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


@dataclass(frozen=True)
class NewPin:
    """A new PIN to send to the rider's phone, in the rider's language."""

    rider_id: str
    phone: str
    name: str
    language: str
    pin: str


async def new_pin(
    pool: asyncpg.Pool, pepper: bytes | None, rider_id: str, address: str
) -> NewPin | None:
    """A new PIN for the rider `rider_id` names (as sign-in finds them), kept beside the old
    one, when they may be sent one (active, with a PIN and a phone, under the day's limit);
    None otherwise. The same work is done for an ID that names no one, so neither the answer
    nor its time tells whether it exists; throttle.TooManyAttempts past the limits, which count
    the rider found (the entered ID when none). docs/rider-app.md, "Forgot your PIN?"."""
    if len(rider_id) > MAX_LENGTHS["riderId"]:  # no such rider: nothing to count or look up
        return None
    row = await store.rider_signing_in(pool, rider_id)
    account = rider_id if row is None else row["rider_id"]
    await throttle.admit(pool, RESET_THROTTLE, account, address)
    pin = f"{secrets.randbelow(10**NEW_PIN_DIGITS):0{NEW_PIN_DIGITS}d}"
    issued = await store.issue_pin_reset(pool, account, hash_pin(pepper, pin))
    if issued is None:
        return None
    return NewPin(issued["rider_id"], issued["phone"], issued["name"], issued["language"], pin)


async def start_session(pool: asyncpg.Pool, rider_id: str, language: str) -> str:
    return await sessions.create(pool, sessions.RIDER, rider_id=rider_id, language=language)
