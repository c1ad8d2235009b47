"""Family A keys: x-api-key or Bearer CHECKS_API_KEY on both endpoints."""

import pytest

PATHS = ["/api/v2/checks", "/api/v2/questioner"]
KEY = "test-checks-key"
UNAUTHORIZED = {"error": "Invalid API key", "code": "unauthorized"}


WRONG = [
    {},
    {"x-api-key": "wrong"},
    {"x-api-key": ""},
    {"Authorization": "Bearer wrong"},
    {"Authorization": f"Basic {KEY}"},
    {"Authorization": KEY},
    {"x-api-key": "test-integration-key"},
    {"x-api-key": "wrong", "Authorization": f"Bearer {KEY}"},  # x-api-key wins
]
RIGHT = [
    {"x-api-key": KEY},
    {"Authorization": f"Bearer {KEY}"},
    {"x-api-key": KEY, "Authorization": "Bearer wrong"},  # x-api-key wins
]


@pytest.mark.parametrize("path", PATHS)
async def test_missing_or_wrong_key_is_401(client, path):
    for headers in WRONG:
        response = await client.get(path, headers=headers)
        assert response.status == 401, headers
        assert await response.json() == UNAUTHORIZED


@pytest.mark.parametrize("path", PATHS)
async def test_right_key_is_200(client, path):
    for headers in RIGHT:
        response = await client.get(path, headers=headers)
        assert response.status == 200, headers
        assert await response.json() == []


@pytest.mark.parametrize("path", PATHS)
async def test_unset_key_is_503_even_with_a_key(make_client, path):
    client = await make_client(CHECKS_API_KEY=None)
    response = await client.get(path, headers={"x-api-key": KEY})
    assert response.status == 503
    body = await response.json()
    assert body["code"] == "api_disabled"
    assert "CHECKS_API_KEY" in body["error"]


async def test_key_is_checked_before_parameters(client):
    response = await client.get("/api/v2/checks?rider_id=x")
    assert response.status == 401
