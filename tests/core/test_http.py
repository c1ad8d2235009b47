"""The HTTP core: JSON errors in each family's shape, the access line, body limits, the bearer
key guard (the shop's guard: tests/shop/test_auth.py)."""

import asyncio

import pytest
import structlog
from aiohttp import web

from app.core import auth, database
from app.core.http import SMALL_BODY_LIMIT, Bulk, MiB, json_response, read_bulk_json, read_json
from app.core.keys import POOL
from app.web import create_app
from tests.conftest import make_settings
from tests.waiting import until, waits_for_a_lock

# Room for the 5 MiB body below.
ECHO_BULK = Bulk(limit=8 * MiB, containers=16)


async def boom(_request):
    raise RuntimeError("database exploded")


async def rename_riders(request):
    """Renames the riders in the order given, in one transaction (row locks in that order)."""
    body = await read_json(request)
    async with request.app[POOL].acquire() as conn, conn.transaction():
        for rider_id in body["riderIds"]:
            await conn.execute("UPDATE riders SET name = 'Renamed' WHERE rider_id = $1", rider_id)
    return json_response({"renamed": len(body["riderIds"])})


async def echo(request):
    return json_response({"size": len(await read_json(request))})


async def store_text(request):
    body = await read_json(request)
    stored = await request.app[POOL].fetchval("SELECT $1::text", body["text"])
    return json_response({"stored": stored})


async def echo_bulk(request):
    return json_response({"size": len(await read_bulk_json(request, ECHO_BULK))})


@auth.bearer_key("integration_api_key")
async def integration_only(_request):
    return json_response({"ok": True})


@pytest.fixture
def start(aiohttp_client, database_url):
    async def start(**env):
        app = create_app(make_settings(**env), database_url)
        app.router.add_get("/api/v1/boom", boom)
        app.router.add_post("/api/v1/rename", rename_riders)
        app.router.add_get("/api/products/boom", boom)
        app.router.add_post("/api/v1/echo", echo)
        app.router.add_post("/api/v1/echo-bulk", echo_bulk)
        app.router.add_post("/api/v1/text", store_text)
        app.router.add_post("/api/products/text", store_text)
        app.router.add_get("/api/v1/guarded", integration_only)
        return await aiohttp_client(app)

    return start


async def test_unknown_path_is_json_404(client):
    response = await client.get("/api/v1/nothing-here")
    assert response.status == 404
    assert response.content_type == "application/json"
    assert await response.json() == {"error": "Not found", "code": "not_found"}


async def test_unknown_shop_path_has_shop_shape(client):
    response = await client.get("/api/users/1/nothing")
    assert response.status == 404
    assert await response.json() == {"success": False, "message": "Not found"}


async def test_longest_prefix_picks_the_shape(client):
    # /api/v1/exchanges/ (the shop) lies inside /api/v1/ (training): the longer prefix wins.
    shop = await client.get("/api/v1/exchanges/nothing/here")
    assert (shop.status, await shop.json()) == (404, {"success": False, "message": "Not found"})
    training = await client.get("/api/v1/exchangesx")
    assert await training.json() == {"error": "Not found", "code": "not_found"}


async def test_unknown_path_of_an_html_package_is_a_page(client):
    response = await client.get("/t/")
    assert response.status == 404
    assert response.content_type == "text/html"
    assert "<h1>Not found</h1>" in await response.text()


async def test_wrong_method_is_json_405(client):
    response = await client.delete("/api/openapi.json")
    assert response.status == 405
    assert await response.json() == {"error": "Method not allowed", "code": "method_not_allowed"}


async def test_unexpected_failure_is_json_500_with_traceback_in_log(start):
    client = await start()
    with structlog.testing.capture_logs() as logs:
        response = await client.get("/api/v1/boom", headers={"X-Request-Id": "req-42"})
    assert response.status == 500
    assert await response.json() == {"error": "Internal server error", "code": "internal_error"}
    assert "Traceback" not in await response.text()
    failure = next(e for e in logs if e["event"] == "unhandled error")
    assert failure["log_level"] == "error"
    assert failure["exc_info"] is True


async def test_a_concurrent_update_postgresql_rejects_is_409_conflict(
    start, db, database_url, session_env
):
    # A real deadlock: the request locks R-1 then waits for R-2, which this connection holds
    # while it waits for R-1. PostgreSQL ends the request's transaction (its wait began first,
    # so its check runs first; this one's is put off).
    await db.execute("INSERT INTO riders (rider_id, name, market) VALUES ('R-1', 'A', 'AE')")
    await db.execute("INSERT INTO riders (rider_id, name, market) VALUES ('R-2', 'B', 'AE')")
    client = await start()
    # The other transaction's session straight to PostgreSQL (its SET LOCAL needs no pooler).
    direct_url = session_env.get("DATABASE_DIRECT_URL", database_url)
    with structlog.testing.capture_logs() as logs:
        async with database.connect(direct_url) as other, other.transaction():
            await other.execute("SET LOCAL deadlock_timeout = '60s'")
            await other.execute("UPDATE riders SET name = 'Held' WHERE rider_id = 'R-2'")
            request = asyncio.create_task(
                client.post("/api/v1/rename", json={"riderIds": ["R-1", "R-2"]})
            )
            await until(lambda: waits_for_a_lock(db), "the request waits for R-2")
            await other.execute("UPDATE riders SET name = 'Held' WHERE rider_id = 'R-1'")
            response = await request
    assert response.status == 409
    body = await response.json()
    assert body["code"] == "conflict" and "retry" in body["error"]
    assert [line["event"] for line in logs if line["log_level"] == "warning"] == [
        "concurrent update conflict"
    ]
    names = await db.fetch("SELECT name FROM riders ORDER BY rider_id")
    assert [row["name"] for row in names] == ["Held", "Held"]  # the request changed nothing


async def test_shop_failure_has_shop_shape(start):
    client = await start()
    response = await client.get("/api/products/boom")
    assert response.status == 500
    assert await response.json() == {"success": False, "message": "Internal server error"}


async def test_access_line_has_the_fields_and_no_query(client):
    with structlog.testing.capture_logs() as logs:
        response = await client.get(
            "/api/v1/nothing?email=someone@example.com", headers={"X-Request-Id": "abc-123"}
        )
    assert response.headers["X-Request-Id"] == "abc-123"
    (line,) = [e for e in logs if e["event"] == "request"]
    assert line["method"] == "GET"
    assert line["path"] == "/api/v1/nothing"
    assert line["status"] == 404
    assert isinstance(line["duration_ms"], float)
    assert "someone@example.com" not in str(logs)


async def test_unsafe_request_id_is_replaced(client):
    response = await client.get("/api/v1/x", headers={"X-Request-Id": "bad id\twith spaces"})
    assert response.headers["X-Request-Id"] != "bad id\twith spaces"
    assert len(response.headers["X-Request-Id"]) == 32


async def test_small_routes_refuse_bodies_over_one_mebibyte(start):
    client = await start()
    body = b'"' + b"x" * SMALL_BODY_LIMIT + b'"'
    response = await client.post("/api/v1/echo", data=body)
    assert response.status == 413
    assert (await response.json())["code"] == "payload_too_large"


async def test_bulk_routes_take_large_bodies(start):
    client = await start()
    body = b'"' + b"x" * (5 * SMALL_BODY_LIMIT) + b'"'
    response = await client.post("/api/v1/echo-bulk", data=body)
    assert response.status == 200
    assert (await response.json())["size"] == 5 * SMALL_BODY_LIMIT


async def test_bulk_routes_refuse_over_their_limit(start):
    client = await start()
    response = await client.post("/api/v1/echo-bulk", data=b"x" * (ECHO_BULK.limit + 1))
    assert response.status == 413


async def test_invalid_json_is_400(start):
    client = await start()
    response = await client.post("/api/v1/echo", data=b"{not json")
    assert response.status == 400
    assert (await response.json())["code"] == "invalid_request"


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({}, 401),
        ({"x-api-key": "wrong"}, 401),
        ({"x-api-key": "TEST-INTEGRATION-KEY"}, 401),
        ({"Authorization": "Bearer wrong"}, 401),
        ({"Authorization": "Basic test-integration-key"}, 401),
        ({"x-api-key": "test-integration-key"}, 200),
        ({"Authorization": "Bearer test-integration-key"}, 200),
        # the scheme is case-insensitive (RFC 7235), the key is not
        ({"Authorization": "bearer test-integration-key"}, 200),
        # x-api-key wins when both are sent
        ({"x-api-key": "wrong", "Authorization": "Bearer test-integration-key"}, 401),
        ({"x-api-key": "test-integration-key", "Authorization": "Bearer wrong"}, 200),
    ],
)
async def test_bearer_key_guard(start, headers, status):
    client = await start()
    response = await client.get("/api/v1/guarded", headers=headers)
    assert response.status == status
    if status == 401:
        assert await response.json() == {"error": "Invalid API key", "code": "unauthorized"}


async def test_bearer_key_guard_without_configured_key_is_503(start):
    client = await start(INTEGRATION_API_KEY=None)
    response = await client.get("/api/v1/guarded", headers={"x-api-key": "anything"})
    assert response.status == 503
    body = await response.json()
    assert body["code"] == "api_disabled"
    assert "INTEGRATION_API_KEY" in body["error"]


async def test_pool_is_closed_at_shutdown(database_url):
    app = create_app(make_settings(), database_url)
    runner = web.AppRunner(app)
    await runner.setup()
    pool = app[POOL]
    assert await pool.fetchval("SELECT 1") == 1
    await runner.cleanup()
    assert pool.is_closing()


async def test_numbers_beyond_64_bits_are_json_too(start):
    client = await start()
    response = await client.post("/api/v1/echo", data=b"[1e400, 123456789012345678901234567890]")
    assert response.status == 200
    assert await response.json() == {"size": 2}


async def test_non_json_constants_are_refused(start):
    client = await start()
    response = await client.post("/api/v1/echo", data=b"[NaN, 1e400]")
    assert response.status == 400


async def test_text_postgresql_cannot_store_is_a_client_error(start):
    client = await start()
    response = await client.post("/api/v1/text", json={"text": "a\u0000b"})
    assert response.status == 400
    assert await response.json() == {
        "error": "Text must not contain the NUL character (U+0000).",
        "code": "invalid_request",
    }
    shop = await client.post("/api/products/text", json={"text": "a\u0000b"})
    assert shop.status == 422
    assert (await shop.json())["success"] is False
