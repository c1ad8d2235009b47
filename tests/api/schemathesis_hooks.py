"""Schemathesis hooks for tests/api/test_conformance.py (loaded by SCHEMATHESIS_HOOKS).

Four rules the OpenAPI document states but JSON Schema cannot, applied to the requests that
schemathesis generates as valid ("positive") only, so that a valid request is one the server
must accept; invalid ("negative") requests are left as generated:

- a completions `cursor` is signed by the server (an HMAC): a generated one is replaced by a
  cursor this server issues (the test knows its integration key);
- `skip` on the exchange-orders list requires `limit`: a generated `skip` gets one;
- a kit entry's `product_id` must name an existing product (docs/api-contract.md, 422 otherwise): a
  generated one is replaced by one of the demo data's products (CONTRACT_PRODUCT_IDS);
- an `Idempotency-Key` sent again with another body answers 422 (docs/webhooks.md): a generated key
  gets a suffix unique to the request, so a key is reused only with its own body.
"""

from __future__ import annotations

import os
import uuid

import schemathesis

from app.training import cursor
from tests.conftest import TEST_KEYS


def _positive(case) -> bool:
    meta = case.meta
    return meta is not None and meta.generation.mode.is_positive


def _unique_idempotency_key(case) -> None:
    """A valid key (1-255 printable ASCII) is made unique to this request, in every mode: a
    key reused with another body answers 422 by design. An invalid key stays invalid."""
    headers = case.headers
    key = headers.get("Idempotency-Key") if headers is not None else None
    if isinstance(key, str) and 1 <= len(key) <= 255 and all(" " <= c <= "~" for c in key):
        headers["Idempotency-Key"] = f"{key[:222]}-{uuid.uuid4().hex}"


@schemathesis.hook
def map_case(context, case):
    _unique_idempotency_key(case)
    if not _positive(case):
        return case
    path, method = case.operation.path, case.operation.method.upper()
    query = case.query if isinstance(case.query, dict) else None
    if path == "/api/v1/completions" and query and query.get("cursor"):
        rider = str(query["cursor"])[:64]
        query["cursor"] = cursor.encode(
            "2026-01-01T00:00:00.000Z",
            rider,
            str(uuid.UUID(int=len(rider))),
            TEST_KEYS["INTEGRATION_API_KEY"],
        )
    if path == "/api/v1/exchanges/orders" and query and query.get("skip") not in (None, ""):
        if query.get("limit") in (None, ""):
            query["limit"] = 50
    if path == "/api/users/{user}/kit" and method == "POST" and isinstance(case.body, dict):
        products = [int(n) for n in os.environ["CONTRACT_PRODUCT_IDS"].split(",")]
        given = case.body.get("product_id")
        if isinstance(given, (int, float)) and not isinstance(given, bool):
            case.body["product_id"] = products[int(given) % len(products)]
    return case
