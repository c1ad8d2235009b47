"""Idempotency-Key on POST /api/v1/riders, /flags and /assignments
(docs/webhooks.md#idempotency-key)."""

import asyncio
from datetime import timedelta

import orjson
import pytest

from tests.training.conftest import AUTH
from tests.training.helpers import add_course, add_path, add_rider, assignments
from tests.waiting import until

RIDERS = {"riders": [{"riderId": "R-1", "name": "Omar", "market": "AE"}]}


async def post(client, path: str, body, key: str | None = "key-1", **headers):
    """(status, JSON body, Idempotent-Replayed header) of one call with the integration key."""
    if key is not None:
        headers["Idempotency-Key"] = key
    response = await client.post(path, data=orjson.dumps(body), headers={**AUTH, **headers})
    return response.status, await response.json(), response.headers.get("Idempotent-Replayed")


async def count(db, table: str) -> int:
    return await db.fetchval(f"SELECT count(*) FROM {table}")


@pytest.fixture
async def manual_path(db):
    await add_rider(db, "R-1")
    await add_rider(db, "R-2")
    return str(await add_path(db, "manual", [await add_course(db)]))


async def test_repeat_answers_the_stored_answer_and_changes_nothing(client, db, manual_path):
    body = {"pathId": manual_path, "riderIds": ["R-1"]}
    first = await post(client, "/api/v1/assignments", body)
    assert first == (200, {"enrollmentsCreated": 1}, None)
    # A second identical call would assign nobody (R-1 has the path open): the stored answer
    # says 1 again, so it was not run.
    assert await post(client, "/api/v1/assignments", body) == (
        200,
        {"enrollmentsCreated": 1},
        "true",
    )
    assert len(await assignments(db)) == 1


async def test_repeat_of_riders_upsert_keeps_first_answer(client, db):
    assert (await post(client, "/api/v1/riders", RIDERS))[:2] == (
        200,
        {"inserted": 1, "updated": 0, "enrollmentsCreated": 0, "errors": []},
    )
    await db.execute("UPDATE riders SET name = 'Changed' WHERE rider_id = 'R-1'")
    status, answer, replayed = await post(client, "/api/v1/riders", RIDERS)
    assert (status, answer["inserted"], replayed) == (200, 1, "true")
    assert await db.fetchval("SELECT name FROM riders WHERE rider_id = 'R-1'") == "Changed"


async def test_flag_is_recorded_once(client, db):
    await add_rider(db, "R-1")
    body = {"riderId": "R-1", "type": "late_delivery"}
    first = await post(client, "/api/v1/flags", body)
    again = await post(client, "/api/v1/flags", body)
    assert first[0] == again[0] == 200
    assert again[1] == first[1] and again[2] == "true"
    assert await count(db, "flags") == 1


async def test_client_errors_are_stored_too(client, db):
    body = {"riderId": "R-unknown", "type": "late_delivery"}
    first = await post(client, "/api/v1/flags", body)
    assert first[:2] == (404, {"error": first[1]["error"], "code": "not_found"})
    await add_rider(db, "R-unknown")
    assert await post(client, "/api/v1/flags", body) == (*first[:2], "true")
    assert await count(db, "flags") == 0


async def test_same_key_other_body_is_422(client, db, manual_path):
    await post(client, "/api/v1/assignments", {"pathId": manual_path, "riderIds": ["R-1"]})
    other = {"pathId": manual_path, "riderIds": ["R-2"]}
    assert await post(client, "/api/v1/assignments", other) == (
        422,
        {"error": "Idempotency-Key was used with another body", "code": "invalid_request"},
        None,
    )
    assert {row["rider_id"] for row in await assignments(db)} == {"R-1"}


async def test_keys_are_per_operation(client, db, manual_path):
    await post(client, "/api/v1/riders", RIDERS, key="shared")
    status, body, replayed = await post(
        client, "/api/v1/assignments", {"pathId": manual_path, "riderIds": ["R-2"]}, key="shared"
    )
    assert (status, body, replayed) == (200, {"enrollmentsCreated": 1}, None)


@pytest.mark.parametrize("key", ["", "x" * 256, "tab\there", "caf\u00e9"])
async def test_bad_key_is_400_in_the_family_shape(client, db, manual_path, key):
    status, body, _ = await post(
        client, "/api/v1/assignments", {"pathId": manual_path, "riderIds": ["R-1"]}, key=key
    )
    assert (status, body) == (
        400,
        {
            "error": "Idempotency-Key must be 1 to 255 printable ASCII characters.",
            "code": "invalid_request",
        },
    )
    assert await assignments(db) == []


async def test_longest_and_widest_keys_are_accepted(client, db, manual_path):
    for key in ("k" * 255, " !~"):
        status, _, _ = await post(
            client, "/api/v1/assignments", {"pathId": manual_path, "riderIds": ["R-1"]}, key=key
        )
        assert status == 200


async def test_without_the_header_nothing_is_stored(client, db, manual_path):
    body = {"pathId": manual_path, "riderIds": ["R-1"]}
    assert (await post(client, "/api/v1/assignments", body, key=None))[:2] == (
        200,
        {"enrollmentsCreated": 1},
    )
    assert (await post(client, "/api/v1/assignments", body, key=None))[:2] == (
        200,
        {"enrollmentsCreated": 0},
    )
    assert await count(db, "idempotency_keys") == 0


async def test_parallel_requests_with_one_key_run_once(client, db, manual_path):
    body = {"pathId": manual_path, "riderIds": ["R-1", "R-2"]}
    answers = await asyncio.gather(*(post(client, "/api/v1/assignments", body) for _ in range(8)))
    ran = [a for a in answers if a[0] == 200 and a[2] is None]
    assert len(ran) == 1 and ran[0][1] == {"enrollmentsCreated": 2}
    for status, answer, replayed in answers:
        if status == 409:
            assert answer["code"] == "conflict"
        else:
            assert (status, answer, replayed in (None, "true")) == (200, ran[0][1], True)
    assert len(await assignments(db)) == 2


async def test_parallel_requests_across_two_instances_run_once(
    client, make_client, db, manual_path
):
    other = await make_client()
    body = {"pathId": manual_path, "riderIds": ["R-1", "R-2"]}
    answers = await asyncio.gather(
        *(post(c, "/api/v1/assignments", body) for c in (client, other) * 4)
    )
    assert sum(1 for a in answers if a[0] == 200 and a[2] is None) == 1
    assert len(await assignments(db)) == 2


async def test_repeat_while_the_first_runs_is_409(client, db, manual_path):
    body = {"pathId": manual_path, "riderIds": ["R-1"]}
    # The first request's assignment insert waits on this lock, so it is still running.
    async with db.transaction():
        await db.execute("LOCK TABLE assignments IN EXCLUSIVE MODE")
        first = asyncio.create_task(post(client, "/api/v1/assignments", body))
        await until(lambda: count(db, "idempotency_keys"), "the first request claimed the key")
        status, answer, _ = await post(client, "/api/v1/assignments", body)
        assert (status, answer["code"]) == (409, "conflict")
    assert (await first)[:2] == (200, {"enrollmentsCreated": 1})


async def test_a_5xx_is_not_stored_and_the_key_can_be_retried(client, db, manual_path):
    body = {"pathId": manual_path, "riderIds": ["R-1"]}
    await db.execute("ALTER TABLE assignments RENAME TO assignments_away")
    try:
        assert (await post(client, "/api/v1/assignments", body))[0] == 500
    finally:
        await db.execute("ALTER TABLE assignments_away RENAME TO assignments")
    assert await post(client, "/api/v1/assignments", body) == (
        200,
        {"enrollmentsCreated": 1},
        None,
    )


async def test_an_expired_key_runs_again(client, db, manual_path):
    body = {"pathId": manual_path, "riderIds": ["R-1"]}
    await post(client, "/api/v1/assignments", body)
    await db.execute("UPDATE idempotency_keys SET expires_at = now() - interval '1 second'")
    await db.execute("DELETE FROM assignments")
    assert await post(client, "/api/v1/assignments", body) == (
        200,
        {"enrollmentsCreated": 1},
        None,
    )


async def _age_the_key(db, by: timedelta) -> None:
    """As if `by` had passed since the key was claimed."""
    await db.execute(
        "UPDATE idempotency_keys"
        " SET claimed_at = claimed_at - $1::interval, expires_at = expires_at - $1::interval",
        by,
    )


async def test_a_stored_answer_is_kept_24_hours(client, db, manual_path):
    body = {"pathId": manual_path, "riderIds": ["R-1"]}
    await post(client, "/api/v1/assignments", body)
    await db.execute("DELETE FROM assignments")
    await _age_the_key(db, timedelta(hours=23, minutes=59))
    assert await post(client, "/api/v1/assignments", body) == (
        200,
        {"enrollmentsCreated": 1},
        "true",
    )
    assert await assignments(db) == []
    await _age_the_key(db, timedelta(minutes=1))  # 24 hours since the claim: the key is free again
    assert await post(client, "/api/v1/assignments", body) == (
        200,
        {"enrollmentsCreated": 1},
        None,
    )
    assert len(await assignments(db)) == 1


async def test_a_claim_that_never_answered_is_taken_over_after_10_minutes(client, db, manual_path):
    body = {"pathId": manual_path, "riderIds": ["R-1"]}
    await post(client, "/api/v1/assignments", body)
    # The claim of a request whose process died before it answered: no status, no answer.
    await db.execute("UPDATE idempotency_keys SET status = NULL, answer = NULL")
    await db.execute("DELETE FROM assignments")
    await _age_the_key(db, timedelta(minutes=9, seconds=59))
    status, answer, _ = await post(client, "/api/v1/assignments", body)
    assert (status, answer["code"]) == (409, "conflict")
    assert await assignments(db) == []
    await _age_the_key(db, timedelta(seconds=1))
    assert await post(client, "/api/v1/assignments", body) == (
        200,
        {"enrollmentsCreated": 1},
        None,
    )
    assert len(await assignments(db)) == 1


async def test_openapi_documents_the_header_and_answers(client):
    document = await (await client.get("/api/openapi.json")).json()
    for path in ("/api/v1/riders", "/api/v1/flags", "/api/v1/assignments"):
        operation = document["paths"][path]["post"]
        headers = [p["name"] for p in operation["parameters"] if p["in"] == "header"]
        assert headers == ["Idempotency-Key"]
        assert "Idempotency-Key" in operation["responses"]["409"]["description"]
        assert "another body" in operation["responses"]["422"]["description"]
