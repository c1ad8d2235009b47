"""The full list is streamed: chunked, complete, in order; a client that leaves or a database
that fails mid-stream leaves the server healthy."""

import asyncio

import orjson
import pytest
from aiohttp import ClientPayloadError, ClientSession, web
from aiohttp.test_utils import unused_port
from structlog.testing import capture_logs

from app.checks import store, streaming
from app.checks.streaming import CHUNK_CHARS, MAX_STREAMS
from app.web import create_app
from tests.checks.data import AUTH, answer, check, load, question
from tests.conftest import make_settings
from tests.streams import settled

QUESTIONS = [question(q) for q in range(1, 11)]


def many_checks(count, reported_size=0):
    return [
        check(
            i,
            recorder_id=i % 7 + 1,
            reported_items=["x" * reported_size] if reported_size else None,
            answers=[
                answer(q, evidence_image_url=f"https://cdn.example.com/e/{i}-{q}.jpg")
                for q in range(1, 11)
            ],
        )
        for i in range(1, count + 1)
    ]


async def test_thousands_of_checks_arrive_complete_in_order_in_many_chunks(client, db):
    await load(db, questions=QUESTIONS, checks=many_checks(3000))
    response = await client.get("/api/v2/checks", headers={**AUTH, "X-Request-Id": "trace-42"})
    assert response.status == 200
    assert response.headers["X-Request-Id"] == "trace-42"
    assert response.headers["Transfer-Encoding"] == "chunked"
    assert "Content-Length" not in response.headers
    assert response.headers["Content-Type"] == "application/json; charset=utf-8"
    body, http_chunks, largest = bytearray(), 0, 0
    async for data, end_of_http_chunk in response.content.iter_chunks():
        body += data
        http_chunks += end_of_http_chunk
        largest = max(largest, len(data))
    checks = orjson.loads(body)
    assert [c["ID"] for c in checks] == list(range(1, 3001))
    assert all(len(c["Questioner"]) == 10 for c in checks)
    # Written piecewise as rows arrive, not buffered into one body.
    assert http_chunks >= len(body) // (4 * CHUNK_CHARS)
    assert largest < 4 * CHUNK_CHARS


async def test_a_filtered_stream_is_valid_json_across_chunks(client, db):
    await load(db, questions=QUESTIONS, checks=many_checks(1500))
    response = await client.get("/api/v2/checks?recorder_id=3", headers=AUTH)
    checks = orjson.loads(await response.read())
    assert [c["ID"] for c in checks] == [i for i in range(1, 1501) if i % 7 + 1 == 3]


@pytest.fixture
async def big(db):
    # ~25 MB: more than the socket buffers hold, so the server is still writing when the
    # client leaves.
    await load(db, questions=QUESTIONS, checks=many_checks(1000, reported_size=25_000))


@pytest.fixture
async def served(database_url):
    """The app behind a runner configured as `python -m app serve` runs it: a client that
    leaves does not cancel the handler, so only the next write can tell."""
    runner = web.AppRunner(create_app(make_settings(), database_url))
    await runner.setup()
    port = unused_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    async with ClientSession(f"http://127.0.0.1:{port}") as session:
        yield runner.app, session
    await runner.cleanup()


async def test_client_leaving_mid_stream_ends_the_query_and_the_server_stays_healthy(
    served, db, big
):
    app, session = served
    with capture_logs() as logs:
        response = await session.get("/api/v2/checks", headers=AUTH)
        first = await response.content.read(CHUNK_CHARS)
        assert first.startswith(b'[{"ID":1,')
        response.close()
        assert await settled(app, db)
    assert any(entry["event"] == "client went away mid-stream" for entry in logs)
    again = await session.get("/api/v2/checks?rider_id=501", headers=AUTH)
    assert [c["ID"] for c in await again.json()] == [1]


async def test_cancelled_handler_ends_the_query_too(client, db, big):
    # The test server cancels a handler whose client left (aiohttp's handler_cancellation).
    response = await client.get("/api/v2/checks", headers=AUTH)
    await response.content.read(CHUNK_CHARS)
    response.close()
    assert await settled(client.app, db)
    again = await client.get("/api/v2/checks?rider_id=501", headers=AUTH)
    assert [c["ID"] for c in await again.json()] == [1]


async def test_database_failing_mid_stream_breaks_the_body_and_the_server_recovers(client, db, big):
    response = await client.get("/api/v2/checks", headers=AUTH)
    assert response.status == 200
    await response.content.read(CHUNK_CHARS)
    terminated = await db.fetchval(
        "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity"
        " WHERE application_name = 'rider-ops' AND state <> 'idle' AND pid <> pg_backend_pid()"
    )
    assert terminated == 1
    with pytest.raises(ClientPayloadError):
        await response.read()
    again = await client.get("/api/v2/checks?rider_id=501", headers=AUTH)
    assert again.status == 200
    assert [c["ID"] for c in await again.json()] == [1]


async def test_slow_readers_cannot_take_the_whole_pool(served, db, big, monkeypatch):
    # Ten clients open the full list and read nothing; the other families keep working.
    monkeypatch.setattr(streaming.STREAMS, "wait", 0.5)
    app, session = served
    readers = [await session.get("/api/v2/checks", headers=AUTH) for _ in range(MAX_STREAMS)]
    refused = await asyncio.gather(
        *(session.get("/api/v2/checks", headers=AUTH) for _ in range(10 - MAX_STREAMS))
    )
    try:
        assert [r.status for r in readers] == [200] * MAX_STREAMS
        assert {r.status for r in refused} == {503}
        assert (await refused[0].json())["code"] == "busy"
        other = await session.get(
            "/api/v1/completions?limit=1", headers={"x-api-key": "test-integration-key"}
        )
        assert other.status == 200
        questions = await session.get("/api/v2/questioner", headers=AUTH)
        assert questions.status == 200
        # One rider's checks take no stream slot: a single statement, no cursor.
        rider = await session.get("/api/v2/checks?rider_id=501", headers=AUTH)
        assert rider.status == 200
        assert [c["ID"] for c in await rider.json()] == [1]
    finally:
        for response in readers + list(refused):
            response.close()
    assert await settled(app, db)


async def test_an_array_that_fits_in_two_batches_is_sent_whole_with_its_length(client, db):
    count = 2 * store.FETCH_ROWS  # the second batch is full: one more fetch finds the end
    await load(db, questions=QUESTIONS, checks=many_checks(count + 3))
    for query, expected in [
        ("?recorder_id=3", [i for i in range(1, count + 4) if i % 7 + 1 == 3]),
        ("?rider_id=505", [5]),
        ("?rider_id=1", []),
    ]:
        response = await client.get(f"/api/v2/checks{query}", headers=AUTH)
        assert response.status == 200
        assert "Transfer-Encoding" not in response.headers
        body = await response.read()
        assert int(response.headers["Content-Length"]) == len(body)
        assert [c["ID"] for c in orjson.loads(body)] == expected
    response = await client.get("/api/v2/checks", headers=AUTH)
    assert response.headers["Transfer-Encoding"] == "chunked"
    assert [c["ID"] for c in orjson.loads(await response.read())] == list(range(1, count + 4))
