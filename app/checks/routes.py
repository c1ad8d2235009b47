"""HTTP handlers of the checks family (Family A)."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from app.checks import store
from app.checks.queries import parse
from app.checks.schemas import (
    CheckSchema,
    ChecksQuerySchema,
    QuestionerQuerySchema,
    QuestionSchema,
)
from app.checks.streaming import MAX_STREAMS, stream_array, stream_slot
from app.core.auth import bearer_key
from app.core.http import json_response
from app.core.keys import POOL
from app.core.openapi import ErrorSchema, operation

routes = web.RouteTableDef()

_checks_query = ChecksQuerySchema()
_questioner_query = QuestionerQuerySchema()
_questions = QuestionSchema(many=True)

COMMON_ERRORS = {
    400: ("A malformed parameter value; `error` names the parameter.", ErrorSchema),
    401: ("Missing or wrong key (`unauthorized`).", ErrorSchema),
    503: ("CHECKS_API_KEY is not set on the server (`api_disabled`), or (check list only) "
          f"{MAX_STREAMS} lists are being streamed already and none ended within 5 s (`busy`; "
          "retry shortly).", ErrorSchema),
}


def endpoint(path: str, *, ok: tuple[str, Any], **documentation: Any):
    """A GET of Family A: routed (no HEAD), documented, guarded by CHECKS_API_KEY."""

    def decorate(handler):
        documented = operation(
            tag="Checks",
            security="checks",
            responses={200: ok, **COMMON_ERRORS},
            **documentation,
        )(bearer_key("checks_api_key")(handler))
        return routes.get(path, allow_head=False)(documented)

    return decorate


@endpoint(
    "/api/v2/checks",
    summary="Ambassador checks",
    query=ChecksQuerySchema,
    ok=("Checks ordered by ID ascending.", CheckSchema(many=True)),
    description=(
        "All checks matching every given filter (AND), ordered by `ID` ascending; with no "
        "filter, every check. Parameter names are case-sensitive and unknown parameters are "
        "ignored. A malformed value (an ID that is not a bigint written in digits, a date not "
        "written `YYYY-MM-DD`, a boolean other than true/false/1/0 in any case, an empty value) "
        "or a parameter given twice answers 400 `invalid_request` naming it.\n\n"
        "`check_date_from`/`check_date_to` compare the date part of the local `Check_date`, "
        "both inclusive; a range whose start is after its end matches nothing.\n\n"
        "`Rider_ID`, `Recorder_ID` are numbers; `ID_validation`, `License_plate` are 1/0; "
        "`Check_date` is the local wall-clock time (`YYYY-MM-DD HH:MM:SS`) and `Timezone` its "
        "UTC offset label (`UTC+04:00`); `Country_code` and `Timezone` are always present, "
        "null when unknown. `Questioner` is ordered by `question_id` and keeps the question's "
        "text, category and image as they were when the check was recorded.\n\n"
        "The response is streamed (chunked transfer encoding) in constant server memory. If "
        "the server fails after the first byte, it closes the connection: a body that is not "
        "a complete JSON array is an error, never a partial result."
    ),
)
async def list_checks(request: web.Request) -> web.StreamResponse:
    filters = parse(_checks_query, request.query)
    async with stream_slot(), store.check_batches(request.app[POOL], filters) as batches:
        return await stream_array(request, batches)


@endpoint(
    "/api/v2/questioner",
    summary="Questionnaire catalogue",
    query=QuestionerQuerySchema,
    ok=("Questions ordered by question_id.", QuestionSchema(many=True)),
    description=(
        "Every question of the catalogue, ordered by `question_id`; with `country_id=N`, "
        "exactly the questions of country N (a question belongs to one country). The name is "
        "case-sensitive and unknown parameters are ignored; a malformed `country_id` answers "
        "400 `invalid_request`."
    ),
)
async def list_questions(request: web.Request) -> web.Response:
    query = parse(_questioner_query, request.query)
    rows = await store.questions(request.app[POOL], query.get("country_id"))
    return json_response(_questions.dump([dict(row) for row in rows]))
