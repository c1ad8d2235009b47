"""The request middleware: request id, one access-log line, JSON errors.

The access line holds method, path (never the query string, which may carry emails or
phone numbers), status, duration_ms and the request id. Bodies are never logged.
"""

from __future__ import annotations

import asyncio
import re
import time
import uuid

import asyncpg
import structlog
from aiohttp import web

from app.core import database, html
from app.core.errors import (
    NUL_MESSAGE,
    ApiError,
    error_response,
    from_http_exception,
    is_shop_path,
)
from app.core.http import BodyTooLarge, InvalidJson

log = structlog.get_logger("app.http")

REQUEST_ID_HEADER = "X-Request-Id"
_SAFE_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")

CONFLICT = ApiError(
    409,
    "Another request changed the same records at the same time; retry.",
    "conflict",
)

UNAVAILABLE = ApiError(503, "The service is not available right now", "unavailable")


def _logged_path(request: web.Request) -> str:
    """The path, or its route template when the path carries a credential (`{token}`)."""
    resource = request.match_info.route.resource
    if resource is not None and "{token}" in resource.canonical:
        return resource.canonical
    return request.path


REQUEST_ID_KEY = web.RequestKey("request_id", str)


async def stamp_request_id(request: web.Request, response: web.StreamResponse) -> None:
    """on_response_prepare: every response, streamed ones too, carries the request id."""
    if REQUEST_ID_KEY in request:
        response.headers[REQUEST_ID_HEADER] = request[REQUEST_ID_KEY]


def _request_id(request: web.Request) -> str:
    given = request.headers.get(REQUEST_ID_HEADER, "")
    return given if _SAFE_REQUEST_ID.match(given) else uuid.uuid4().hex


async def _respond(request: web.Request, handler) -> web.StreamResponse:
    try:
        return await handler(request)
    except ApiError as exc:
        return error_response(request.path, exc)
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        return error_response(request.path, from_http_exception(exc))
    except BodyTooLarge:
        return error_response(request.path, ApiError(413, "Request body too large"))
    except InvalidJson:
        return error_response(request.path, ApiError(400, "The request body is not valid JSON."))
    except (asyncpg.DeadlockDetectedError, asyncpg.SerializationError):
        log.warning("concurrent update conflict")
        return error_response(request.path, CONFLICT)
    except (asyncpg.CharacterNotInRepertoireError, asyncpg.UntranslatableCharacterError):
        # Text PostgreSQL cannot store (U+0000) reached a statement, which then failed whole.
        status = 422 if is_shop_path(request.path) else 400
        return error_response(request.path, ApiError(status, NUL_MESSAGE))
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        log.exception("unhandled error", method=request.method, path=_logged_path(request))
        # A page says the service is down for a while; the APIs keep their 500 (their contract).
        if isinstance(exc, database.UNREACHABLE) and html.is_html_path(request.path):
            return error_response(request.path, UNAVAILABLE)
        return error_response(request.path, ApiError(500, "Internal server error"))


@web.middleware
async def request_context(request: web.Request, handler) -> web.StreamResponse:
    request_id = request[REQUEST_ID_KEY] = _request_id(request)
    started = time.perf_counter()
    status = 499  # the client went away before an answer was made
    with structlog.contextvars.bound_contextvars(request_id=request_id):
        try:
            response = await _respond(request, handler)
            status = response.status
            return response
        except web.HTTPException as exc:
            status = exc.status
            raise
        finally:
            log.info(
                "request",
                method=request.method,
                path=_logged_path(request),
                status=status,
                duration_ms=round((time.perf_counter() - started) * 1000, 2),
            )
