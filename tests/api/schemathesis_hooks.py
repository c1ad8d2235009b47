"""Schemathesis hooks for tests/api/test_conformance.py (loaded by SCHEMATHESIS_HOOKS).

Three rules the OpenAPI document states but JSON Schema cannot, applied to the requests that
schemathesis generates as valid ("positive") only, so that a valid request is one the server
must accept; invalid ("negative") requests are left as generated:

- a completions `cursor` is signed by the server (an HMAC): a generated one is replaced by a
  cursor this server issues (the test knows its integration key);
- `skip` on the exchange-orders list requires `limit` (the spec): a generated `skip` gets one;
- a kit entry's `product_id` must name an existing product (DESIGN §4, 422 otherwise): a
  generated one is replaced by one of the demo data's products (CONTRACT_PRODUCT_IDS).
"""

from __future__ import annotations

import inspect
import os
import types
import uuid

import schemathesis
from hypothesis.internal.reflection import get_pretty_function_description
from schemathesis.generation.jsonschema import strategy as generation

from app.training import cursor
from tests.conftest import TEST_KEYS


def _describe_lambdas_now(module: types.ModuleType) -> None:
    """Hypothesis describes a lambda by parsing its module's source, and caches the text by the
    lambda's code. On CPython 3.11 that parse fails (SystemError: AST constructor recursion
    depth mismatch) when it first happens deep in a stack, as it does while schemathesis draws
    large arrays of any JSON value; described here, at the top, every later use is cached."""
    functions = [inspect.unwrap(f) for f in vars(module).values() if callable(f)]  # lru_cache
    codes = [f.__code__ for f in functions if isinstance(f, types.FunctionType)]
    while codes:
        code = codes.pop()
        for constant in code.co_consts:
            if isinstance(constant, types.CodeType):
                codes.append(constant)
        if code.co_name == "<lambda>":
            cells = tuple(types.CellType(None) for _ in code.co_freevars)
            get_pretty_function_description(types.FunctionType(code, vars(module), closure=cells))


_describe_lambdas_now(generation)


def _positive(case) -> bool:
    meta = case.meta
    return meta is not None and meta.generation.mode.is_positive


@schemathesis.hook
def map_case(context, case):
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
        if isinstance(given, int):
            case.body["product_id"] = products[given % len(products)]
    return case
