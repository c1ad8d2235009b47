"""POST /api/v1/assignments: who gets the path, and the 400/404 answers."""

import asyncio
import uuid

import pytest

from app.core import http
from app.core.gates import Gate
from tests.training.helpers import add_course, add_path, add_result, add_rider, assignments, utc

SHAPE_MESSAGE = (
    "Send { pathId, riderIds?, markets?, vehicleTypes?, statuses? }: pathId a UUID, the others "
    "arrays of strings of 1 to 64 characters (riderIds at most 250000, each filter at most 100)."
)


@pytest.fixture
async def riders(db):
    await add_rider(db, "R-ae-moto", market="AE", vehicle_type="motorbike")
    await add_rider(db, "R-ae-car", market="AE", vehicle_type="car", status="suspended")
    await add_rider(db, "R-qa-moto", market="QA", vehicle_type="motorbike", status="onboarding")
    await add_rider(db, "R-ae-inactive", market="AE", vehicle_type="motorbike", status="inactive")


async def assigned(db) -> set[str]:
    return {row["rider_id"] for row in await assignments(db)}


@pytest.mark.parametrize(
    ("criteria", "expected"),
    [
        (
            {"riderIds": ["R-ae-moto", "R-qa-moto", "R-unknown", "R-ae-moto"]},
            {"R-ae-moto", "R-qa-moto"},
        ),
        ({"markets": ["AE"]}, {"R-ae-moto", "R-ae-car"}),
        ({"markets": ["AE", "QA"], "vehicleTypes": ["motorbike"]}, {"R-ae-moto", "R-qa-moto"}),
        ({"statuses": ["suspended", "onboarding"]}, {"R-ae-car", "R-qa-moto"}),
        ({"statuses": ["inactive"]}, set()),
        (
            {"riderIds": ["R-ae-moto", "R-ae-car", "R-ae-inactive"], "vehicleTypes": ["car"]},
            {"R-ae-car"},
        ),
        ({"riderIds": ["R-qa-moto"], "markets": ["AE"]}, set()),
        ({"markets": ["ae"]}, set()),  # matched exactly
        ({"riderIds": ["R-ae-moto"], "markets": []}, {"R-ae-moto"}),  # an empty filter: not given
    ],
)
async def test_criteria_combine_with_and_and_inactive_never(api, db, riders, criteria, expected):
    path = await add_path(db, "manual", [await add_course(db)], days=9)
    status, body = await api.post("/api/v1/assignments", {"pathId": str(path), **criteria})
    assert (status, body) == (200, {"enrollmentsCreated": len(expected)})
    rows = await assignments(db)
    assert {row["rider_id"] for row in rows} == expected
    for row in rows:
        assert (row["path_id"], row["why"], row["completed_at"]) == (path, "api", None)
        assert (row["deadline"] - row["assigned_at"]).days == 9


async def test_path_rule_filters_and_active_are_ignored(api, db, riders):
    path = await add_path(
        db, "flag", flag_types=["equipment"], active=False, markets=["QA"], vehicle_types=["car"]
    )
    status, body = await api.post(
        "/api/v1/assignments", {"pathId": str(path), "riderIds": ["R-ae-moto"]}
    )
    assert body == {"enrollmentsCreated": 1}


async def test_open_is_skipped_and_completed_is_assigned_again(api, db, riders):
    course = await add_course(db)
    path = await add_path(db, "manual", [course])
    request = {"pathId": str(path), "riderIds": ["R-ae-moto", "R-ae-car"]}
    assert (await api.post("/api/v1/assignments", request))[1] == {"enrollmentsCreated": 2}
    assert (await api.post("/api/v1/assignments", request))[1] == {"enrollmentsCreated": 0}
    await db.execute("UPDATE assignments SET completed_at = now() WHERE rider_id = 'R-ae-car'")
    assert (await api.post("/api/v1/assignments", request))[1] == {"enrollmentsCreated": 1}
    rows = await assignments(db)
    assert [row["rider_id"] for row in rows] == ["R-ae-car", "R-ae-moto", "R-ae-car"]
    assert rows[2]["completed_at"] is None


async def test_assignment_completes_at_once_when_every_course_was_passed(api, db, riders):
    courses = [await add_course(db), await add_course(db)]
    path = await add_path(db, "manual", courses)
    await add_result(db, "R-ae-moto", courses[0], utc(2026, 3, 1), "AAAAAAA2")
    await add_result(db, "R-ae-moto", courses[1], utc(2026, 3, 2), "AAAAAAA3")
    await add_result(db, "R-ae-car", courses[1], utc(2026, 3, 2), "AAAAAAA4")
    await db.execute(
        "INSERT INTO course_results (rider_id, course_id, language, started_at) VALUES"
        " ('R-ae-car', $1, 'en', now())",
        courses[0],
    )  # opened, not passed
    status, body = await api.post("/api/v1/assignments", {"pathId": str(path), "markets": ["AE"]})
    assert body == {"enrollmentsCreated": 2}
    done = {row["rider_id"]: row["completed_at"] is not None for row in await assignments(db)}
    assert done == {"R-ae-moto": True, "R-ae-car": False}


async def test_path_without_courses_completes_at_once(api, db, riders):
    path = await add_path(db, "manual")
    await api.post("/api/v1/assignments", {"pathId": str(path), "riderIds": ["R-ae-moto"]})
    assert (await assignments(db))[0]["completed_at"] is not None


async def test_unknown_path_is_404(api, db, riders):
    status, body = await api.post(
        "/api/v1/assignments", {"pathId": str(uuid.uuid4()), "markets": ["AE"]}
    )
    assert (status, body) == (404, {"error": "Learning path not found", "code": "not_found"})


BAD_BODIES = [
    {"riderIds": ["R-1"]},
    {"pathId": "not-a-uuid", "riderIds": ["R-1"]},
    # Forms uuid.UUID() reads but the document's `uuid` format does not allow.
    {"pathId": "{5b0e8a52-3f6c-4d1e-9a57-0c2f1e7d9b34}", "riderIds": ["R-1"]},
    {"pathId": "5b0e8a523f6c4d1e9a570c2f1e7d9b34", "riderIds": ["R-1"]},
    # null is no array: an optional field is left out, never null.
    {"pathId": "{path}", "riderIds": None, "markets": ["AE"]},
    {"pathId": "{path}", "markets": None},
    {"pathId": 12, "riderIds": ["R-1"]},
    {"pathId": "{path}", "riderIds": "R-1"},
    {"pathId": "{path}", "riderIds": ["R-1", 2]},
    {"pathId": "{path}", "markets": "AE"},
    {"pathId": "{path}", "vehicleTypes": [None]},
    {"pathId": "{path}", "statuses": {"active": True}},
    {"pathId": "{path}", "riderIds": [f"R-{i}" for i in range(250_001)]},
    {"pathId": "{path}", "riderIds": ["R" * 65]},
    {"pathId": "{path}", "riderIds": [""]},
    {"pathId": "{path}", "markets": ["AE"] * 101},
    {"pathId": "{path}", "vehicleTypes": ["m" * 65]},
    {"pathId": "{path}", "statuses": [""]},
    ["{path}"],
]


async def test_bad_bodies_are_400(api, db, riders):
    path = str(await add_path(db))
    for body in BAD_BODIES:
        if isinstance(body, dict):
            body = {k: (path if v == "{path}" else v) for k, v in body.items()}
        status, answer = await api.post("/api/v1/assignments", body)
        assert (status, answer) == (400, {"error": SHAPE_MESSAGE, "code": "invalid_request"})
    assert await assigned(db) == set()


async def test_invalid_json_is_400(client):
    response = await client.post(
        "/api/v1/assignments", data=b"[", headers={"x-api-key": "test-integration-key"}
    )
    assert response.status == 400
    assert await response.json() == {"error": SHAPE_MESSAGE, "code": "invalid_request"}


async def test_neither_rider_ids_nor_filters_is_400(api, db, riders):
    path = await add_path(db)
    for criteria in [{}, {"markets": [], "vehicleTypes": [], "statuses": []}]:
        status, body = await api.post("/api/v1/assignments", {"pathId": str(path), **criteria})
        assert (status, body) == (
            400,
            {"error": "Give riderIds or at least one filter.", "code": "invalid_request"},
        )
    assert await assigned(db) == set()


async def test_missing_criteria_are_checked_before_the_path(api):
    status, body = await api.post("/api/v1/assignments", {"pathId": str(uuid.uuid4())})
    assert (status, body) == (
        400,
        {"error": "Give riderIds or at least one filter.", "code": "invalid_request"},
    )


async def test_empty_rider_ids_assign_nobody_whatever_the_filters(api, db, riders):
    path = await add_path(db)
    for criteria in [{"riderIds": []}, {"riderIds": [], "markets": ["AE"]}]:
        status, body = await api.post("/api/v1/assignments", {"pathId": str(path), **criteria})
        assert (status, body) == (200, {"enrollmentsCreated": 0})
    assert await assigned(db) == set()


async def test_250000_rider_ids_are_accepted(api, db, riders):
    path = await add_path(db)
    ids = ["R-ae-moto"] + [f"R-unknown-{i}" for i in range(249_999)]
    status, body = await api.post("/api/v1/assignments", {"pathId": str(path), "riderIds": ids})
    assert (status, body) == (200, {"enrollmentsCreated": 1})


async def test_overlapping_calls_in_parallel_assign_each_rider_once(client, db):
    ids = [f"R-{i:04d}" for i in range(2000)]
    await db.execute(
        "INSERT INTO riders (rider_id, name, market) SELECT unnest($1::text[]), 'Rider', 'AE'", ids
    )
    path = str(await add_path(db, "manual", [await add_course(db)]))

    async def send(chosen):
        response = await client.post(
            "/api/v1/assignments",
            json={"pathId": path, "riderIds": chosen},
            headers={"x-api-key": "test-integration-key"},
        )
        return response.status, await response.json()

    results = await asyncio.gather(send(ids), send(list(reversed(ids))), send(ids[500:1500]))
    assert [status for status, _ in results] == [200, 200, 200]
    assert sum(body["enrollmentsCreated"] for _, body in results) == 2000
    assert await db.fetchval("SELECT count(*) FROM assignments") == 2000


async def test_twenty_concurrent_calls_leave_one_open_assignment_per_rider_and_path(
    client, db, monkeypatch
):
    # Let all twenty reach the database together (the process normally takes two at a time).
    monkeypatch.setattr(http, "BULK_GATE", Gate(20, http.BULK_WAIT, http.Busy))
    ids = [f"R-{i:04d}" for i in range(300)]
    await db.execute(
        "INSERT INTO riders (rider_id, name, market, vehicle_type) SELECT"
        " unnest($1::text[]), 'Rider', 'AE', 'motorbike'",
        ids,
    )
    paths = [str(await add_path(db, "manual", [await add_course(db)])) for _ in range(2)]

    async def send(n):
        chosen = ids[n * 10 :] + ids[: n * 10]  # every call names every rider, in its own order
        body = {"pathId": paths[n % 2], "riderIds": chosen if n % 3 else chosen[::-1]}
        if n % 4 == 0:
            body = {"pathId": paths[n % 2], "markets": ["AE"], "vehicleTypes": ["motorbike"]}
        response = await client.post(
            "/api/v1/assignments", json=body, headers={"x-api-key": "test-integration-key"}
        )
        return response.status, await response.json()

    results = await asyncio.gather(*(send(n) for n in range(20)))
    assert {status for status, _ in results} <= {200, 409}
    made = sum(body["enrollmentsCreated"] for status, body in results if status == 200)
    rows = await db.fetch(
        "SELECT rider_id, path_id, count(*) AS n FROM assignments GROUP BY rider_id, path_id"
    )
    assert len(rows) == 600 and {row["n"] for row in rows} == {1}
    assert made == 600
