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
GROUPS = {
    "import": (IMPORT_ENDPOINTS, "SHOP_IMPORT_API_KEY", "test-import-key", "test-orders-key"),
    "orders": (ORDERS_ENDPOINTS, "SHOP_ORDERS_API_KEY", "test-orders-key", "test-import-key"),
}


@pytest.mark.parametrize("group", GROUPS)
async def test_missing_401_wrong_403_right_passes(client, group):
    endpoints, _, key, other_key = GROUPS[group]
    for method, path in endpoints:
        missing = await client.request(method, path, json={})
        assert missing.status == 401, path
        body = await missing.json()
        assert body["success"] is False and body["message"]
        # The other family's key is as wrong as any other value.
        for wrong in ("nope", other_key):
            response = await client.request(method, path, json={}, headers={"api-key": wrong})
            assert response.status == 403, path
            assert (await response.json())["success"] is False
        right = await client.request(method, path, json={}, headers={"api-key": key})
        assert right.status not in (401, 403, 503), path


@pytest.mark.parametrize("group", GROUPS)
async def test_unconfigured_key_is_503(make_client, group):
    endpoints, variable, key, _ = GROUPS[group]
    client = await make_client(**{variable: None})
    for method, path in endpoints:
        response = await client.request(method, path, json={}, headers={"api-key": key})
        assert response.status == 503, path
        body = await response.json()
        assert body["success"] is False and variable in body["message"]
