"""The request middleware: request id, one access-log line, JSON errors.

The access line holds method, path (never the query string, which may carry emails or
phone numbers), status, duration_ms and the request id. Bodies are never logged.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import re
import time

import asyncpg
import structlog
from aiohttp import web
from aiohttp.http_exceptions import BadHttpMessage, LineTooLong

from app.core import metrics, turns
from app.core.api_keys import CALLER
from app.core.database import UNAVAILABLE
from app.core.errors import NUL_MESSAGE, SURROGATE_MESSAGE, ApiError, from_http_exception
from app.core.http import BodyTooLarge, Busy, InvalidJson, TooManyValues, UnpairedSurrogate
from app.core.keys import ERROR_SHAPES
from app.core.logs import Sampled
from app.core.probes import QUIET_PATHS

log = structlog.get_logger("app.http")

REQUEST_ID_HEADER = "X-Request-Id"
_SAFE_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
# A made request id: 32 hex digits, a random half for the process and a count of its requests,
# unique across processes and instances without a system call a request (uuid4's urandom).
_PROCESS = os.urandom(8).hex()
_requests = itertools.count(1)


class UnreadableRequests(logging.Filter):
    """A request aiohttp cannot read (a request line or a header over its 8 KB limit, broken
    syntax) is answered 400 before any middleware runs, and aiohttp logs it as an error with
    a traceback. It is the client's doing: one warning line says what, and never the line
    itself (a path may carry a token, a query a phone number)."""

    def filter(self, record: logging.LogRecord) -> bool:
        problem = record.exc_info[1] if record.exc_info else None
        if isinstance(problem, BadHttpMessage):
            what = (
                "a request line or header over the 8 KB limit"
                if isinstance(problem, LineTooLong)
                else f"an unreadable request ({type(problem).__name__})"
            )
            record.msg, record.args = "request refused: %s, answered 400", (what,)
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info = record.exc_text = None
        return True


def quiet_unreadable_requests() -> None:
    """Install UnreadableRequests on aiohttp's server logger (once a process)."""
    server = logging.getLogger("aiohttp.server")
    if not any(isinstance(f, UnreadableRequests) for f in server.filters):
        server.addFilter(UnreadableRequests())


CONFLICT = ApiError(
    409,
    "Another request changed the same records at the same time; retry.",
    "conflict",
)


def _logged_path(request: web.Request) -> str:
    """The path, or its route template when the path carries a credential (`{token}`).

    A path under a token route's prefix that matched nothing (404, 405) may hold a token too:
    it is logged as that route's template as well."""
    resource = request.match_info.route.resource
    if resource is not None:
        return resource.canonical if "{token}" in resource.canonical else request.path
    for template in _token_templates(request.app):
        if request.path.startswith(template.partition("{token}")[0]):
            return template
    return request.path


def _route(request: web.Request) -> str | None:
    """The template of the route that matched (None: none did), the `route` of the metrics."""
    resource = request.match_info.route.resource
    return None if resource is None else resource.canonical


def _token_templates(app: web.Application) -> list[str]:
    return [
        resource.canonical for resource in app.router.resources() if "{token}" in resource.canonical
    ]


class OutageLog:
    """One `database unavailable` line per error class per INTERVAL seconds: an outage fails
    every request, and a traceback each would bury the log."""

    INTERVAL = 5.0

    def __init__(self) -> None:
        self._line = Sampled(log, "database unavailable", interval=self.INTERVAL)

    def failure(self, exc: BaseException) -> None:
        kind = type(exc).__name__
        self._line(kind, error_class=kind, error=str(exc)[:200])


OUTAGES = OutageLog()


TOO_MANY_VALUES = "The request body holds more objects and arrays than this endpoint takes."
BUSY = ApiError(503, "Too many bulk requests at once; retry later with backoff.", "busy")

REQUEST_ID_KEY = web.RequestKey("request_id", str)


async def stamp_request_id(request: web.Request, response: web.StreamResponse) -> None:
    """on_response_prepare: every response, streamed ones too, carries the request id."""
    if REQUEST_ID_KEY in request:
        response.headers[REQUEST_ID_HEADER] = request[REQUEST_ID_KEY]


async def forbid_caching(_request: web.Request, response: web.StreamResponse) -> None:
    """on_response_prepare: JSON answers hold emails, phones and addresses; no cache (a
    browser's or a proxy's) may keep them."""
    if response.content_type == "application/json":
        response.headers.setdefault("Cache-Control", "no-store")


def _request_id(request: web.Request) -> str:
    given = request.headers.get(REQUEST_ID_HEADER, "")
    return given if _SAFE_REQUEST_ID.match(given) else f"{_PROCESS}{next(_requests):016x}"


async def _respond(request: web.Request, handler) -> web.StreamResponse:
    shape = request.app[ERROR_SHAPES].for_path(request.path)
    try:
        return await handler(request)
    except ApiError as exc:
        return shape.render(exc)
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        response = shape.render(from_http_exception(exc))
        if "Allow" in exc.headers:  # a 405 names the methods the path takes (RFC 9110)
            response.headers["Allow"] = exc.headers["Allow"]
        return response
    except BodyTooLarge:
        return shape.render(ApiError(413, "Request body too large"))
    except TooManyValues:
        return shape.render(ApiError(400, TOO_MANY_VALUES))
    except InvalidJson:
        return shape.render(ApiError(400, "The request body is not valid JSON."))
    except Busy:
        response = shape.render(BUSY)
        response.headers["Retry-After"] = "5"
        return response
    except UnpairedSurrogate:
        return shape.render(ApiError(shape.invalid_status, SURROGATE_MESSAGE))
    except (asyncpg.DeadlockDetectedError, asyncpg.SerializationError):
        log.warning("concurrent update conflict")
        return shape.render(CONFLICT)
    except (asyncpg.CharacterNotInRepertoireError, asyncpg.UntranslatableCharacterError):
        # Text PostgreSQL cannot store (U+0000) reached a statement, which then failed whole.
        return shape.render(ApiError(shape.invalid_status, NUL_MESSAGE))
    except asyncio.CancelledError:
        raise
    except UNAVAILABLE as exc:
        OUTAGES.failure(exc)
        return shape.render(shape.outage)
    except Exception:
        log.exception("unhandled error", method=request.method, path=_logged_path(request))
        return shape.render(ApiError(500, "Internal server error"))


@web.middleware
async def request_context(request: web.Request, handler) -> web.StreamResponse:
    request_id = request[REQUEST_ID_KEY] = _request_id(request)
    started = time.perf_counter()
    turns.ARRIVAL.set(started)
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
            seconds = time.perf_counter() - started
            caller = request.get(CALLER)
            metrics.observe_request(
                request.method,
                _route(request),
                status,
                seconds,
                None if caller is None else caller.label,
            )
            if request.path not in QUIET_PATHS:
                log.info(
                    "request",
                    method=request.method,
                    path=_logged_path(request),
                    status=status,
                    duration_ms=round(seconds * 1000, 2),
                )
