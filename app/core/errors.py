"""API errors and the body shape each family gives them.

Families A and C answer `{ "error": <message>, "code": <code> }`; Family B (the shop) answers
`{ "success": false, "message": <text> }`, with `errors` on a 422. The shape follows the
path that was called, so unknown paths under a family's prefix get that family's shape too.
"""

from __future__ import annotations

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

SHOP_PREFIXES = ("/api/users", "/api/import/", "/api/products", "/api/v1/exchanges/")


class ApiError(Exception):
    """Raised by handlers; `extra` fields are merged into the error body."""

    def __init__(self, status: int, message: str, code: str | None = None, **extra: Any):
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code or DEFAULT_CODES.get(status, "error")
        self.extra = extra


def is_shop_path(path: str) -> bool:
    return path.startswith(SHOP_PREFIXES)


def error_body(path: str, error: ApiError) -> dict[str, Any]:
    if is_shop_path(path):
        return {"success": False, "message": error.message, **error.extra}
    return {"error": error.message, "code": error.code, **error.extra}


def error_response(path: str, error: ApiError) -> web.Response:
    if html.is_html_path(path):
        hint = PAGE_HINTS.get(error.status, "Please try again later.")
        return html.page(error.status, error.message, hint)
    return json_response(error_body(path, error), status=error.status)


def from_http_exception(exc: web.HTTPException) -> ApiError:
    """aiohttp's own 404/405/413 as an ApiError, so they come back as JSON."""
    message = DEFAULT_MESSAGES.get(exc.status, exc.reason)
    return ApiError(exc.status, message)
