"""Events are written with the change that made them (docs/webhooks.md), only for the endpoints
subscribed to them, none for work rolled back or for load-data."""

import asyncio
import re
import uuid

import pytest

from app.core.loader import load_document
from app.training import store
from app.training.loading import SECTIONS, after_load
from tests.conftest import make_settings
from tests.rider.rows import API_KEY, RIGHT, course_for, form, signed_in
from tests.rider.rows import add_rider as add_app_rider
from tests.training.helpers import add_course, add_path, add_result, add_rider, utc
from tests.webhooks.rows import add_endpoint, events

TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")


def created(rider_id: str, path_id: uuid.UUID, source: str) -> tuple[str, dict]:
    return ("assignment.created", {"riderId": rider_id, "pathId": str(path_id), "source": source})


def without_times(rows: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
    """The events with their times checked for format, then left out."""
    kept = []
    for event_type, data in rows:
        for field in ("dueDate", "completedAt"):
            if field in data:
                assert TIME.fullmatch(data.pop(field)), data
        kept.append((event_type, data))
    return kept


async def test_api_assignments_write_one_event_each_for_each_subscriber(api, db):
    for rider in ("R-1", "R-2", "R-3"):
        await add_rider(db, rider)
    path = await add_path(db, "manual", [await add_course(db)])
    first = await add_endpoint(db)
    second = await add_endpoint(db, events=["assignment.created"])
    await add_endpoint(db, events=["flag.created"])
    await add_endpoint(db, enabled=False)
    status, _ = await api.post(
        "/api/v1/assignments", {"pathId": str(path), "riderIds": ["R-1", "R-2"]}
    )
    assert status == 200
    expected = [created("R-1", path, "api"), created("R-2", path, "api")]
    for endpoint in (first, second):
        assert sorted(without_times(await events(db, endpoint)), key=str) == expected
    assert len(await events(db)) == 4


async def test_no_subscriber_stores_no_event(api, db):
    await add_rider(db, "R-1")
    path = await add_path(db, "manual", [await add_course(db)])
    await add_endpoint(db, events=["completion.created"])
    await api.post("/api/v1/assignments", {"pathId": str(path), "riderIds": ["R-1"]})
    assert await events(db) == []


async def test_an_assignment_created_completed_also_writes_assignment_completed(api, db):
    await add_rider(db, "R-1")
    course = await add_course(db)
    await add_result(db, "R-1", course, utc(2026, 1, 1), "K7QX3MPA")
    path = await add_path(db, "manual", [course])
    await add_endpoint(db)
    await api.post("/api/v1/assignments", {"pathId": str(path), "riderIds": ["R-1"]})
    assert without_times(await events(db)) == [
        created("R-1", path, "api"),
        ("assignment.completed", {"riderId": "R-1", "pathId": str(path)}),
    ]


async def test_rules_on_rider_upsert_write_source_rule(api, db):
    everyone = await add_path(db, "all_matching", [await add_course(db)])
    onboarding = await add_path(db, "onboarding", [await add_course(db)])
    await add_endpoint(db)
    status, body = await api.post(
        "/api/v1/riders",
        {"riders": [{"riderId": "R-1", "name": "N", "market": "AE", "status": "onboarding"}]},
    )
    assert (status, body["enrollmentsCreated"]) == (200, 2)
    assert sorted(without_times(await events(db)), key=str) == sorted(
        [created("R-1", everyone, "rule"), created("R-1", onboarding, "rule")], key=str
    )


async def test_a_flag_writes_flag_created_and_its_assignments(api, db):
    await add_rider(db, "R-1")
    path = await add_path(db, "flag", [await add_course(db)], flag_types=["late_delivery"])
    await add_endpoint(db)
    status, body = await api.post("/api/v1/flags", {"riderId": "R-1", "type": "late_delivery"})
    assert status == 200
    assert sorted(without_times(await events(db)), key=str) == [
        created("R-1", path, "flag"),
        (
            "flag.created",
            {
                "flagId": body["flagId"],
                "riderId": "R-1",
                "reason": "late_delivery",
                "enrollmentsCreated": 1,
            },
        ),
    ]


async def test_admin_assignments_and_flags_write_source_admin_and_flag(db):
    await add_rider(db, "R-1")
    manual = await add_path(db, "manual", [await add_course(db)])
    await add_endpoint(db)
    # The panel's assign page and rider page call these with why 'admin' / source 'admin'.
    assert await store.assign_path(db, manual, ["R-1"], None, None, None, why="admin") == 1
    await store.save_flag(db, "R-1", "equipment", None, source="admin")
    written = dict(await events(db))
    assert written.keys() == {"assignment.created", "flag.created"}
    assert written["assignment.created"]["source"] == "admin"


async def test_saving_a_path_runs_its_rule_with_events(db):
    await add_rider(db, "R-1")
    path = await add_path(db, "all_matching", [await add_course(db)])
    await add_endpoint(db)
    assert await store.run_rules(db, None, path) == 1  # the panel's path save
    assert without_times(await events(db)) == [created("R-1", path, "rule")]


async def test_the_panel_preview_writes_no_event(db):
    await add_rider(db, "R-1")
    path = await add_path(db, "manual", [await add_course(db)])
    await add_endpoint(db)
    assert await store.assign_path(db, path, ["R-1"], None, None, None, preview=True) == 1
    assert await events(db) == []


async def test_work_rolled_back_leaves_no_event(db):
    await add_rider(db, "R-1")
    path = await add_path(db, "manual", [await add_course(db)])
    await add_endpoint(db)

    class Abandoned(Exception):
        pass

    with pytest.raises(Abandoned):
        async with db.transaction():
            await store.assign_path(db, path, ["R-1"], None, None, None)
            assert len(await events(db)) == 1
            raise Abandoned
    assert await events(db) == []


async def test_load_data_writes_no_event(db):
    path = await add_path(db, "all_matching", [])
    await add_endpoint(db)
    document = {"riders": [{"riderId": "R-9", "name": "Loaded", "market": "AE"}]}
    await load_document(db, document, SECTIONS, [after_load], settings=make_settings())
    assert await db.fetchval("SELECT count(*) FROM assignments WHERE path_id = $1", path) == 1
    assert await events(db) == []


async def test_a_quiz_pass_writes_the_feed_record_with_its_cursor(client, db):
    await add_app_rider(client)
    rider = await signed_in(client)
    course_id = await course_for(db)
    endpoint = await add_endpoint(db)
    await rider.submit(f"/training/courses/{course_id}/quiz", form(RIGHT))
    response = await client.get("/api/v1/completions", params={"limit": 1}, headers=API_KEY)
    page = await response.json()
    path_id = await db.fetchval("SELECT path_id FROM assignments WHERE rider_id = 'R-1'")
    completed, completion = await events(db, endpoint)
    assert without_times([completed]) == [
        ("assignment.completed", {"riderId": "R-1", "pathId": str(path_id)})
    ]
    assert completion == ("completion.created", {**page["data"][0], "cursor": page["nextCursor"]})
    # Passing again (a retake) is no new completion.
    await rider.submit(f"/training/courses/{course_id}/quiz", form(RIGHT))
    assert len(await events(db, endpoint)) == 2


async def test_tabs_passing_at_once_under_an_endpoint_write_one_completion_event(client, db):
    # With an endpoint taking completion.created, a pass runs in a transaction of its own
    # with its event: four tabs at once still make one completion and one event.
    await add_app_rider(client)
    rider = await signed_in(client)
    course_id = await course_for(db)
    endpoint = await add_endpoint(db)
    quiz = f"/training/courses/{course_id}/quiz"
    await asyncio.gather(*(rider.submit(quiz, form(RIGHT)) for _ in range(4)))
    kinds = [kind for kind, _ in await events(db, endpoint)]
    assert kinds.count("completion.created") == 1
    assert kinds.count("assignment.completed") == 1
    assert await db.fetchval("SELECT attempts FROM course_results") == 4


# Every way assignments are made or completed, each making one assignment of rider R-1 that
# the rider already passed (so created completed at once), or completing one: the events are
# written once, by the trigger on assignments, whichever statement made the change.
async def _by_api(api, db, course):
    path = await add_path(db, "manual", [course])
    await api.post("/api/v1/assignments", {"pathId": str(path), "riderIds": ["R-1"]})
    return path, "api"


async def _by_rules_on_upsert(api, db, course):
    path = await add_path(db, "all_matching", [course])
    # A market the rider did not have: the rules run for riders whose rule fields change.
    await api.post("/api/v1/riders", {"riders": [{"riderId": "R-1", "name": "N", "market": "QA"}]})
    return path, "rule"


async def _by_flag(api, db, course):
    path = await add_path(db, "flag", [course], flag_types=["equipment"])
    await store.save_flag(db, "R-1", "equipment", None)
    return path, "flag"


async def _by_panel_assign(api, db, course):
    path = await add_path(db, "manual", [course])
    await store.assign_path(db, path, None, ["AE"], None, None, why="admin")
    return path, "admin"


async def _by_path_save(api, db, course):
    path = await add_path(db, "onboarding", [course])
    await db.execute("UPDATE riders SET status = 'onboarding'")
    await store.run_rules(db, None, path)
    return path, "rule"


MAKERS = [_by_api, _by_rules_on_upsert, _by_flag, _by_panel_assign, _by_path_save]


@pytest.mark.parametrize("make", MAKERS)
async def test_each_way_of_assigning_writes_its_events_once(api, db, make):
    await add_rider(db, "R-1")
    course = await add_course(db)
    await add_result(db, "R-1", course, utc(2026, 1, 1), "K7QX3MPA")
    await add_endpoint(db, events=["assignment.created", "assignment.completed"])
    path, source = await make(api, db, course)
    assert without_times(await events(db)) == [
        created("R-1", path, source),
        ("assignment.completed", {"riderId": "R-1", "pathId": str(path)}),
    ]


@pytest.mark.parametrize("make", MAKERS)
async def test_no_way_of_assigning_writes_an_event_nobody_subscribes_to(api, db, make):
    await add_rider(db, "R-1")
    course = await add_course(db)
    await add_result(db, "R-1", course, utc(2026, 1, 1), "K7QX3MPA")
    await add_endpoint(db, events=["completion.created"])
    await add_endpoint(db, enabled=False)
    await make(api, db, course)
    assert await db.fetchval("SELECT count(*) FROM assignments") == 1
    assert await events(db) == []


async def test_only_completing_an_assignment_writes_assignment_completed(db):
    await add_rider(db, "R-1")
    path = await add_path(db, "manual", [await add_course(db)])
    assert await store.assign_path(db, path, ["R-1"], None, None, None) == 1
    await add_endpoint(db)
    # Another change to an assignment is no event; completing it is one.
    await db.execute("UPDATE assignments SET deadline = deadline + interval '1 day'")
    assert await events(db) == []
    await db.execute("UPDATE assignments SET completed_at = now()")
    await db.execute("UPDATE assignments SET deadline = deadline + interval '1 day'")
    assert without_times(await events(db)) == [
        ("assignment.completed", {"riderId": "R-1", "pathId": str(path)})
    ]


async def test_load_data_completing_assignments_writes_no_event(db):
    await add_rider(db, "R-1")
    course = await add_course(db)
    path = await add_path(db, "manual", [course])
    assert await store.assign_path(db, path, ["R-1"], None, None, None) == 1
    await add_endpoint(db)
    document = {
        "completions": [
            {
                "riderId": "R-1",
                "courseId": str(course),
                "language": "en",
                "startedAt": "2026-01-01T00:00:00Z",
                "completedAt": "2026-01-01T00:10:00Z",
                "score": 90,
                "attempts": 1,
                "timeSpentSeconds": 600,
            }
        ]
    }
    await load_document(db, document, SECTIONS, [after_load], settings=make_settings())
    assert await db.fetchval("SELECT completed_at IS NOT NULL FROM assignments") is True
    assert await events(db) == []
    # The setting ended with the load's transaction: the next completion is news again.
    await db.execute("UPDATE assignments SET completed_at = NULL")
    await db.execute("UPDATE assignments SET completed_at = now()")
    assert [event_type for event_type, _ in await events(db)] == ["assignment.completed"]


async def test_a_quiz_pass_completes_its_assignment_without_event_nobody_subscribes_to(client, db):
    await add_app_rider(client)
    rider = await signed_in(client)
    course_id = await course_for(db)
    await add_endpoint(db, events=["completion.created"])
    await rider.submit(f"/training/courses/{course_id}/quiz", form(RIGHT))
    assert await db.fetchval("SELECT completed_at IS NOT NULL FROM assignments") is True
    assert [event_type for event_type, _ in await events(db)] == ["completion.created"]
