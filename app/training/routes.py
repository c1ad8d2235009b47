"""HTTP handlers of the training family (Family C, docs/api-training.md). Auth:
INTEGRATION_API_KEY."""

from __future__ import annotations

import functools

from aiohttp import web
from marshmallow import ValidationError

from app.core.auth import api_key
from app.core.errors import ApiError
from app.core.http import (
    SMALL_BODY_LIMIT,
    Bulk,
    InvalidJson,
    bulk_route,
    json_response,
    read_bulk_json,
    read_json,
)
from app.core.idempotency import idempotent
from app.core.keys import POOL, READ_POOL, SETTINGS
from app.core.openapi import ErrorSchema, any_of, bearer_schemes
from app.core.query import parse_query
from app.core.routing import endpoint
from app.messaging.notifications import notify_flag
from app.training import cursor, docs, store
from app.training.assignments import (
    ASSIGNMENTS_BODY,
    SHAPE_MESSAGE,
    BadAssignment,
    parse_assignment,
)
from app.training.pins import pepper_of, with_pin_hashes
from app.training.riders import MAX_RIDERS, RIDERS_BODY, parse_riders
from app.training.schemas import (
    FLAG_TYPES,
    AssignmentRequestSchema,
    AssignmentResultSchema,
    CompletionsPageSchema,
    CompletionsQuerySchema,
    FlagRequestSchema,
    FlagResultSchema,
    RidersRejectedSchema,
    RidersRequestSchema,
    RidersResultSchema,
)

routes = web.RouteTableDef()
SECURITY_SCHEMES = bearer_schemes("Integration", "training", "INTEGRATION_API_KEY", "Family C")
api = functools.partial(
    endpoint,
    routes,
    guard=api_key("training"),
    tag="Training",
    security=any_of(SECURITY_SCHEMES),
)

RIDERS_BODY_MESSAGE = f"Send {{ riders: [...] }} with 1 to {MAX_RIDERS} riders."
NO_RIDER_SAVED = "No rider was saved."
FLAG_MESSAGE = (
    "Send { riderId, type, note?, notify? } with type one of "
    + ", ".join(FLAG_TYPES)
    + " and note up to 1000 characters."
)
RIDER_NOT_FOUND = "Rider not found: create the rider first with POST /api/v1/riders."
PATH_NOT_FOUND = "Learning path not found"

_flag_request = FlagRequestSchema()
_completions_query = CompletionsQuerySchema()

DISABLED = "INTEGRATION_API_KEY is not set and no API key of scope training is live"
AUTH_ERRORS = {
    401: (
        "Missing, wrong, revoked or expired API key: "
        "`{ error: 'Invalid API key', code: 'unauthorized' }`",
        ErrorSchema,
    ),
    503: (f"{DISABLED} (`api_disabled`)", ErrorSchema),
}
WRITE_ERRORS = {
    **AUTH_ERRORS,
    409: (
        "A clash with a change made at the same time, or "
        + docs.IDEMPOTENCY_ERRORS[409][0].lower()
        + docs.IDEMPOTENCY_ERRORS[409][1:],
        ErrorSchema,
    ),
    422: (docs.IDEMPOTENCY_ERRORS[422], ErrorSchema),
}
IDEMPOTENCY_HEADERS = (docs.IDEMPOTENCY_KEY,)
BAD_KEY = f", or {docs.IDEMPOTENCY_ERRORS[400]}"
BUSY = {
    503: (
        f"{DISABLED} (`api_disabled`), or two bulk "
        "requests are already being handled and this one waited 30 s (`busy`; retry "
        "later with backoff)",
        ErrorSchema,
    )
}


async def _json_body(request: web.Request, message: str, bulk: Bulk | None = None) -> object:
    try:
        return await (read_bulk_json(request, bulk) if bulk else read_json(request))
    except InvalidJson:
        raise ApiError(400, message) from None


@api(
    "POST",
    "/api/v1/riders",
    summary="Create or update riders, then run the automatic rules",
    request=RidersRequestSchema,
    responses={
        200: ("At least one rider saved; rejected rows are in `errors`", RidersResultSchema),
        400: (
            f"Every rider rejected (`{NO_RIDER_SAVED}`, with the counts and `errors`), or "
            f"the body is not `{{ riders: [...] }}` with 1 to {MAX_RIDERS} riders (only "
            f"`error` and `code`){BAD_KEY}",
            RidersRejectedSchema,
        ),
        413: ("Body larger than 8 MiB", ErrorSchema),
        **WRITE_ERRORS,
        **BUSY,
    },
    description=docs.RIDERS,
    request_example=docs.RIDERS_EXAMPLE,
    headers=IDEMPOTENCY_HEADERS,
    links={
        "FlagTheFirstRider": {
            "operationId": "record_flag",
            "requestBody": {"riderId": "$request.body#/riders/0/riderId", "type": "equipment"},
        }
    },
)
@bulk_route
@idempotent(RIDERS_BODY.limit)
async def upsert_riders(request: web.Request) -> web.Response:
    body = await _json_body(request, RIDERS_BODY_MESSAGE, RIDERS_BODY)
    rows = body.get("riders") if isinstance(body, dict) else None
    if not isinstance(rows, list) or not 1 <= len(rows) <= MAX_RIDERS:
        raise ApiError(400, RIDERS_BODY_MESSAGE)
    riders, rejected = parse_riders(rows)
    errors = [
        {"index": index, "field": error.field, "error": error.message} for index, error in rejected
    ]
    if not riders:
        raise ApiError(
            400, NO_RIDER_SAVED, inserted=0, updated=0, enrollmentsCreated=0, errors=errors
        )
    riders = with_pin_hashes(riders, pepper_of(request.app[SETTINGS]))
    async with request.app[POOL].acquire() as conn:
        saved = await store.save_riders(conn, riders)
    return json_response(saved.body(errors))


@api(
    "POST",
    "/api/v1/flags",
    summary="Record a performance flag and assign its corrective training",
    request=FlagRequestSchema,
    responses={
        200: ("Flag saved", FlagResultSchema),
        400: (f"Not `{{ riderId, type, note?, notify? }}` with a known type{BAD_KEY}", ErrorSchema),
        404: ("Unknown riderId: create the rider first", ErrorSchema),
        **WRITE_ERRORS,
    },
    description=docs.FLAGS,
    request_example={
        "riderId": "R-10001",
        "type": "late_delivery",
        "note": "Three late orders this week",
        "notify": True,
    },
    headers=IDEMPOTENCY_HEADERS,
)
@idempotent(SMALL_BODY_LIMIT)
async def record_flag(request: web.Request) -> web.Response:
    body = await _json_body(request, FLAG_MESSAGE)
    if not isinstance(body, dict):
        raise ApiError(400, FLAG_MESSAGE)
    try:
        flag = _flag_request.load(body)
    except ValidationError:
        raise ApiError(400, FLAG_MESSAGE) from None
    pool = request.app[POOL]
    async with pool.acquire() as conn:
        saved = await store.save_flag(conn, flag["riderId"], flag["type"], flag["note"] or None)
    if saved is None:
        raise ApiError(404, RIDER_NOT_FOUND)
    flag_id, path_ids = saved
    notification = await notify_flag(
        pool, request.app[SETTINGS], flag["riderId"], path_ids, notify=flag["notify"]
    )
    return json_response(
        {
            "flagId": str(flag_id),
            "enrollmentsCreated": len(path_ids),
            "notification": notification,
        }
    )


@api(
    "POST",
    "/api/v1/assignments",
    summary="Assign a learning path to riders chosen by ID and/or filters",
    request=AssignmentRequestSchema,
    responses={
        200: ("Assignments created", AssignmentResultSchema),
        400: (
            "Invalid JSON, pathId not a UUID, a wrong field type, or neither riderIds nor a "
            f"filter{BAD_KEY}",
            ErrorSchema,
        ),
        404: (f"No path with that ID (`{PATH_NOT_FOUND}`)", ErrorSchema),
        413: ("Body larger than 20 MiB", ErrorSchema),
        **WRITE_ERRORS,
        **BUSY,
    },
    description=docs.ASSIGNMENTS,
    request_example={
        "pathId": "5b0e8a52-3f6c-4d1e-9a57-0c2f1e7d9b34",
        "riderIds": ["R-10001", "R-10002"],
        "markets": ["AE", "QA"],
    },
    headers=IDEMPOTENCY_HEADERS,
)
@bulk_route
@idempotent(ASSIGNMENTS_BODY.limit)
async def assign_path(request: web.Request) -> web.Response:
    try:
        assignment = parse_assignment(await _json_body(request, SHAPE_MESSAGE, ASSIGNMENTS_BODY))
    except BadAssignment as exc:
        raise ApiError(400, str(exc)) from None
    async with request.app[POOL].acquire() as conn:
        created = await store.assign_path(
            conn,
            assignment.path_id,
            assignment.rider_ids,
            assignment.markets,
            assignment.vehicle_types,
            assignment.statuses,
        )
    if created is None:
        raise ApiError(404, PATH_NOT_FOUND)
    return json_response({"enrollmentsCreated": created})


@api(
    "GET",
    "/api/v1/completions",
    allow_head=True,
    summary="Read passed-course records page by page, oldest first",
    query=CompletionsQuerySchema,
    responses={
        200: ("A page of completion records", CompletionsPageSchema),
        400: (
            f"`{cursor.CURSOR_MESSAGE}`, `{cursor.SINCE_MESSAGE}`, or a parameter given twice "
            "(`error` names it)",
            ErrorSchema,
        ),
        **AUTH_ERRORS,
    },
    description=docs.COMPLETIONS,
    links={
        "NextPage": {
            "operationId": "list_completions",
            "parameters": {"cursor": "$response.body#/nextCursor"},
        }
    },
)
async def list_completions(request: web.Request) -> web.Response:
    secret = cursor.secret(request.app[SETTINGS])
    if secret is None:
        raise ApiError(503, cursor.NO_SECRET, "api_disabled")
    query = parse_query(_completions_query, request.query)
    limit = query.get("limit", cursor.DEFAULT_LIMIT)
    try:
        after = cursor.start_key(query.get("cursor"), query.get("since"), secret)
    except cursor.BadCursor:
        raise ApiError(400, cursor.CURSOR_MESSAGE) from None
    # The feed may lag the primary by the replica's replay lag (docs/scale.md).
    async with request.app[READ_POOL].acquire() as conn:
        rows = await store.completions_page(conn, after, limit)
    return json_response(cursor.page(rows, limit, secret))
