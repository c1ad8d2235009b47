"""Defects a fuzz probe and a security review found (issue 14): bad text, bad digits, bad header
bytes, 405 without Allow, cacheable answers, an outage's log flood, tokens in logged paths."""

import asyncio

import pytest
import structlog

from app.core import database, middleware
from app.core.keys import POOL
from tests.conftest import TEST_KEYS
from tests.shop.conftest import IMPORT, load, product, user

INTEGRATION = {"x-api-key": TEST_KEYS["INTEGRATION_API_KEY"]}
FLEET = [{"name": "Fleet"}]
SURROGATE = "Text must not contain an unpaired surrogate (\\ud800 to \\udfff)."


async def raw_request(client, head: bytes) -> tuple[int, bytes]:
    """Send `head` (a request without body) as raw bytes; the status and the whole answer."""
    reader, writer = await asyncio.open_connection(client.server.host, client.server.port)
    writer.write(head + b"Connection: close\r\n\r\n")
    await writer.drain()
    answer = await reader.read()
    writer.close()
    return int(answer.split(b" ", 2)[1]), answer


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/v1/riders", b'{"riders": [{"riderId": "R-1", "name": "\\ud800", "market": "AE"}]}'),
        ("/api/v1/flags", b'{"riderId": "R-1", "type": "equipment", "note": "\\udfff"}'),
        (
            "/api/v1/assignments",
            b'{"pathId": "5b0e8a52-3f6c-4d1e-9a57-0c2f1e7d9b34", "riderIds": ["\\ud800"]}',
        ),
    ],
)
async def test_an_unpaired_surrogate_is_400_and_writes_nothing(client, db, path, body):
    response = await client.post(path, data=body, headers=INTEGRATION)
    assert response.status == 400
    assert await response.json() == {"error": SURROGATE, "code": "invalid_request"}
    assert await db.fetchval("SELECT count(*) FROM riders") == 0


async def test_an_unpaired_surrogate_in_an_import_is_422(client, db):
    body = b'{"users": [{"email": "a@example.com", "first_name": "\\ud800"}]}'
    response = await client.post("/api/import/users", data=body, headers=IMPORT)
    assert response.status == 422
    assert await response.json() == {"success": False, "message": SURROGATE}
    assert await db.fetchval("SELECT count(*) FROM shop_users") == 0


async def test_a_valid_surrogate_pair_is_text(client, db):
    body = b'{"riders": [{"riderId": "R-1", "name": "\\ud83d\\ude00", "market": "AE"}]}'
    response = await client.post("/api/v1/riders", data=body, headers=INTEGRATION)
    assert response.status == 200
    assert await db.fetchval("SELECT name FROM riders") == "\U0001f600"


@pytest.mark.parametrize("digit", ["\u00b9", "\u0663", "\uff11", "\u0661"])
async def test_only_ascii_digits_name_a_user(client, db, digit):
    await load(db, partners=FLEET, products=[product(1)], users=[user(1), user(3)])
    path = f"/api/users/{digit}/kit"
    assert (await client.get(path, headers=IMPORT)).status == 404
    write = await client.post(
        path, json={"product_id": 1, "quantity": 1, "mandatory": True}, headers=IMPORT
    )
    assert write.status == 404
    assert await db.fetchval("SELECT count(*) FROM shop_user_kits") == 0


@pytest.mark.parametrize("given", ["\u00b9", "\u0663"])
async def test_an_import_id_in_other_digits_is_a_validation_error(client, db, given):
    await load(db, partners=FLEET, users=[user(3)])
    record = {
        "id": given,
        "email": "new@example.com",
        "first_name": "A",
        "last_name": "B",
        "partner_name": "P",
        "active": 1,
    }
    response = await client.post("/api/import/users", json={"users": [record]}, headers=IMPORT)
    assert response.status == 200
    body = (await response.json())["results"]
    assert body["created"] == body["updated"] == 0
    assert body["failed"][0]["error"] == "The id field must be an integer."
    assert body["failed"][0]["id"] is None
    assert await db.fetchval("SELECT email FROM shop_users WHERE id = 3") == "user3@example.com"


async def test_the_users_list_reads_only_ascii_page_numbers(client, db):
    # int() would read Arabic-Indic ٢ as 2: it is no integer here (422), as the document says.
    await load(db, partners=FLEET, users=[user(1), user(2)])
    response = await client.get("/api/users?limit=1&page=\u0662", headers=IMPORT)
    assert response.status == 422
    assert (await response.json())["errors"] == {"page": ["The page field must be an integer."]}


@pytest.mark.parametrize(
    ("header", "status"),
    [
        (b"x-api-key: \xff\xfe", 401),
        (b"Authorization: Bearer \xc3(", 401),
        (b"x-api-key: test-integration-key\xff", 401),
    ],
)
async def test_a_key_with_non_utf8_bytes_is_a_wrong_key(client, header, status):
    with structlog.testing.capture_logs() as logs:
        got, answer = await raw_request(
            client, b"GET /api/v1/completions HTTP/1.1\r\nHost: x\r\n" + header + b"\r\n"
        )
    assert got == status
    assert b'"code":"unauthorized"' in answer
    assert not [e for e in logs if e["event"] == "unhandled error"]


async def test_a_shop_key_with_non_utf8_bytes_is_forbidden(client):
    got, answer = await raw_request(
        client, b"GET /api/products HTTP/1.1\r\nHost: x\r\napi-key: \xff\xfe\r\n"
    )
    assert got == 403
    assert b'"success":false' in answer


async def test_405_names_the_allowed_methods(client):
    response = await client.delete("/api/v1/riders", headers=INTEGRATION)
    assert response.status == 405
    assert response.headers["Allow"] == "POST"


async def test_json_answers_are_not_cacheable(client):
    ok = await client.get("/api/v1/completions", headers=INTEGRATION)
    refused = await client.get("/api/v1/completions")
    missing = await client.get("/api/v1/nothing")
    for response in (ok, refused, missing):
        assert response.headers["Cache-Control"] == "no-store"


# The errors of an outage differ directly (dropped sessions) and behind a pooler (its refusals).
@pytest.mark.direct
async def test_an_outage_logs_one_line_per_kind_not_a_traceback_per_request(
    client, database_down, monkeypatch
):
    monkeypatch.setattr(middleware, "OUTAGES", middleware.OutageLog())
    with structlog.testing.capture_logs() as logs:
        async with database_down():
            statuses = [
                (await client.get("/api/v1/completions?limit=1", headers=INTEGRATION)).status
                for _ in range(20)
            ]
    assert set(statuses) == {500}
    assert not [e for e in logs if e["event"] == "unhandled error"]
    outages = [e for e in logs if e["event"] == "database unavailable"]
    kinds = [e["error_class"] for e in outages]
    assert 1 <= len(outages) <= 3 and len(set(kinds)) == len(kinds)
    assert all(e["log_level"] == "error" and "exc_info" not in e for e in outages)


@pytest.mark.parametrize("method", ["GET", "POST"])
async def test_a_token_path_is_redacted_even_when_it_matches_nothing(client, method):
    with structlog.testing.capture_logs() as logs:
        await client.request(method, "/t/secret-token/more")
        await client.request(method, "/t/secret-token")
    lines = [e for e in logs if e["event"] == "request"]
    assert [line["path"] for line in lines] == ["/t/{token}", "/t/{token}"]
    assert "secret-token" not in str(logs)


async def test_a_full_pool_answers_500_quickly_instead_of_queueing(client, monkeypatch):
    monkeypatch.setattr(database, "ACQUIRE_TIMEOUT", 0.3)
    monkeypatch.setattr(middleware, "OUTAGES", middleware.OutageLog())
    pool = client.app[POOL]
    held = [await pool.acquire() for _ in range(database.TURNS)]  # every turn requests have
    try:
        with structlog.testing.capture_logs() as logs:
            response = await client.get("/api/v1/completions?limit=1", headers=INTEGRATION)
        assert response.status == 500
        assert await response.json() == {"error": "Internal server error", "code": "internal_error"}
        (line,) = [e for e in logs if e["event"] == "database unavailable"]
        assert line["error_class"] == "TimeoutError"
    finally:
        for conn in held:
            await pool.release(conn)
    again = await client.get("/api/v1/completions?limit=1", headers=INTEGRATION)
    assert again.status == 200


# Directly the service sends them at connect time; through PgBouncer its connect query sets them.
@pytest.mark.direct
async def test_pooled_sessions_have_statement_and_idle_transaction_limits(client):
    async with client.app[POOL].acquire() as conn:
        assert await conn.fetchval("SHOW statement_timeout") == "1min"
        assert await conn.fetchval("SHOW idle_in_transaction_session_timeout") == "1min"
