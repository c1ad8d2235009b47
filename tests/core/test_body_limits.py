"""Per-route body limits on the real endpoints (README: 32 MiB on the bulk ones, 1 MiB else)."""

import orjson
import pytest

from app.core.http import BULK_BODY_LIMIT, SMALL_BODY_LIMIT

BULK = [
    ("/api/v1/riders", {"x-api-key": "test-integration-key"}),
    ("/api/v1/assignments", {"x-api-key": "test-integration-key"}),
    ("/api/import/users", {"api-key": "test-import-key"}),
]
SMALL = [
    ("/api/v1/flags", {"x-api-key": "test-integration-key"}),
    ("/api/v1/exchanges/review", {"api-key": "test-orders-key"}),
]


def _padded_riders(size: int) -> bytes:
    """A riders body of about `size` bytes (one rider, padded with an ignored field)."""
    rider = {"riderId": "R-1", "name": "Amal", "market": "AE", "padding": "x" * size}
    return orjson.dumps({"riders": [rider]})


async def test_bulk_endpoint_takes_more_than_the_small_limit(client):
    body = _padded_riders(3 * SMALL_BODY_LIMIT)
    response = await client.post(
        "/api/v1/riders", data=body, headers={"x-api-key": "test-integration-key"}
    )
    assert response.status == 200
    assert (await response.json())["inserted"] == 1


@pytest.mark.parametrize(("path", "headers"), BULK)
async def test_bulk_endpoints_refuse_over_32_mebibytes(client, path, headers):
    response = await client.post(path, data=b" " * (BULK_BODY_LIMIT + 1), headers=headers)
    assert response.status == 413


@pytest.mark.parametrize(("path", "headers"), SMALL)
async def test_other_endpoints_refuse_over_one_mebibyte(client, path, headers):
    response = await client.post(path, data=b" " * (SMALL_BODY_LIMIT + 1), headers=headers)
    assert response.status == 413


async def test_413_has_the_family_shape(client):
    shop = await client.post(
        "/api/import/users",
        data=b" " * (BULK_BODY_LIMIT + 1),
        headers={"api-key": "test-import-key"},
    )
    assert await shop.json() == {"success": False, "message": "Request body too large"}
    training = await client.post(
        "/api/v1/flags", data=b" " * (SMALL_BODY_LIMIT + 1),
        headers={"x-api-key": "test-integration-key"},
    )
    assert await training.json() == {"error": "Request body too large", "code": "payload_too_large"}
