"""POST /api/v1/flags: the flag, the paths it assigns, the notification result."""

import uuid

import pytest

from tests.training.helpers import add_course, add_path, add_result, add_rider, assignments, utc

FLAG_MESSAGE = (
    "Send { riderId, type, note?, notify? } with type one of late_delivery, customer_complaint,"
    " unsafe_driving, food_handling, equipment, cancellations and note up to 1000 characters."
)


async def test_saves_the_flag_and_assigns_matching_flag_paths(api, db):
    await add_rider(db, "R-1", market="QA", vehicle_type="motorbike", nationality="Indian")
    course = await add_course(db)
    wanted = await add_path(
        db,
        "flag",
        [course],
        days=7,
        flag_types=["late_delivery", "equipment"],
        markets=["QA"],
        vehicle_types=["motorbike"],
        nationalities=["Indian"],
    )
    await add_path(db, "flag", [course], flag_types=["unsafe_driving"])
    await add_path(db, "flag", [course], flag_types=["late_delivery"], active=False)
    await add_path(db, "flag", [course], flag_types=["late_delivery"], markets=["AE"])
    await add_path(db, "flag", [course], flag_types=["late_delivery"], vehicle_types=["car"])
    await add_path(db, "flag", [course], flag_types=["late_delivery"], nationalities=["Nepali"])
    await add_path(db, "all_matching", [course])
    status, body = await api.post(
        "/api/v1/flags", {"riderId": "R-1", "type": "late_delivery", "note": "Three late orders"}
    )
    assert status == 200
    assert body["enrollmentsCreated"] == 1 and body["notification"] is None
    flag = await db.fetchrow("SELECT * FROM flags")
    assert str(flag["flag_id"]) == body["flagId"]
    assert (flag["rider_id"], flag["type"], flag["note"], flag["source"]) == (
        "R-1",
        "late_delivery",
        "Three late orders",
        "api",
    )
    rows = await assignments(db, "R-1")
    assert [(r["path_id"], r["why"]) for r in rows] == [(wanted, "flag")]
    assert (rows[0]["deadline"] - rows[0]["assigned_at"]).days == 7


async def test_open_path_is_skipped_and_repeating_records_another_flag(api, db):
    await add_rider(db, "R-1")
    path = await add_path(db, "flag", [await add_course(db)], flag_types=["equipment"])
    first = await api.post("/api/v1/flags", {"riderId": "R-1", "type": "equipment"})
    second = await api.post("/api/v1/flags", {"riderId": "R-1", "type": "equipment"})
    assert [first[0], second[0]] == [200, 200]
    assert first[1]["enrollmentsCreated"] == 1 and second[1]["enrollmentsCreated"] == 0
    assert first[1]["flagId"] != second[1]["flagId"]
    assert await db.fetchval("SELECT count(*) FROM flags WHERE rider_id = 'R-1'") == 2
    # Once finished, a new flag assigns the path again.
    await db.execute("UPDATE assignments SET completed_at = now()")
    status, body = await api.post("/api/v1/flags", {"riderId": "R-1", "type": "equipment"})
    assert body["enrollmentsCreated"] == 1
    assert [r["path_id"] for r in await assignments(db, "R-1")] == [path, path]


async def test_inactive_rider_gets_the_flag_but_no_path(api, db):
    await add_rider(db, "R-1", status="inactive")
    await add_path(db, "flag", flag_types=["equipment"])
    status, body = await api.post(
        "/api/v1/flags", {"riderId": "R-1", "type": "equipment", "notify": True}
    )
    assert status == 200
    assert (body["enrollmentsCreated"], body["notification"]) == (0, None)
    assert await db.fetchval("SELECT count(*) FROM flags") == 1
    assert await assignments(db) == []


async def test_assignment_completes_at_once_when_the_courses_were_passed(api, db):
    await add_rider(db, "R-1")
    course = await add_course(db)
    await add_result(db, "R-1", course, utc(2026, 2, 1), "PQRSTV23")
    await add_path(db, "flag", [course], flag_types=["food_handling"])
    status, body = await api.post("/api/v1/flags", {"riderId": "R-1", "type": "food_handling"})
    assert body["enrollmentsCreated"] == 1
    assert (await assignments(db))[0]["completed_at"] is not None


@pytest.mark.parametrize(
    ("notify", "paths", "expected"), [(True, 1, "logged"), (False, 1, None), (True, 0, None)]
)
async def test_notification(api, db, notify, paths, expected):
    await add_rider(db, "R-1", phone="+971501234567")
    for _ in range(paths):
        await add_path(db, "flag", flag_types=["cancellations"])
    status, body = await api.post(
        "/api/v1/flags", {"riderId": "R-1", "type": "cancellations", "notify": notify}
    )
    assert status == 200 and body["notification"] == expected


async def test_unknown_rider_is_404_and_saves_nothing(api, db):
    await add_rider(db, "R-1")
    for rider_id in ("R-2", " R-1", "r-1"):
        status, body = await api.post("/api/v1/flags", {"riderId": rider_id, "type": "equipment"})
        assert status == 404
        assert body == {
            "error": "Rider not found: create the rider first with POST /api/v1/riders.",
            "code": "not_found",
        }
    assert await db.fetchval("SELECT count(*) FROM flags") == 0


BAD_BODIES = [
    {"type": "equipment"},
    {"riderId": "R-1"},
    {"riderId": "R-1", "type": "speeding"},
    {"riderId": 1, "type": "equipment"},
    {"riderId": "R-1", "type": "equipment", "note": "n" * 1001},
    {"riderId": "R-1", "type": "equipment", "note": 5},
    {"riderId": "R-1", "type": "equipment", "notify": "yes"},
    {"riderId": "R-1", "type": "equipment", "notify": 1},
    ["R-1", "equipment"],
    {"riderId": "R-unknown", "type": "speeding"},  # the body is checked before the rider
]


async def test_bad_bodies_are_400(api, db):
    await add_rider(db, "R-1")
    for body in BAD_BODIES:
        status, answer = await api.post("/api/v1/flags", body)
        assert (status, answer) == (400, {"error": FLAG_MESSAGE, "code": "invalid_request"}), body
    assert await db.fetchval("SELECT count(*) FROM flags") == 0


async def test_invalid_json_is_400(client):
    response = await client.post(
        "/api/v1/flags", data=b"{riderId", headers={"x-api-key": "test-integration-key"}
    )
    assert response.status == 400
    assert await response.json() == {"error": FLAG_MESSAGE, "code": "invalid_request"}


async def test_note_of_1000_characters_and_unknown_fields_are_accepted(api, db):
    await add_rider(db, "R-1")
    status, body = await api.post(
        "/api/v1/flags", {"riderId": "R-1", "type": "equipment", "note": "n" * 1000, "extra": 1}
    )
    assert status == 200
    assert uuid.UUID(body["flagId"])
    assert await db.fetchval("SELECT length(note) FROM flags") == 1000
