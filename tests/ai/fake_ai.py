"""A fake OpenAI-compatible provider: a real aiohttp server on localhost speaking the Chat
Completions wire format (JSON answers; `stream: true` answers as SSE chunks ending with
`data: [DONE]`), so the service's real client code runs against it.

Each request takes the next scripted answer (`fake.script.append(...)`); with none left, a
JSON request gets `fake.default_document` and a streamed one `fake.default_stream`.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass, field

from aiohttp import web

KEY = "test-ai-key"
MODEL = "fake-model"

COURSE = {
    "title": "Helmet safety",
    "lessons": [
        {"title": "Why a helmet", "body": "A helmet **saves lives**."},
        {"title": "Fitting it", "body": "Two fingers above the eyebrows."},
    ],
    "quiz": [{"question": "When do you wear it?", "options": ["Always", "Never"], "correct": [0]}],
    "pass_mark": 70,
}


def completion(content: str, finish_reason: str = "stop") -> dict:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": MODEL,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": finish_reason,
                "logprobs": None,
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
    }


def chunk(text: str | None, finish_reason: str | None = None) -> bytes:
    delta = {"content": text} if text is not None else {}
    body = {
        "id": "chatcmpl-fake",
        "object": "chat.completion.chunk",
        "created": 1_700_000_000,
        "model": MODEL,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
    }
    return f"data: {json.dumps(body)}\n\n".encode()


# Scripted answers: each is a coroutine function (request, body) -> response.


def document(value) -> object:
    """A JSON answer whose message content is `value` (a dict is sent as JSON text)."""
    content = value if isinstance(value, str) else json.dumps(value)

    async def answer(_request, _body):
        return web.json_response(completion(content))

    return answer


def status(code: int, message: str = "overloaded") -> object:
    async def answer(_request, _body):
        return web.json_response(
            {"error": {"message": message, "type": "server_error", "code": None}},
            status=code,
            headers={"retry-after-ms": "1"},
        )

    return answer


def held(released: asyncio.Event) -> object:
    """The course, answered once `released` is set: the test decides when the answer comes."""

    async def answer(request, body):
        await released.wait()
        return await document(COURSE)(request, body)

    return answer


def slow(seconds: float, then=None) -> object:
    async def answer(request, body):
        await asyncio.sleep(seconds)
        return await (then or document(COURSE))(request, body)

    return answer


def stream(
    pieces: list[str], *, cut: bool = False, pause: float = 0.0, then: bytes = b""
) -> object:
    """SSE chunks of `pieces`; `cut`: the connection drops after them (no [DONE]); `then`:
    raw bytes sent after them (a malformed chunk)."""

    async def answer(request, _body):
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        await response.write(chunk(""))  # the role chunk providers send first
        for piece in pieces:
            await response.write(chunk(piece))
            if pause:
                await asyncio.sleep(pause)
        await response.write(then)
        if cut:
            request.transport.abort()
            return response
        await response.write(chunk(None, "stop"))
        await response.write(b"data: [DONE]\n\n")
        await response.write_eof()
        return response

    return answer


@dataclass
class FakeAI:
    url: str = ""
    script: list = field(default_factory=list)
    requests: list = field(default_factory=list)
    default_document: dict = field(default_factory=lambda: COURSE)
    default_stream: list = field(default_factory=lambda: ["Wear ", "your helmet", "."])
    numbers: itertools.count = field(default_factory=itertools.count)

    @property
    def env(self) -> dict[str, str]:
        return {"AI_BASE_URL": self.url, "AI_API_KEY": KEY, "AI_MODEL": MODEL}

    async def handle(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append({"authorization": request.headers.get("Authorization"), "json": body})
        if self.script:
            answer = self.script.pop(0)
        elif body.get("stream"):
            answer = stream(self.default_stream)
        else:
            answer = document(self.default_document)
        return await answer(request, body)

    def prompts(self) -> list[str]:
        """Every message text the provider was sent, in order."""
        return [m["content"] for r in self.requests for m in r["json"]["messages"]]
