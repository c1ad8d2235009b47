"""The riders' assistant (`/training/assistant`): the page, and the answer streamed as
server-sent events (or, to a browser's plain form POST, the page with the whole answer)."""

from __future__ import annotations

import structlog
from aiohttp import web

from app.ai import assistant
from app.ai.client import PROVIDER, ProviderError
from app.ai.texts import texts
from app.core.keys import POOL, SETTINGS
from app.rider import layout
from app.rider.guard import RIDER

log = structlog.get_logger("ai")

routes = web.RouteTableDef()


def _assistant_page(request, status=200, *, question="", error=None, answer="", problem=None):
    """The page in the rider's language, in the rider app's layout (the guard's rider)."""
    context = {
        "words": texts(request[RIDER].language),
        "ai_configured": request.app[SETTINGS].ai_configured,
        "question": question,
        "error": error,
        "answer": answer,
        "problem": problem,
    }
    return layout.render(request, "rider/assistant.html", context, status=status)


def _wants_page(request: web.Request) -> bool:
    """A browser's plain form POST (no script) gets the page with the whole answer; the page's
    script and other clients get the stream."""
    accept = request.headers.get("Accept", "")
    return "text/html" in accept and "text/event-stream" not in accept


def _refusal(request, status, problem, question="", headers=None, *, error=None):
    if _wants_page(request):
        response = _assistant_page(request, status, question=question, error=error, problem=problem)
    else:
        response = web.Response(
            status=status, text=error or problem, content_type="text/plain", charset="utf-8"
        )
    response.headers.update(headers or {})
    return response


@routes.get("/training/assistant")
async def assistant_page(request: web.Request) -> web.Response:
    return _assistant_page(request)


def _event(text: str, event: str | None = None) -> bytes:
    lines = [f"event: {event}"] if event else []
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines += [f"data: {line}" for line in text.split("\n")]
    return ("\n".join(lines) + "\n\n").encode()


@routes.post("/training/assistant")
async def ask(request: web.Request) -> web.StreamResponse:
    language = request[RIDER].language
    words = texts(language)
    given = (await request.post()).get("question")
    question = given.strip() if isinstance(given, str) else ""
    if not request.app[SETTINGS].ai_configured:
        return _refusal(request, 503, words["unconfigured"], question)
    if error := assistant.question_error(question, language):
        return _refusal(request, 400, None, question, error=error)
    pool, rider_id = request.app[POOL], request[RIDER].rider_id
    try:
        await assistant.count_question(pool, rider_id)
    except assistant.TooManyQuestions as exc:
        retry = {"Retry-After": str(exc.minutes * 60)}
        return _refusal(request, 429, exc.message(language), question, retry)
    found = await assistant.references(pool, rider_id, question, language)
    answer = request.app[PROVIDER].stream(assistant.messages(question, language, found))
    if _wants_page(request):
        return await _whole_answer(request, question, answer)
    response = web.StreamResponse(
        headers={"Content-Type": "text/event-stream; charset=utf-8", "X-Accel-Buffering": "no"}
    )
    await response.prepare(request)
    try:
        try:
            async for text in answer:
                await response.write(_event(text))
        except ProviderError as exc:
            log.error("Assistant stream failed", reason=exc.reason)
            await response.write(_event(words["failed"], "error"))
        await response.write(_event("", "done"))
        await response.write_eof()
    except ConnectionResetError:
        pass  # the rider left the page: nothing more to send
    finally:
        await answer.aclose()
    return response


async def _whole_answer(request, question, answer) -> web.Response:
    parts, problem = [], None
    try:
        async for text in answer:
            parts.append(text)
    except ProviderError as exc:
        log.error("Assistant stream failed", reason=exc.reason)
        problem = texts(request[RIDER].language)["failed"]
    return _assistant_page(request, question=question, answer="".join(parts), problem=problem)
