"""HTTP handlers of the checks family (Family A)."""

from __future__ import annotations

import functools

from aiohttp import web

from app.checks import docs, store
from app.checks.schemas import (
    CheckSchema,
    ChecksQuerySchema,
    QuestionerQuerySchema,
    QuestionSchema,
)
from app.checks.streaming import MAX_STREAMS, STREAMS, array_response, stream_array
from app.core.auth import api_key
from app.core.http import json_response
from app.core.keys import POOL, READ_POOL
from app.core.openapi import ErrorSchema, any_of, bearer_schemes
from app.core.query import parse_query
from app.core.routing import endpoint

routes = web.RouteTableDef()

_checks_query = ChecksQuerySchema()
_questioner_query = QuestionerQuerySchema()

COMMON_ERRORS = {
    400: ("A malformed parameter value; `error` names the parameter.", ErrorSchema),
    401: ("Missing, wrong, revoked or expired key (`unauthorized`).", ErrorSchema),
    503: (
        "No key may call the API: CHECKS_API_KEY is not set and no API key of scope checks is "
        "live (`api_disabled`), or (check list only) "
        f"{MAX_STREAMS} lists are being streamed already and none ended within 5 s (`busy`; "
        "retry shortly).",
        ErrorSchema,
    ),
}


SECURITY_SCHEMES = bearer_schemes("Checks", "checks", "CHECKS_API_KEY", "Family A")
api = functools.partial(
    endpoint,
    routes,
    "GET",
    guard=api_key("checks"),
    tag="Checks",
    security=any_of(SECURITY_SCHEMES),
)


@api(
    "/api/v2/checks",
    summary="Ambassador checks",
    query=ChecksQuerySchema,
    responses={200: ("Checks ordered by ID ascending.", CheckSchema(many=True)), **COMMON_ERRORS},
    description=docs.CHECKS,
)
async def list_checks(request: web.Request) -> web.StreamResponse:
    filters = parse_query(_checks_query, request.query)
    pool = request.app[READ_POOL]
    if (rows := await store.rider_checks(pool, filters)) is not None:
        return array_response(rows)
    async with STREAMS.slot(), store.check_batches(pool, filters) as batches:
        return await stream_array(request, batches)


@api(
    "/api/v2/questioner",
    summary="Questionnaire catalogue",
    query=QuestionerQuerySchema,
    responses={
        200: ("Questions ordered by question_id.", QuestionSchema(many=True)),
        **COMMON_ERRORS,
    },
    description=docs.QUESTIONER,
)
async def list_questions(request: web.Request) -> web.Response:
    query = parse_query(_questioner_query, request.query)
    return json_response(await store.questions(request.app[POOL], query.get("country_id")))
