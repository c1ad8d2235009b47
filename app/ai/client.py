"""The one client of the AI provider (docs/ai.md#provider): an OpenAI-compatible Chat Completions
API through the `openai` package's AsyncOpenAI, with a timeout and its retries on 429 and 5xx.

Two calls: `document` asks for a JSON document following a JSON schema (structured output) and
returns it parsed, not yet validated (the caller validates it with its marshmallow schema
before storing anything); `stream` yields an answer's text as it arrives. Every failure is a
`ProviderError` whose reason is one readable line, without prompt or answer text.
"""

from __future__ import annotations

import asyncio
import gc
import json
from collections.abc import AsyncIterator
from types import ModuleType
from typing import Any

from aiohttp import web

from app.core.config import Settings
from app.core.keys import SETTINGS

# Generation and translation answers are long (a course part is a few thousand tokens): a
# whole answer may take minutes. A stream's timeout is per read, between two chunks.
DOCUMENT_TIMEOUT = 300.0
STREAM_TIMEOUT = 60.0
CONNECT_TIMEOUT = 10.0
# Retries after the first attempt, on 408, 409, 429, 5xx and lost connections, with the
# client's backoff (it honours Retry-After).
MAX_RETRIES = 2
# What a malformed chunk raises as the client parses it (not JSON, or JSON of another shape).
MALFORMED = (ValueError, TypeError, AttributeError, KeyError, IndexError)


def _libraries() -> tuple[ModuleType, ModuleType]:
    """The openai package and the HTTP library under it (httpx2; httpx before openai 3), whose
    errors reading a stream can raise unwrapped. Imported on first use, not at start: they
    are a third of a web process's memory, which a server without AI never needs."""
    import openai

    try:
        import httpx2 as http
    except ImportError:  # pragma: no cover - openai < 3
        import httpx as http
    return openai, http


def _http_errors() -> tuple[type[Exception], ...]:
    openai, http = _libraries()
    return (openai.APIError, http.HTTPError)


class ProviderError(Exception):
    """The provider failed or answered something unusable; `reason` says which."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _reason(exc: Exception, timeout: float) -> str:
    openai, http = _libraries()
    if isinstance(exc, openai.APITimeoutError | http.TimeoutException):
        return f"no answer from the AI provider within {timeout:g} s"
    if isinstance(exc, openai.APIStatusError):
        # The provider's own words (its `error.message`), not the client's framing of them.
        body = exc.body if isinstance(exc.body, dict) else {}
        detail = body.get("message") if isinstance(body.get("message"), str) else ""
        return f"the AI provider answered {exc.status_code}: {detail[:200]}".rstrip(": ")
    if isinstance(exc, openai.APIConnectionError | http.TransportError):
        return "the AI provider could not be reached"
    return f"the AI provider's answer could not be read ({type(exc).__name__})"


def _openai_client(settings: Settings, http_client):
    openai, _ = _libraries()
    return openai.AsyncOpenAI(
        base_url=settings.ai_base_url,
        api_key=settings.ai_api_key,
        timeout=openai.Timeout(DOCUMENT_TIMEOUT, connect=CONNECT_TIMEOUT),
        max_retries=MAX_RETRIES,
        http_client=http_client,
    )


class Provider:
    def __init__(self, settings: Settings, http_client=None):
        self.model = settings.ai_model
        self._settings = settings
        self._http_client = http_client
        self._client = None
        self._opening = asyncio.Lock()

    async def _openai(self):
        """The openai client, made on the first call. The package's imports and the models it
        builds on its first request take a few tenths of a second: they run in a thread
        (`warm_up`), so that the event loop keeps serving others meanwhile."""
        async with self._opening:
            if self._client is None:
                await asyncio.to_thread(asyncio.run, warm_up(self._settings))
                self._client = _openai_client(self._settings, self._http_client)
                # The package's modules and models live as long as the process, like the
                # objects frozen at start (app.web.freeze_startup_objects).
                gc.freeze()
        return self._client

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()

    async def document(self, messages: list[dict], name: str, schema: dict) -> Any:
        """The model's JSON answer following `schema`, parsed (not yet validated)."""
        client = await self._openai()
        try:
            completion = await client.chat.completions.create(
                model=self.model,
                messages=messages,
                response_format={
                    "type": "json_schema",
                    "json_schema": {"name": name, "strict": True, "schema": schema},
                },
            )
        except _http_errors() as exc:
            raise ProviderError(_reason(exc, DOCUMENT_TIMEOUT)) from exc
        if not completion.choices:
            raise ProviderError("the AI provider's answer has no choices")
        choice = completion.choices[0]
        if choice.finish_reason == "length":
            raise ProviderError("the AI's answer was cut off: it is longer than the model allows")
        text = choice.message.content
        if not text:
            refusal = getattr(choice.message, "refusal", None)
            raise ProviderError("the model refused" if refusal else "the AI's answer is empty")
        try:
            return json.loads(text)
        except ValueError:
            raise ProviderError("the AI's answer is not valid JSON") from None

    async def stream(self, messages: list[dict]) -> AsyncIterator[str]:
        """The answer's text, piece by piece, as the provider sends it."""
        client = await self._openai()
        openai, _ = _libraries()
        try:
            chunks = await client.chat.completions.create(
                model=self.model,
                messages=messages,
                stream=True,
                timeout=openai.Timeout(STREAM_TIMEOUT, connect=CONNECT_TIMEOUT),
            )
            # Closed however the reading ends (a rider who leaves closes this generator).
            async with chunks:
                async for chunk in chunks:
                    if text := _text_of(chunk):
                        yield text
        except _http_errors() as exc:
            raise ProviderError(_reason(exc, STREAM_TIMEOUT)) from exc
        except MALFORMED as exc:
            raise ProviderError(_reason(exc, STREAM_TIMEOUT)) from exc


def _text_of(chunk) -> str | None:
    """A chunk's text. The client builds chunks without validating them: a field of another
    type raises here, or is something other than text."""
    if not chunk.choices:
        return None
    text = chunk.choices[0].delta.content
    if text is not None and not isinstance(text, str):
        raise TypeError("a chunk's content is not text")
    return text


# The app's provider, or None when the AI is not configured (docs/ai.md#provider).
PROVIDER = web.AppKey("ai_provider", Provider)


def _canned(request):
    _, http = _libraries()
    if b'"stream":true' in request.content.replace(b" ", b""):
        chunk = {
            "id": "w",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": "w",
            "choices": [{"index": 0, "delta": {"content": "{}"}, "finish_reason": None}],
        }
        body = f"data: {json.dumps(chunk)}\n\ndata: [DONE]\n\n".encode()
        return http.Response(200, content=body, headers={"Content-Type": "text/event-stream"})
    message = {"role": "assistant", "content": "{}"}
    return http.Response(
        200,
        json={
            "id": "w",
            "object": "chat.completion",
            "created": 0,
            "model": "w",
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        },
    )


async def warm_up(settings: Settings) -> None:
    """The openai client imports its modules and builds its models on its first request:
    one request of each kind the provider makes, against a canned answer, does it."""
    _, http = _libraries()
    canned = http.AsyncClient(transport=http.MockTransport(_canned))
    client = _openai_client(settings, canned)
    messages = [{"role": "user", "content": "warm-up"}]
    try:
        await client.chat.completions.create(
            model="warm-up",
            messages=messages,
            response_format={
                "type": "json_schema",
                "json_schema": {"name": "warm_up", "strict": True, "schema": {}},
            },
        )
        async with await client.chat.completions.create(
            model="warm-up", messages=messages, stream=True
        ) as chunks:
            async for _ in chunks:
                pass
    finally:
        await client.close()


async def provider_context(app: web.Application):
    """cleanup_ctx: one client (and its connection pool) for the life of the app; the
    openai package is imported when the AI is first called, not here."""
    settings = app[SETTINGS]
    app[PROVIDER] = provider = Provider(settings) if settings.ai_configured else None
    yield
    if provider is not None:
        await provider.close()
