"""Authentication of the four training endpoints (docs/security.md#api-keys)."""

import pytest

KEY = "test-integration-key"
ENDPOINTS = [
    ("POST", "/api/v1/riders", {"riders": [{"riderId": "R-1", "name": "A", "market": "AE"}]}),
    ("POST", "/api/v1/flags", {"riderId": "R-unknown", "type": "equipment"}),
    (
        "POST",
        "/api/v1/assignments",
        {"pathId": "00000000-0000-0000-0000-000000000000", "markets": ["AE"]},
    ),
    ("GET", "/api/v1/completions", None),
]
# What each endpoint answers to a valid key with these bodies.
ACCEPTED = {
    "/api/v1/riders": 200,
    "/api/v1/flags": 404,
    "/api/v1/assignments": 404,
    "/api/v1/completions": 200,
}
UNAUTHORIZED = {"error": "Invalid API key", "code": "unauthorized"}
REJECTED_HEADERS = [
    {},
    {"x-api-key": "wrong"},
    {"x-api-key": KEY.upper()},
    {"Authorization": f"Bearer {KEY}x"},
    {"Authorization": KEY},
    {"x-api-key": "wrong", "Authorization": f"Bearer {KEY}"},  # x-api-key wins
]
ACCEPTED_HEADERS = [
    {"x-api-key": KEY},
    {"Authorization": f"Bearer {KEY}"},
    {"Authorization": f"bearer {KEY}"},  # the scheme is case-insensitive (RFC 7235)
    {"x-api-key": KEY, "Authorization": "Bearer wrong"},  # x-api-key wins
]


async def call(client, method, path, body, headers):
    response = await client.request(method, path, json=body, headers=headers)
    return response.status, await response.json()


@pytest.mark.parametrize(("method", "path", "body"), ENDPOINTS)
async def test_missing_or_wrong_key_is_401_and_the_key_in_either_header_passes(
    client, method, path, body
):
    for headers in REJECTED_HEADERS:
        assert await call(client, method, path, body, headers) == (401, UNAUTHORIZED), headers
    for headers in ACCEPTED_HEADERS:
        status, _ = await call(client, method, path, body, headers)
        assert status == ACCEPTED[path], headers


async def test_no_key_configured_is_503_on_every_endpoint(make_client):
    client = await make_client(INTEGRATION_API_KEY=None)
    for method, path, body in ENDPOINTS:
        status, answer = await call(client, method, path, body, {"x-api-key": KEY})
        assert status == 503 and answer["code"] == "api_disabled"
        assert "INTEGRATION_API_KEY" in answer["error"]


async def test_a_rotated_key_stops_the_old_one(make_client):
    client = await make_client(INTEGRATION_API_KEY="new-key")
    assert (await call(client, "GET", "/api/v1/completions", None, {"x-api-key": KEY}))[0] == 401
    assert (await call(client, "GET", "/api/v1/completions", None, {"x-api-key": "new-key"}))[
        0
    ] == 200
