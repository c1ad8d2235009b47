"""Per-route body limits on the real endpoints (the OpenAPI description: each bulk route takes
what its maximum needs, counted in bytes and in objects/arrays before parsing; 1 MiB elsewhere)."""

import orjson
import pytest

from app.core import http
from app.core.http import SMALL_BODY_LIMIT
from app.shop.importing import IMPORT_BODY as IMPORT
from app.training.assignments import ASSIGNMENTS_BODY as ASSIGNMENTS
from app.training.riders import RIDERS_BODY as RIDERS

INTEGRATION = {"x-api-key": "test-integration-key"}
SHOP_IMPORT = {"api-key": "test-import-key"}
BULK = [
    ("/api/v1/riders", INTEGRATION, RIDERS),
    ("/api/v1/assignments", INTEGRATION, ASSIGNMENTS),
    ("/api/import/users", SHOP_IMPORT, IMPORT),
]
SMALL = [
    ("/api/v1/flags", INTEGRATION),
    ("/api/v1/exchanges/review", {"api-key": "test-orders-key"}),
]


def _padded_riders(size: int) -> bytes:
    """A riders body of about `size` bytes (one rider, padded with an ignored field)."""
    rider = {"riderId": "R-1", "name": "Amal", "market": "AE", "padding": "x" * size}
    return orjson.dumps({"riders": [rider]})


async def test_bulk_endpoint_takes_more_than_the_small_limit(client):
    body = _padded_riders(3 * SMALL_BODY_LIMIT)
    response = await client.post("/api/v1/riders", data=body, headers=INTEGRATION)
    assert response.status == 200
    assert (await response.json())["inserted"] == 1


@pytest.mark.parametrize(("path", "headers", "bulk"), BULK)
async def test_bulk_endpoints_refuse_over_their_limit(client, path, headers, bulk):
    response = await client.post(path, data=b" " * (bulk.limit + 1), headers=headers)
    assert response.status == 413


def test_each_limit_holds_its_largest_valid_body():
    longest = {
        "riderId": "R" * 64,
        "name": "\u0645" * 200,
        "market": "Bahrain",
        "phone": "+" + "1" * 15,
        "city": "\u0645" * 100,
        "vehicleType": "m" * 40,
        "nationality": "\u0645" * 60,
        "language": "en",
        "status": "onboarding",
        "pin": "12345678",
    }
    assert len(orjson.dumps({"riders": [longest] * 5000})) < RIDERS.limit
    ids = {"pathId": "5b0e8a52-3f6c-4d1e-9a57-0c2f1e7d9b34", "riderIds": ["R" * 64] * 250_000}
    assert len(orjson.dumps(ids)) < ASSIGNMENTS.limit
    record = {
        "id": 2**62,
        "email": "e" * 243 + "@example.com",
        "ridehail_id": 10**18,
        **{
            name: "\u0645" * 255
            for name in ("first_name", "last_name", "partner_name", "agency_id")
        },
        "active": 1,
    }
    assert len(orjson.dumps({"users": [record] * 5000})) < IMPORT.limit


@pytest.mark.parametrize(("path", "headers", "bulk"), BULK)
async def test_a_body_of_many_small_containers_is_refused_before_parsing(
    client, path, headers, bulk
):
    key = "riders" if "riders" in path else "users" if "import" in path else "riderIds"
    body = b'{"%s": [' % key.encode() + b",".join([b"{}"] * (bulk.containers + 1)) + b"]}"
    response = await client.post(path, data=body, headers=headers)
    assert response.status == 400


async def test_brackets_inside_strings_do_not_count(client, db):
    rows = [{"riderId": f"R-{i}", "name": "[{" * 50, "market": "AE"} for i in range(300)]
    response = await client.post("/api/v1/riders", json={"riders": rows}, headers=INTEGRATION)
    assert response.status == 200
    assert (await response.json())["inserted"] == 300


async def test_bulk_requests_beyond_the_concurrency_cap_wait_then_answer_503(client, monkeypatch):
    monkeypatch.setattr(http.BULK_GATE, "wait", 0.2)
    slots = http.BULK_GATE.semaphore()
    for _ in range(http.BULK_GATE.size):
        await slots.acquire()
    try:
        response = await client.post("/api/v1/riders", json={"riders": []}, headers=INTEGRATION)
        shop = await client.post("/api/import/users", json={"users": []}, headers=SHOP_IMPORT)
    finally:
        for _ in range(http.BULK_GATE.size):
            slots.release()
    assert response.status == 503 and response.headers["Retry-After"] == "5"
    assert (await response.json())["code"] == "busy"
    assert shop.status == 503 and (await shop.json())["success"] is False
    again = await client.post("/api/v1/riders", json={"riders": []}, headers=INTEGRATION)
    assert again.status == 400


@pytest.mark.parametrize(("path", "headers"), SMALL)
async def test_other_endpoints_refuse_over_one_mebibyte(client, path, headers):
    response = await client.post(path, data=b" " * (SMALL_BODY_LIMIT + 1), headers=headers)
    assert response.status == 413


async def test_413_has_the_family_shape(client):
    shop = await client.post(
        "/api/import/users", data=b" " * (IMPORT.limit + 1), headers=SHOP_IMPORT
    )
    assert await shop.json() == {"success": False, "message": "Request body too large"}
    training = await client.post(
        "/api/v1/flags",
        data=b" " * (SMALL_BODY_LIMIT + 1),
        headers=INTEGRATION,
    )
    assert await training.json() == {"error": "Request body too large", "code": "payload_too_large"}
