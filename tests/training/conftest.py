"""The `api` fixture: calls of the training API with the integration key."""

from __future__ import annotations

import pytest

from tests.conftest import TEST_KEYS

AUTH = {"x-api-key": TEST_KEYS["INTEGRATION_API_KEY"]}


@pytest.fixture
def api(client):
    """`await api.post(path, body)` / `await api.get(path, **query)` with the integration key:
    (status, JSON body)."""

    class Api:
        async def post(self, path: str, body) -> tuple[int, dict]:
            response = await client.post(path, json=body, headers=AUTH)
            return response.status, await response.json()

        async def get(self, path: str, **query) -> tuple[int, dict]:
            response = await client.get(path, params=query, headers=AUTH)
            return response.status, await response.json()

    return Api()
