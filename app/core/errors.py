"""API errors, and the error shapes packages answer them in.

Each package's descriptor names its URL prefixes and its `ErrorShape`; the shape follows the
path that was called (the longest prefix wins), so unknown paths under a package's prefix get
that package's shape too. A path under no prefix gets `JSON_ERRORS` under `/api`
(`{ "error": <message>, "code": <code> }`) and `HTML_ERRORS` (a page) elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from app.core import html
from app.core.http import json_response

DEFAULT_CODES = {
    400: "invalid_request",
    401: "unauthorized",
    403: "forbidden",
    429: "too_many_requests",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "payload_too_large",
    422: "unprocessable_entity",
    500: "internal_error",
    503: "api_disabled",
}

DEFAULT_MESSAGES = {
    404: "Not found",
    405: "Method not allowed",
    413: "Request body too large",
    500: "Internal server error",
}

# What a person is told under an error page's title.
PAGE_HINTS = {
    403: "Go back, reload the page and try again.",
    404: "The address may be mistyped, or the page no longer exists.",
    405: "This address does not accept that kind of request.",
    413: "What was sent is too large.",
    429: "Please wait a few minutes and try again.",
    500: "Something went wrong on our side. Please try again later.",
    503: "Please try again in a few minutes.",
}

# PostgreSQL cannot store U+0000 in text.
NUL_MESSAGE = "Text must not contain the NUL character (U+0000)."
# ... nor a lone UTF-16 surrogate, which JSON can spell (`"\ud800"`) but Unicode text cannot hold.
SURROGATE_MESSAGE = "Text must not contain an unpaired surrogate (\\ud800 to \\udfff)."


class ApiError(Exception):
    """Raised by handlers; `extra` fields are merged into the error body."""

    def __init__(self, status: int, message: str, code: str | None = None, **extra: Any):
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code or DEFAULT_CODES.get(status, "error")
        self.extra = extra


@dataclass(frozen=True)
class ErrorShape:
    """How a package answers an error; `invalid_status` is its status for input it refuses
    (400, or 422 where the package's API says so)."""

    render: Callable[[ApiError], web.Response]
    invalid_status: int = 400
    # The body's marshmallow schema in the OpenAPI document (None: `openapi.ErrorSchema`).
    schema: Any = None
    # The answer while the database is unavailable.
    outage: ApiError = ApiError(500, "Internal server error")


def _json_error(error: ApiError) -> web.Response:
    body = {"error": error.message, "code": error.code, **error.extra}
    return json_response(body, status=error.status)


def _html_error(error: ApiError) -> web.Response:
    return html.page(error.status, error.message, PAGE_HINTS.get(error.status, PAGE_HINTS[500]))


JSON_ERRORS = ErrorShape(_json_error)
# Pages people open in a browser: errors there are pages too, never JSON; while the database
# is down a page says so (503), where the APIs keep their contract's 500.
HTML_ERRORS = ErrorShape(
    _html_error, outage=ApiError(503, "The service is not available right now", "unavailable")
)


class ErrorShapes:
    """The error shape of each URL prefix; the longest prefix that matches wins."""

    def __init__(self, prefixes: Iterable[tuple[str, ErrorShape]]):
        self._prefixes = sorted(prefixes, key=lambda item: len(item[0]), reverse=True)

    def for_path(self, path: str) -> ErrorShape:
        for prefix, shape in self._prefixes:
            if path.startswith(prefix):
                return shape
        return HTML_ERRORS if html.is_html_path(path) else JSON_ERRORS


def from_http_exception(exc: web.HTTPException) -> ApiError:
    """aiohttp's own 404/405/413 as an ApiError, so they come back as JSON."""
    message = DEFAULT_MESSAGES.get(exc.status, exc.reason)
    return ApiError(exc.status, message)
