"""The shop's API-key guard (Family B, docs/api-shop.md): the `api-key` header, with a key of scope
`shop-import` or `shop-orders` (docs/security.md, "API keys"). Missing 401; wrong, revoked,
expired or of another scope 403; no key at all for the scope 503; each in the shop's error
shape (`laravel.ERRORS`)."""

from __future__ import annotations

import functools
from collections.abc import Callable

from aiohttp import web

from app.core.auth import Handler, identify
from app.core.errors import ApiError

ROTATION = "Keys are made and revoked with `python -m app create-api-key` or at /admin/api-keys"


def _scheme(name: str, description: str) -> dict[str, dict[str, str]]:
    return {name: {"type": "apiKey", "in": "header", "name": "api-key", "description": description}}


# The OpenAPI security schemes of the two scopes.
IMPORT_SCHEMES = _scheme(
    "ShopImportKey",
    f"An API key of scope shop-import (or SHOP_IMPORT_API_KEY): users, import, kits, products."
    f" {ROTATION}; any number may be live at once.",
)
ORDERS_SCHEMES = _scheme(
    "ShopOrdersKey",
    f"An API key of scope shop-orders (or SHOP_ORDERS_API_KEY): exchange orders and review."
    f" {ROTATION}; any number may be live at once.",
)


def shop_key(scope: str) -> Callable[[Handler], Handler]:
    """`scope`: `shop-import` or `shop-orders`."""

    def decorate(handler: Handler) -> Handler:
        @functools.wraps(handler)
        async def guarded(request: web.Request) -> web.StreamResponse:
            given = request.headers.get("api-key") or None
            if await identify(request, scope, given) is None:
                if given is None:
                    raise ApiError(401, "Unauthenticated: send the api-key header.")
                raise ApiError(403, "Forbidden: invalid API key.")
            return await handler(request)

        return guarded

    return decorate
