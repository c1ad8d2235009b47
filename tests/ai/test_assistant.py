"""The riders' assistant: GET /training/assistant and POST /training/assistant (SSE stream, or
the whole answer on a page without script), the hourly limit, provider failures."""

from __future__ import annotations

import asyncio

import pytest
import structlog

from app.ai import store
from app.ai.client import Provider
from app.core import database
from app.training import courses
from tests.ai import fake_ai as fake
from tests.ai.conftest import as_rider
from tests.waiting import until
from tests.web import csrf_of

ASSISTANT = "/training/assistant"
STREAM = {"Accept": "text/event-stream"}
BROWSER = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
QUESTION = "Where do I pay cash orders?"


async def rider_client(ai_client, make_rider, language="en", **env):
    client = as_rider(await ai_client(**env), await make_rider(language=language))
    return client


async def ask(client, question=QUESTION, headers=STREAM):
    token = csrf_of(await (await client.get(ASSISTANT)).text())
    return await client.post(
        ASSISTANT,
        data={"question": question, "csrf_token": token},
        headers=headers,
        allow_redirects=False,
    )


def events(body: str) -> list[tuple[str, str]]:
    """(event, data) of an SSE body."""
    found = []
    for block in body.split("\n\n"):
        if not block:
            continue
        name, data = "message", []
        for line in block.split("\n"):
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data:"):
                data.append(line[6:] if line.startswith("data: ") else line[5:])
        found.append((name, "\n".join(data)))
    return found


async def add_knowledge(database_url):
    async with database.connect(database_url) as conn:
        await store.add_knowledge(
            conn, "Hub rules", 10, 10, None, ["Cash orders are paid to the hub before 22:00."]
        )


async def test_the_answer_streams_as_server_sent_events(
    ai_client, make_rider, fake_ai, database_url
):
    await add_knowledge(database_url)
    client = await rider_client(ai_client, make_rider)
    fake_ai.script.append(fake.stream(["Pay at ", "the hub\nbefore 22:00", "."]))
    with structlog.testing.capture_logs() as logs:
        response = await ask(client)
        body = await response.text()
    assert response.status == 200
    assert response.headers["Content-Type"] == "text/event-stream; charset=utf-8"
    assert response.headers["Cache-Control"] == "no-store"
    assert events(body) == [
        ("message", "Pay at "),
        ("message", "the hub\nbefore 22:00"),
        ("message", "."),
        ("done", ""),
    ]
    request = fake_ai.requests[0]["json"]
    assert request["stream"] is True and request["model"] == fake.MODEL
    system, user = request["messages"]
    assert user == {"role": "user", "content": QUESTION}
    assert "Cash orders are paid to the hub before 22:00." in system["content"]
    assert "in English" in system["content"]
    # Neither the question nor the answer reaches the application log.
    assert "cash orders" not in str(logs).lower() and "22:00" not in str(logs)


async def test_the_riders_courses_are_searched_in_their_language(
    ai_client, make_rider, fake_ai, database_url
):
    client = await rider_client(ai_client, make_rider, language="ar")
    async with database.connect(database_url) as conn:
        course_id = await courses.save_course(conn, fake.COURSE, published=True)
        await conn.execute(
            "INSERT INTO paths (path_id, name, days_to_complete)"
            " VALUES ('00000000-0000-4000-9000-000000000001', 'Safety', 7)"
        )
        await conn.execute(
            "INSERT INTO path_courses (path_id, course_id, position)"
            " VALUES ('00000000-0000-4000-9000-000000000001', $1, 1)",
            course_id,
        )
        await conn.execute(
            "INSERT INTO assignments (rider_id, path_id, why, deadline)"
            " VALUES ('R-1', '00000000-0000-4000-9000-000000000001', 'admin', now())"
        )
    response = await ask(client, "How do I fit my helmet above the eyebrows?")
    await response.text()
    system = fake_ai.requests[0]["json"]["messages"][0]["content"]
    assert "Two fingers above the eyebrows." in system and "Helmet safety" in system
    assert "in Arabic" in system


async def test_a_provider_failure_mid_stream_ends_the_answer_with_a_message(
    ai_client, make_rider, fake_ai
):
    client = await rider_client(ai_client, make_rider)
    fake_ai.script.append(fake.stream(["Pay at "], cut=True))
    with structlog.testing.capture_logs() as logs:
        response = await ask(client)
        body = await response.text()
    assert response.status == 200
    assert events(body) == [
        ("message", "Pay at "),
        (
            "error",
            "The answer stopped: the assistant is not available right now. Please try again later.",
        ),
        ("done", ""),
    ]
    lines = [line for line in logs if line["event"] == "Assistant stream failed"]
    assert len(lines) == 1 and lines[0]["log_level"] == "error"
    assert lines[0]["reason"]
    assert "Pay at" not in str(logs)


@pytest.mark.parametrize(
    "malformed",
    [
        b"data: {not json\n\n",
        b'data: {"id": "x", "choices": {"0": "not a list"}}\n\n',
        b'data: {"id": "x", "choices": [{"index": 0, "delta": "not an object"}]}\n\n',
        b"data: [1, 2]\n\n",
    ],
)
async def test_a_malformed_chunk_ends_the_answer_with_error_then_done(
    ai_client, make_rider, fake_ai, malformed
):
    client = await rider_client(ai_client, make_rider)
    fake_ai.script.append(fake.stream(["Pay at "], then=malformed))
    with structlog.testing.capture_logs() as logs:
        response = await ask(client)
        body = await asyncio.wait_for(response.text(), 30)  # it hung before
    assert response.status == 200
    assert [name for name, _ in events(body)] == ["message", "error", "done"]
    assert "HTTP/1.1" not in body  # no second response written into the stream
    lines = [line for line in logs if line["event"] == "Assistant stream failed"]
    assert len(lines) == 1 and lines[0]["reason"].startswith(
        "the AI provider's answer could not be read"
    )
    assert not [line for line in logs if line["event"] == "unhandled error"]


async def test_any_failure_once_the_stream_started_still_ends_it_well(
    ai_client, make_rider, fake_ai, monkeypatch
):
    async def failing_stream(self, messages):
        yield "Pay at "
        raise RuntimeError("a bug of ours")

    client = await rider_client(ai_client, make_rider)
    monkeypatch.setattr(Provider, "stream", failing_stream)  # after the start's warm-up
    with structlog.testing.capture_logs() as logs:
        response = await ask(client)
        body = await asyncio.wait_for(response.text(), 30)
    assert [name for name, _ in events(body)] == ["message", "error", "done"]
    lines = [line for line in logs if line["event"] == "Assistant stream failed"]
    assert [line["reason"] for line in lines] == ["unexpected error (RuntimeError)"]
    assert not [line for line in logs if line["event"] == "unhandled error"]


async def test_a_provider_that_refuses_the_request(ai_client, make_rider, fake_ai):
    client = await rider_client(ai_client, make_rider)
    fake_ai.script.extend([fake.status(500)] * 3)
    with structlog.testing.capture_logs() as logs:
        body = await (await ask(client)).text()
    assert [name for name, _ in events(body)] == ["error", "done"]
    lines = [line for line in logs if line["event"] == "Assistant stream failed"]
    assert [line["reason"] for line in lines] == ["the AI provider answered 500: overloaded"]


async def test_without_script_the_page_shows_the_whole_answer(ai_client, make_rider, fake_ai):
    client = await rider_client(ai_client, make_rider, language="ur")
    response = await ask(client, "<script>alert(1)</script>", headers=BROWSER)
    page = await response.text()
    assert response.status == 200 and response.content_type == "text/html"
    assert "Wear your helmet." in page
    assert 'dir="rtl"' in page and 'lang="ur"' in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert" not in page


async def test_the_41st_question_in_an_hour_is_refused(
    ai_client, make_rider, fake_ai, database_url
):
    client = await rider_client(ai_client, make_rider)
    async with database.connect(database_url) as conn:
        await conn.execute(
            "INSERT INTO assistant_questions (rider_id, asked_at)"
            " SELECT 'R-1', now() - interval '30 minutes' - n * interval '1 second'"
            " FROM generate_series(1, 39) AS n"
        )
        await conn.execute(
            "INSERT INTO assistant_questions (rider_id, asked_at)"
            " VALUES ('R-1', now() - interval '2 hours')"
        )
    response = await ask(client)  # the 40th
    assert response.status == 200
    await response.text()
    response = await ask(client)
    assert response.status == 429
    text = await response.text()
    assert text == (
        "You have asked 40 questions in the last hour. You can ask the next one in 30 minutes."
    )
    assert response.headers["Retry-After"] == "1800"
    response = await ask(client, headers=BROWSER)
    assert response.status == 429
    assert "You can ask the next one in 30 minutes." in await response.text()
    assert len(fake_ai.requests) == 1
    async with database.connect(database_url) as conn:
        # The hour-old question was forgotten.
        assert await conn.fetchval("SELECT count(*) FROM assistant_questions") == 40


async def test_an_empty_or_too_long_question(ai_client, make_rider, fake_ai):
    client = await rider_client(ai_client, make_rider)
    response = await ask(client, "   ")
    assert response.status == 400 and await response.text() == "Write your question."
    response = await ask(client, "x" * 1001, headers=BROWSER)
    assert response.status == 400
    assert "Your question is too long (at most 1000 characters)." in await response.text()
    assert fake_ai.requests == []


async def test_unconfigured_the_assistant_says_so(ai_client, make_rider):
    client = await rider_client(ai_client, make_rider, AI_API_KEY=None)
    page = await (await client.get(ASSISTANT)).text()
    assert "The assistant is not available: AI is not configured." in page
    assert "<textarea" not in page
    response = await client.post(ASSISTANT, data={"question": "hi"}, headers=STREAM)
    assert response.status == 403  # without its token


async def test_unconfigured_post_answers_503(ai_client, make_rider, database_url):
    client = await rider_client(ai_client, make_rider, AI_MODEL=None)
    async with database.connect(database_url) as conn:
        secret = await conn.fetchval("SELECT csrf_secret FROM web_sessions")
    response = await client.post(
        ASSISTANT, data={"question": "hi", "csrf_token": secret}, headers=STREAM
    )
    assert response.status == 503
    assert await response.text() == "The assistant is not available: AI is not configured."


async def test_a_rider_must_be_signed_in(ai_client):
    client = await ai_client()
    response = await client.get(ASSISTANT, allow_redirects=False)
    assert response.status == 303 and response.headers["Location"] == "/"
    response = await client.post(ASSISTANT, data={"question": "x"}, allow_redirects=False)
    assert response.status == 303


async def test_a_post_without_its_csrf_token_is_refused(ai_client, make_rider, fake_ai):
    client = await rider_client(ai_client, make_rider)
    response = await client.post(ASSISTANT, data={"question": "x"}, headers=STREAM)
    assert response.status == 403
    assert fake_ai.requests == []


async def test_a_rider_who_leaves_mid_answer_is_no_failure(ai_client, make_rider, fake_ai):
    client = await rider_client(ai_client, make_rider)
    fake_ai.script.append(fake.stream(["one ", "two ", "three"], pause=0.2))
    with structlog.testing.capture_logs() as logs:
        response = await ask(client)
        assert (await response.content.readany()).startswith(b"data: one")
        response.close()
        # The request's log line is written when its handler has ended.
        await until(
            lambda: [line for line in logs if line.get("path") == ASSISTANT], "the request ended"
        )
    assert not [line for line in logs if line["log_level"] in ("error", "critical")]


async def test_my_training_links_the_assistant_only_while_ai_is_set_up(ai_client, make_rider):
    configured = await rider_client(ai_client, make_rider)
    assert 'href="/training/assistant"' in await (await configured.get("/training")).text()
    unconfigured = as_rider(await ai_client(AI_API_KEY=None), await make_rider("R-2", "ar"))
    page = await (await unconfigured.get("/training")).text()
    assert "/training/assistant" not in page and "اسأل المساعد" not in page
