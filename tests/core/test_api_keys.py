"""Integrators' API keys (docs/security.md, "API keys"): made and revoked on the command line,
kept as a hash, taken on their scopes' endpoints only, beside the environment's keys; rotated
with no restart, refused when revoked (on another instance too) or expired; last use, the
Idempotency-Keys and the metrics per key."""

from __future__ import annotations

import asyncio
import hashlib
import re
import time

import orjson
import pytest

from app.core import api_keys
from app.core.keys import POOL
from app.web import create_app
from tests.conftest import TEST_KEYS, make_settings
from tests.core.test_cli import run
from tests.core.test_metrics import SCRAPE, TOKEN, samples, value
from tests.training.helpers import add_course, add_result, add_rider, utc

KEY = re.compile(r"rok_[A-Za-z0-9_-]{43}")
# One endpoint that reads nothing a test must arrange, for each scope.
ENDPOINTS = {
    "training": "/api/v1/completions",
    "checks": "/api/v2/checks",
    "shop-import": "/api/products",
    "shop-orders": "/api/v1/exchanges/orders",
}
SHOP = ("shop-import", "shop-orders")
ENV_VARIABLES = {
    "training": "INTEGRATION_API_KEY",
    "checks": "CHECKS_API_KEY",
    "shop-import": "SHOP_IMPORT_API_KEY",
    "shop-orders": "SHOP_ORDERS_API_KEY",
}


def headers(scope: str, key: str) -> dict[str, str]:
    return {"api-key": key} if scope in SHOP else {"x-api-key": key}


def refused(scope: str) -> int:
    """A wrong key's status: the shop's 403, else 401."""
    return 403 if scope in SHOP else 401


async def call(client, scope: str, key: str) -> int:
    response = await client.get(ENDPOINTS[scope], headers=headers(scope, key))
    return response.status


async def create(db, name: str, *scopes: str, days: int | None = None) -> str:
    return (await api_keys.create(db, name, list(scopes), days)).key


def cli(database_url: str, session_env: dict, *args: str):
    return run(*args, env={"DATABASE_URL": database_url, **session_env})


def assert_one_line_error(result, text: str) -> None:
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and text in lines[0], result.stderr
    assert "Traceback" not in result.stderr and not KEY.search(result.stdout)


async def until(check, deadline_seconds: float = 20.0):
    """Polls the coroutine function `check` until it answers true, within the deadline."""
    deadline = time.monotonic() + deadline_seconds
    while not await check():
        assert time.monotonic() < deadline, "not within the deadline"
        await asyncio.sleep(0.1)


async def test_create_api_key_prints_the_key_once_and_keeps_its_hash(
    database_url, session_env, db, client
):
    result = cli(
        database_url,
        session_env,
        "create-api-key",
        "acme-lms",
        "--scope",
        "training",
        "--scope",
        "shop-orders",
        "--expires-days",
        "30",
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    key = lines[-1]
    assert KEY.fullmatch(key)
    assert "acme-lms" in lines[-2] and key not in "\n".join(lines[:-1])
    assert key not in result.stderr
    row = await db.fetchrow("SELECT * FROM api_keys")
    assert row["name"] == "acme-lms" and row["scopes"] == ["training", "shop-orders"]
    assert row["key_hash"] == hashlib.sha256(key.encode()).digest()
    assert row["key_start"] == key[:8]
    assert 29 < (row["expires_at"] - row["created_at"]).total_seconds() / 86400 <= 30
    assert key not in repr(dict(row))
    event = await db.fetchrow("SELECT actor, address, action, target, summary FROM audit_events")
    assert dict(event) == {
        "actor": "cli",
        "address": None,
        "action": "api_key.created",
        "target": "acme-lms",
        "summary": "scopes training, shop-orders, expires in 30 days",
    }
    assert await call(client, "training", key) == 200
    assert await call(client, "shop-orders", key) == 200


async def test_revoke_api_key_refuses_the_key_and_writes_the_event(
    database_url, session_env, db, client
):
    key = await create(db, "acme", "checks")
    assert await call(client, "checks", key) == 200
    result = cli(database_url, session_env, "revoke-api-key", "acme")
    assert result.returncode == 0, result.stderr
    assert "acme" in result.stdout
    assert await db.fetchval("SELECT revoked_at IS NOT NULL FROM api_keys") is True
    await until(lambda: _is(client, "checks", key, 401))
    event = await db.fetchrow("SELECT actor, action, target, summary FROM audit_events")
    assert tuple(event) == ("cli", "api_key.revoked", "acme", "scopes checks")


async def _is(client, scope: str, key: str, status: int) -> bool:
    return await call(client, scope, key) == status


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("create-api-key", "taken", "--scope", "training"), "exists already"),
        (("create-api-key", "new", "--scope", "billing"), "Unknown scope 'billing'"),
        (("create-api-key", "new", "--scope", ""), "Unknown scope ''"),
        (("create-api-key", "new", "--scope", "checks", "--expires-days", "٣"), "whole number"),
        (("create-api-key", "new", "--scope", "checks", "--expires-days", "0"), "whole number"),
        (("create-api-key", "new", "--scope", "checks", "--expires-days", "-1"), "whole number"),
        (("create-api-key", "new", "--scope", "checks", "--expires-days", "3651"), "whole number"),
        (("create-api-key", "new", "--scope", "checks", "--expires-days", "2.5"), "whole number"),
        (("create-api-key", "with space", "--scope", "checks"), "A key's name is"),
        (("create-api-key", "a" * 65, "--scope", "checks"), "A key's name is"),
        (("create-api-key", ".hidden", "--scope", "checks"), "A key's name is"),
        (("create-api-key", "é", "--scope", "checks"), "A key's name is"),
        (("revoke-api-key", "nobody"), "no API key named 'nobody'"),
        (("revoke-api-key", "gone"), "no API key named 'gone'"),
    ],
)
async def test_command_errors_are_one_line_and_change_nothing(
    database_url, session_env, db, args, message
):
    await create(db, "taken", "training")
    await create(db, "gone", "training")
    await api_keys.revoke(db, "gone")
    before = await db.fetch("SELECT * FROM api_keys ORDER BY id")
    assert_one_line_error(cli(database_url, session_env, *args), message)
    assert await db.fetch("SELECT * FROM api_keys ORDER BY id") == before
    assert await db.fetchval("SELECT count(*) FROM audit_events") == 0


async def test_create_api_key_needs_a_scope(database_url, session_env, db):
    result = cli(database_url, session_env, "create-api-key", "acme")
    assert result.returncode != 0 and "--scope" in result.stderr
    assert "Traceback" not in result.stderr
    assert await db.fetchval("SELECT count(*) FROM api_keys") == 0


async def test_a_key_works_on_its_scopes_only(db, client):
    key = await create(db, "acme", "training", "shop-import")
    for scope in ENDPOINTS:
        expected = 200 if scope in ("training", "shop-import") else refused(scope)
        assert await call(client, scope, key) == expected, scope
    bearer = await client.get(ENDPOINTS["training"], headers={"Authorization": f"Bearer {key}"})
    assert bearer.status == 200
    # Family C's unauthorized body; the shop's 403 keeps its own shape.
    wrong = await client.get(ENDPOINTS["checks"], headers={"x-api-key": key})
    assert await wrong.json() == {"error": "Invalid API key", "code": "unauthorized"}
    shop = await client.get(ENDPOINTS["shop-orders"], headers={"api-key": key})
    assert (await shop.json())["success"] is False


async def test_two_keys_of_one_scope_both_work_and_one_is_revoked_alone(db, client):
    old = await create(db, "acme-2025", "training")
    new = await create(db, "acme-2026", "training")
    assert await call(client, "training", old) == 200
    assert await call(client, "training", new) == 200
    await api_keys.revoke(db, "acme-2025")
    await until(lambda: _is(client, "training", old, 401))
    assert await call(client, "training", new) == 200
    # The environment's key works beside them.
    assert await call(client, "training", TEST_KEYS["INTEGRATION_API_KEY"]) == 200


@pytest.mark.parametrize("scope", ENDPOINTS)
async def test_an_expired_key_is_refused(db, client, scope):
    key = await create(db, "acme", scope, days=1)
    await db.execute("UPDATE api_keys SET expires_at = now() - interval '1 second'")
    assert await call(client, scope, key) == refused(scope)
    assert await db.fetchval("SELECT last_used_at FROM api_keys") is None


async def test_a_key_that_expires_while_remembered_is_refused(db, client):
    key = await create(db, "acme", "training", days=1)
    await db.execute("UPDATE api_keys SET expires_at = now() + interval '1 second'")
    assert await call(client, "training", key) == 200
    await until(lambda: _is(client, "training", key, 401))


async def test_a_revoked_key_is_refused_on_a_second_instance(aiohttp_client, database_url, db):
    first, second = [
        await aiohttp_client(create_app(make_settings(), database_url)) for _ in range(2)
    ]
    key = await create(db, "acme", "shop-import")
    assert await call(first, "shop-import", key) == 200
    assert await call(second, "shop-import", key) == 200
    await api_keys.revoke(db, "acme")
    await until(lambda: _is(second, "shop-import", key, 403))
    await until(lambda: _is(first, "shop-import", key, 403))


async def test_a_key_seen_within_seconds_costs_no_database_read(db, client, monkeypatch):
    """What a process read of a key serves it for FRESH seconds: a key revoked meanwhile still
    passes there (the database is not read), and is refused once they have passed."""
    key = await create(db, "acme", "training")
    cache, pool = api_keys.KeyCache(), client.app[POOL]
    assert (await cache.caller(pool, key, "training")).name == "acme"
    await api_keys.revoke(db, "acme")
    assert (await cache.caller(pool, key, "training")).name == "acme"
    later = time.monotonic() + api_keys.FRESH
    monkeypatch.setattr(api_keys.time, "monotonic", lambda: later)
    assert await cache.caller(pool, key, "training") is None


async def test_a_new_key_works_at_once_after_a_wrong_one(db, client):
    # A refused key's answer is remembered; another key, just made, is read at once.
    assert await call(client, "checks", "rok_unknown") == 401
    key = await create(db, "acme", "checks")
    assert await call(client, "checks", key) == 200


async def test_last_use_is_written_at_most_once_a_minute(db, client):
    key = await create(db, "acme", "training")
    pool = client.app[POOL]
    assert await db.fetchval("SELECT last_used_at FROM api_keys") is None
    # A fresh cache a call: each reads the database, as another process would.
    assert await api_keys.KeyCache().caller(pool, key, "training")
    first = await db.fetchval("SELECT last_used_at FROM api_keys")
    assert first is not None
    assert await api_keys.KeyCache().caller(pool, key, "training")
    assert await db.fetchval("SELECT last_used_at FROM api_keys") == first
    await db.execute("UPDATE api_keys SET last_used_at = now() - interval '61 seconds'")
    stale = await db.fetchval("SELECT last_used_at FROM api_keys")
    assert await api_keys.KeyCache().caller(pool, key, "training")
    assert await db.fetchval("SELECT last_used_at FROM api_keys") > stale


@pytest.mark.parametrize("scope", ENDPOINTS)
async def test_without_environment_key_a_database_key_works(make_client, db, scope):
    client = await make_client(**{ENV_VARIABLES[scope]: None})
    response = await client.get(ENDPOINTS[scope], headers=headers(scope, "anything"))
    assert response.status == 503
    assert ENV_VARIABLES[scope] in (await response.text())
    key = await create(db, "acme", scope)
    assert await call(client, scope, key) == 200
    # A wrong or missing key is refused (no longer "disabled") once this process has read the
    # scope again, within a second.
    await until(lambda: _is(client, scope, "wrong", refused(scope)))
    missing = await client.get(ENDPOINTS[scope])
    assert missing.status == 401
    await api_keys.revoke(db, "acme")
    # No live key is left for the scope: disabled again.
    await until(lambda: _is(client, scope, key, 503))


async def test_without_environment_key_the_completions_feed_pages(make_client, db):
    client = await make_client(INTEGRATION_API_KEY=None)
    key = await create(db, "acme", "training")
    course = await add_course(db)
    for number in (1, 2):
        await add_rider(db, f"R-{number}")
        await add_result(db, f"R-{number}", course, utc(2026, 3, number), f"KPQRSTV{number + 1}")
    auth = {"x-api-key": key}
    first = await (await client.get("/api/v1/completions?limit=1", headers=auth)).json()
    assert [item["riderId"] for item in first["data"]] == ["R-1"]
    url = f"/api/v1/completions?limit=1&cursor={first['nextCursor']}"
    second = await (await client.get(url, headers=auth)).json()
    assert [item["riderId"] for item in second["data"]] == ["R-2"]


async def test_a_non_utf8_key_is_refused(db, client):
    await create(db, "acme", "training")
    response = await client.get(ENDPOINTS["training"], headers={"x-api-key": "rok_\udcff"})
    assert response.status == 401


async def test_idempotency_keys_are_per_api_key(db, client):
    await add_rider(db, "R-1")
    first, second = await create(db, "acme", "training"), await create(db, "globex", "training")

    async def flag(key: str, kind: str):
        response = await client.post(
            "/api/v1/flags",
            data=orjson.dumps({"riderId": "R-1", "type": kind}),
            headers={"x-api-key": key, "Idempotency-Key": "same"},
        )
        return response.status, response.headers.get("Idempotent-Replayed")

    assert await flag(first, "late_delivery") == (200, None)
    # Another integrator's same Idempotency-Key with another body is its own request.
    assert await flag(second, "equipment") == (200, None)
    assert await flag(first, "late_delivery") == (200, "true")
    assert await flag(TEST_KEYS["INTEGRATION_API_KEY"], "late_delivery") == (200, None)
    assert await db.fetchval("SELECT count(*) FROM flags") == 3


async def test_api_requests_are_counted_per_key(make_client, db):
    client = await make_client(METRICS_TOKEN=TOKEN)
    key = await create(db, "acme", "checks")

    async def scraped():
        return samples(await (await client.get("/metrics", headers=SCRAPE)).text())

    labels = {"route": "/api/v2/checks", "status": "200"}
    before = await scraped()
    for _ in range(3):
        assert await call(client, "checks", key) == 200
    assert await call(client, "checks", TEST_KEYS["CHECKS_API_KEY"]) == 200
    assert await call(client, "checks", "wrong") == 401
    after = await scraped()

    def moved(**more) -> float:
        return value(after, "api_requests_total", **more) - value(
            before, "api_requests_total", **more
        )

    assert moved(key="acme", **labels) == 3
    assert moved(key="env", **labels) == 1
    assert moved(key="acme", route="/api/v2/checks", status="401") == 0
