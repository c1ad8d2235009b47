"""The api-key header: missing 401, wrong 403, key not configured 503, for every endpoint."""

import pytest

IMPORT_ENDPOINTS = [
    ("POST", "/api/import/users"),
    ("GET", "/api/users/find-by-email?email=a@b.co"),
    ("GET", "/api/products"),
    ("GET", "/api/users/1/kit"),
    ("POST", "/api/users/1/kit"),
    ("GET", "/api/users"),
]
ORDERS_ENDPOINTS = [("GET", "/api/v1/exchanges/orders"), ("POST", "/api/v1/exchanges/review")]
ALL = [(m, p, "SHOP_IMPORT_API_KEY", "test-import-key", "test-orders-key") for m, p in IMPORT_ENDPOINTS] + [
    (m, p, "SHOP_ORDERS_API_KEY", "test-orders-key", "test-import-key") for m, p in ORDERS_ENDPOINTS]


@pytest.mark.parametrize(("method", "path", "variable", "key", "other_key"), ALL)
async def test_missing_key_is_401(client, method, path, variable, key, other_key):
    response = await client.request(method, path, json={})
    assert response.status == 401
    body = await response.json()
    assert body["success"] is False and body["message"]


@pytest.mark.parametrize(("method", "path", "variable", "key", "other_key"), ALL)
async def test_wrong_key_is_403_and_the_other_familys_key_is_wrong(client, method, path, variable,
                                                                  key, other_key):
    for wrong in ("nope", other_key):
        response = await client.request(method, path, json={}, headers={"api-key": wrong})
        assert response.status == 403
        assert (await response.json())["success"] is False


@pytest.mark.parametrize(("method", "path", "variable", "key", "other_key"), ALL)
async def test_unconfigured_key_is_503(make_client, method, path, variable, key, other_key):
    client = await make_client(**{variable: None})
    response = await client.request(method, path, json={}, headers={"api-key": key})
    assert response.status == 503
    body = await response.json()
    assert body["success"] is False and variable in body["message"]


@pytest.mark.parametrize(("method", "path", "variable", "key", "other_key"), ALL)
async def test_right_key_passes_the_guard(client, method, path, variable, key, other_key):
    response = await client.request(method, path, json={}, headers={"api-key": key})
    assert response.status not in (401, 403, 503)
