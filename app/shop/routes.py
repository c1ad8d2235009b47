"""HTTP handlers of the shop family (Family B, docs/api-shop.md)."""

from __future__ import annotations

import functools

from aiohttp import web

from app.core.errors import ApiError
from app.core.fields import integer_text
from app.core.http import bulk_route, json_response, read_bulk_json, read_json
from app.core.keys import POOL, SETTINGS
from app.core.openapi import any_of
from app.core.routing import endpoint
from app.shop import docs, importing, paging, store
from app.shop import laravel as lv
from app.shop.auth import IMPORT_SCHEMES, ORDERS_SCHEMES, shop_key
from app.shop.laravel import ShopErrorSchema
from app.shop.schemas import (
    MAX_PAGE,
    ExchangeOrderSchema,
    FindByEmailQuerySchema,
    FoundUserSchema,
    ImportRequestSchema,
    ImportResultSchema,
    KitSchema,
    KitWriteSchema,
    OrdersQuerySchema,
    ProductSchema,
    ProductsQuerySchema,
    ReviewResultSchema,
    ReviewSchema,
    UserPageSchema,
    UsersQuerySchema,
)

routes = web.RouteTableDef()
import_api = functools.partial(
    endpoint,
    routes,
    guard=shop_key("shop-import"),
    tag="Shop",
    security=any_of(IMPORT_SCHEMES),
)
orders_api = functools.partial(
    endpoint,
    routes,
    guard=shop_key("shop-orders"),
    tag="Shop",
    security=any_of(ORDERS_SCHEMES),
)

AUTH_ERRORS = {
    401: ("The api-key header is missing", ShopErrorSchema),
    403: ("The api-key header is wrong, revoked, expired or of another scope", ShopErrorSchema),
    503: ("No key of this scope is configured on this server", ShopErrorSchema),
}
INVALID = (
    422,
    (
        "Validation error: `message` is the first text (plus `(and N more errors)` when there "
        "are more), `errors` maps each field to its texts (Laravel wording)",
        ShopErrorSchema,
    ),
)
NOT_JSON = (400, ("The body is not valid JSON", ShopErrorSchema))
USER_NOT_FOUND = "User not found."

FIND_BY_EMAIL = FindByEmailQuerySchema()
PRODUCTS_QUERY = ProductsQuerySchema()
KIT_WRITE = KitWriteSchema()
USERS_QUERY = UsersQuerySchema()
ORDERS_QUERY = OrdersQuerySchema()
REVIEW = ReviewSchema()


def _responses(ok: tuple[str, object], *others: tuple[int, tuple[str, object]]) -> dict:
    return {200: ok, **AUTH_ERRORS, **dict(others)}


def _kit_links(user: str) -> dict[str, dict]:
    """OpenAPI links from an answer naming a user (`user`, a runtime expression) to that user's
    kit, read and written."""
    return {
        f"{name}Kit": {"operationId": operation, "parameters": {"user": user}}
        for name, operation in (("Read", "get_kit"), ("Write", "save_kit_entry"))
    }


async def _body(request: web.Request) -> dict:
    """The JSON body as an object; any other JSON value validates like an empty object."""
    return _object(await read_json(request))


def _object(body: object) -> dict:
    return lv.blanks_as_null(body) if isinstance(body, dict) else {}


@import_api(
    "POST",
    "/api/import/users",
    summary="Create or update users in bulk",
    request=ImportRequestSchema,
    request_example={
        "users": [
            {
                "email": "ana@example.com",
                "ridehail_id": 4711,
                "first_name": "Ana",
                "last_name": "Silva",
                "partner_name": "Fleet One",
                "active": 1,
            }
        ]
    },
    responses=_responses(
        ("Per-record results (a failed record never rolls back another)", ImportResultSchema),
        INVALID,
        (
            400,
            (
                "The body is not valid JSON, or holds more objects and arrays than 5,000 "
                "records need",
                ShopErrorSchema,
            ),
        ),
        (413, ("The body is larger than 12 MiB", ShopErrorSchema)),
        (
            503,
            (
                "No key of this scope is configured on this server, or two bulk requests are "
                "already being handled and this one waited 30 s (retry later)",
                ShopErrorSchema,
            ),
        ),
    ),
    description=docs.IMPORT,
    links=_kit_links("$response.body#/results/users/0/id"),
)
@bulk_route
async def import_users(request: web.Request) -> web.Response:
    body = _object(await read_bulk_json(request, importing.IMPORT_BODY))
    if errors := importing.batch_errors(body):
        raise lv.unprocessable(errors)
    records = body["users"]
    checked = importing.check(records)
    saved = (
        await store.import_users(request.app[POOL], checked.payloads) if checked.payloads else []
    )
    return json_response({"success": True, "results": importing.results(records, checked, saved)})


@import_api(
    "GET",
    "/api/users/find-by-email",
    summary="Find a user's internal ID by email",
    query=FindByEmailQuerySchema,
    responses=_responses(
        ("The user", FoundUserSchema),
        (404, (f"No user has this email: `{USER_NOT_FOUND}`", ShopErrorSchema)),
        INVALID,
    ),
    description="The email is compared case-insensitively; inactive users are found too.",
    links=_kit_links("$response.body#/user_id"),
)
async def find_by_email(request: web.Request) -> web.Response:
    query = lv.load_query(FIND_BY_EMAIL, request.query)
    user = await store.find_by_email(request.app[POOL], query["email"])
    if user is None:
        raise ApiError(404, USER_NOT_FOUND)
    return json_response(
        {
            "success": True,
            "user_id": user["id"],
            "ridehail_id": user["ridehail_id"],
            "agency_id": user["agency_id"],
        }
    )


@import_api(
    "GET",
    "/api/products",
    summary="List available products",
    query=ProductsQuerySchema,
    responses=_responses(("Products ordered by id", ProductSchema(many=True)), INVALID),
    description=docs.PRODUCTS,
)
async def products(request: web.Request) -> web.Response:
    query = lv.load_query(PRODUCTS_QUERY, request.query)
    return json_response(await store.products(request.app[POOL], query.get("partner_name")))


def _user_id(request: web.Request) -> int:
    user_id = integer_text(request.match_info["user"])
    if user_id is None or not 0 <= user_id < 2**63:
        raise ApiError(404, USER_NOT_FOUND)
    return user_id


@import_api(
    "GET",
    "/api/users/{user}/kit",
    summary="A user's kit",
    responses=_responses(
        ("The kit", KitSchema), (404, (f"Unknown user: `{USER_NOT_FOUND}`", ShopErrorSchema))
    ),
    description=docs.KIT,
)
async def get_kit(request: web.Request) -> web.Response:
    per_user = request.app[SETTINGS].feature_user_product_kit
    kit = await store.kit(request.app[POOL], _user_id(request), per_user)
    if kit is None:
        raise ApiError(404, USER_NOT_FOUND)
    return json_response({"success": True, "kit": kit})


@import_api(
    "POST",
    "/api/users/{user}/kit",
    summary="Add a product to a user's kit or change it",
    request=KitWriteSchema,
    request_example={"product_id": 12, "quantity": 2, "mandatory": True},
    responses=_responses(
        ("The user's whole kit after the write", KitSchema),
        (404, (f"Unknown user: `{USER_NOT_FOUND}`", ShopErrorSchema)),
        (409, ("Per-user kits are switched off (FEATURE_USER_PRODUCT_KIT=0)", ShopErrorSchema)),
        INVALID,
        NOT_JSON,
    ),
    description=docs.KIT_WRITE,
)
async def save_kit_entry(request: web.Request) -> web.Response:
    pool = request.app[POOL]
    user_id = _user_id(request)
    if not await store.user_exists(pool, user_id):
        raise ApiError(404, USER_NOT_FOUND)
    if not request.app[SETTINGS].feature_user_product_kit:
        raise ApiError(
            409,
            "Per-user kits are switched off on this server "
            "(FEATURE_USER_PRODUCT_KIT=0): the user's kit is the partner's kit.",
        )
    entry = lv.load(KIT_WRITE, await _body(request))
    if not await store.product_exists(pool, entry["product_id"]):
        raise lv.unprocessable({"product_id": ["The selected product id is invalid."]})
    kit = await store.save_kit_entry(
        pool, user_id, entry["product_id"], entry["quantity"], entry["mandatory"]
    )
    return json_response({"success": True, "kit": kit})


@import_api(
    "GET",
    "/api/users",
    summary="Page through users with their kits",
    query=UsersQuerySchema,
    responses=_responses(("A page of users", UserPageSchema), INVALID),
    description=docs.USERS_LIST,
    links=_kit_links("$response.body#/data/0/id"),
)
async def list_users(request: web.Request) -> web.Response:
    filters = lv.load_query(USERS_QUERY, request.query)
    limit = min(max(filters.pop("limit", MAX_PAGE), 1), MAX_PAGE)
    page = min(max(filters.pop("page", 1), 1), paging.MAX_OFFSET)
    total, users = await store.users_page(
        request.app[POOL],
        request.app[SETTINGS].feature_user_product_kit,
        limit,
        min((page - 1) * limit, paging.MAX_OFFSET),
        filters,
    )
    return json_response(paging.envelope(request.url, page, limit, total, users))


@orders_api(
    "GET",
    "/api/v1/exchanges/orders",
    summary="List exchange orders",
    query=OrdersQuerySchema,
    responses=_responses(
        ("Exchange orders (a bare array)", ExchangeOrderSchema(many=True)), INVALID
    ),
    description=docs.EXCHANGE_ORDERS,
)
async def list_exchange_orders(request: web.Request) -> web.Response:
    query = lv.load_query(ORDERS_QUERY, request.query)
    limit = query.get("limit", MAX_PAGE)
    offset = query["skip"] if "skip" in query else (query.get("page", 1) - 1) * limit
    offset = min(offset, paging.MAX_OFFSET)
    orders = await store.exchange_orders(
        request.app[POOL], request.app[SETTINGS].feature_tier_discount, limit, offset, query
    )
    return json_response(orders)


@orders_api(
    "POST",
    "/api/v1/exchanges/review",
    summary="Approve or deny an exchange",
    request=ReviewSchema,
    request_example={"order_id": 100234, "status": "approved"},
    responses=_responses(
        ("The decision", ReviewResultSchema),
        (404, ("No exchange request for this order: `Exchange order not found.`", ShopErrorSchema)),
        (
            409,
            (
                "The exchange was already decided the other way; a decision is final",
                ShopErrorSchema,
            ),
        ),
        INVALID,
        NOT_JSON,
    ),
    description=docs.REVIEW,
)
async def review_exchange(request: web.Request) -> web.Response:
    review = lv.load(REVIEW, await _body(request))
    status = await store.review_exchange(request.app[POOL], review["order_id"], review["status"])
    if status is None:
        raise ApiError(404, "Exchange order not found.")
    if status != review["status"]:
        raise ApiError(409, f"The exchange was already {status}; a decision is final.")
    return json_response(
        {"success": True, "order_id": review["order_id"], "exchange_status": status.capitalize()}
    )
