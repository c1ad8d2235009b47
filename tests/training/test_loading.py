"""load-data sections riders, courses, paths, completions, the after-load rules, demo data."""

import random
import uuid

import orjson
import pytest

from app.core.loader import LoadError, load_document, read_document
from app.training.demo import demo
from app.training.loading import SECTIONS, after_load
from app.training.pins import pepper_of, pin_matches
from tests.conftest import make_settings
from tests.training.helpers import add_rider, assignments

COURSE_A, COURSE_B = str(uuid.uuid4()), str(uuid.uuid4())
PATH = str(uuid.uuid4())


def catalogue(**path):
    return {
        "courses": [
            {"id": COURSE_A, "title": "Food safety", "has_quiz": True, "pass_mark": 70},
            {"id": COURSE_B, "title": "Using the app", "has_quiz": False},
        ],
        "paths": [
            {
                "id": PATH,
                "name": "Welcome",
                "active": True,
                "days_to_complete": 14,
                "rule": "all_matching",
                "markets": ["AE"],
                "courses": [COURSE_B, COURSE_A],
                **path,
            }
        ],
    }


def completion(course=COURSE_A, **fields):
    return {
        "riderId": "R-1",
        "courseId": course,
        "language": "ar",
        "startedAt": "2026-02-01T10:00:00+04:00",
        "completedAt": "2026-02-01T10:30:00.123Z",
        "score": 80,
        "attempts": 1,
        "timeSpentSeconds": 900,
        **fields,
    }


async def load(db, document):
    return await load_document(
        db, document, SECTIONS, [after_load], source="data.json", settings=make_settings()
    )


async def test_a_loaded_pin_is_stored_hashed_with_the_services_pepper(db):
    await load(db, {"riders": [{"riderId": "R-1", "name": "Omar", "market": "AE", "pin": "0042"}]})
    stored = await db.fetchval("SELECT pin_hash FROM riders WHERE rider_id = 'R-1'")
    assert stored.startswith("hmac-sha256$") and "0042" not in stored
    assert pin_matches(pepper_of(make_settings()), stored, "0042")


async def test_sections_load_and_the_rules_run_after_the_file(db):
    document = {
        "riders": [
            {"riderId": "R-1", "name": "Omar", "market": "UAE"},
            {"riderId": "R-2", "name": "Sara", "market": "EG"},
        ],
        **catalogue(),
    }
    counts = await load(db, document)
    assert counts == {"riders": 2, "courses": 2, "paths": 1}
    path = await db.fetchrow("SELECT * FROM paths")
    assert (path["rule"], path["markets"], path["days_to_complete"]) == ("all_matching", ["AE"], 14)
    links = await db.fetch("SELECT course_id, position FROM path_courses ORDER BY position")
    assert [(str(r["course_id"]), r["position"]) for r in links] == [(COURSE_B, 1), (COURSE_A, 2)]
    assert [(r["rider_id"], r["why"]) for r in await assignments(db)] == [("R-1", "rule")]
    # Loading the same file again changes nothing, and writes no rider again.
    riders = await db.fetch("SELECT rider_id, xmin::text, updated_at FROM riders ORDER BY 1")
    await load(db, document)
    assert (
        await db.fetch("SELECT rider_id, xmin::text, updated_at FROM riders ORDER BY 1") == riders
    )
    assert len(await assignments(db)) == 1
    assert await db.fetchval("SELECT count(*) FROM path_courses") == 2


async def test_a_changed_path_reaches_riders_saved_earlier(db):
    await add_rider(db, "R-old", market="QA")
    await load(db, catalogue(markets=["QA"]))
    assert [r["rider_id"] for r in await assignments(db)] == ["R-old"]


async def test_completions_complete_open_assignments_and_a_retake_keeps_the_first_pass(db):
    await add_rider(db, "R-1")
    await load(db, catalogue())
    assert (await assignments(db))[0]["completed_at"] is None
    await load(db, {"completions": [completion(COURSE_A), completion(COURSE_B, score=None)]})
    assert (await assignments(db))[0]["completed_at"] is not None
    first = dict(
        await db.fetchrow("SELECT * FROM course_results WHERE course_id = $1", uuid.UUID(COURSE_A))
    )
    assert len(first["proof_code"]) == 8
    assert first["completed_at"].isoformat() == "2026-02-01T10:30:00.123000+00:00"
    # A retake with a lower score, and one with a higher score in the same file.
    await load(
        db,
        {
            "completions": [
                completion(completedAt="2026-03-01T09:00:00Z", score=60, attempts=2, language="en"),
                completion(
                    completedAt="2026-03-02T09:00:00Z",
                    score=95,
                    attempts=3,
                    timeSpentSeconds=1500,
                    startedAt="2026-03-02T08:00:00Z",
                ),
            ]
        },
    )
    after = dict(
        await db.fetchrow("SELECT * FROM course_results WHERE course_id = $1", uuid.UUID(COURSE_A))
    )
    assert (after["completed_at"], after["proof_code"], after["language"], after["started_at"]) == (
        first["completed_at"],
        first["proof_code"],
        "ar",
        first["started_at"],
    )
    assert (after["score"], after["attempts"], after["time_spent_seconds"]) == (95, 3, 1500)
    await load(db, {"completions": [completion(score=10)]})
    assert (
        await db.fetchval(
            "SELECT score FROM course_results WHERE course_id = $1", uuid.UUID(COURSE_A)
        )
        == 95
    )


@pytest.mark.parametrize(
    ("document", "message"),
    [
        (
            {
                "riders": [
                    {"riderId": "R-1", "name": "A", "market": "AE"},
                    {"riderId": "R-2", "name": "A", "market": "Mars"},
                ]
            },
            "data.json: riders[1].market: market must be one of AE, KW, QA, BH, OM, JO, EG, IQ"
            " (or the market name, e.g. Qatar)",
        ),
        (
            {"riders": [{"riderId": 5, "name": "A", "market": "AE"}]},
            "data.json: riders[0].riderId: Invalid input: expected string, received number",
        ),
        (
            {"courses": [{"id": "nope", "title": "T", "has_quiz": True}]},
            "data.json: courses[0].id: Not a valid UUID.",
        ),
        (
            {"courses": [{"id": COURSE_A, "title": "T", "has_quiz": 1}]},
            "data.json: courses[0].has_quiz: Not a valid boolean.",
        ),
        (
            {**catalogue(rule="sometimes")},
            "data.json: paths[0].rule: Must be one of: manual, all_matching, onboarding, flag.",
        ),
        (
            {**catalogue(rule="flag")},
            "data.json: paths[0].flag_types: a flag path needs at least one flag type",
        ),
        ({**catalogue(markets=["ae"])}, "data.json: paths[0].markets[0]: Must be one of:"),
        (
            {**catalogue(courses=[COURSE_A, str(uuid.uuid4())])},
            "data.json: paths[0].courses[1]: unknown course",
        ),
        (
            {**catalogue(), "completions": [completion(), completion(riderId="R-9")]},
            "data.json: completions[1].riderId: unknown rider 'R-9'",
        ),
        (
            {**catalogue(), "completions": [completion(courseId=str(uuid.uuid4()))]},
            "data.json: completions[0].courseId: unknown course",
        ),
        (
            {**catalogue(), "completions": [completion(score=101)]},
            "data.json: completions[0].score:",
        ),
        (
            {**catalogue(), "completions": [completion(completedAt="2026-02-01T10:30:00")]},
            "data.json: completions[0].completedAt: Not a valid aware datetime.",
        ),
        (
            {**catalogue(), "completions": [completion(completedAt="2026-01-01T00:00:00Z")]},
            "data.json: completions[0].completedAt: must not be before startedAt",
        ),
        (
            {"courses": [*catalogue()["courses"], {**catalogue()["courses"][0], "title": "Again"}]},
            "data.json: courses[2].id: duplicate id",
        ),
        (
            {"courses": catalogue()["courses"], "paths": catalogue()["paths"] * 2},
            "data.json: paths[1].id: duplicate id",
        ),
    ],
)
async def test_a_bad_record_rejects_the_file_naming_section_index_and_field(db, document, message):
    await add_rider(db, "R-1")
    with pytest.raises(LoadError) as error:
        await load(db, document)
    assert str(error.value).startswith(message)
    for table in ("courses", "paths", "course_results", "assignments"):
        assert await db.fetchval(f"SELECT count(*) FROM {table}") == 0
    assert await db.fetchval("SELECT count(*) FROM riders") == 1


async def test_demo_data_is_valid_and_consistent(db):
    document = demo(random.Random(7), 400)
    counts = await load(db, document)
    assert counts["riders"] == 400 and counts["paths"] == 8 and counts["completions"] > 300
    markets = await db.fetchval("SELECT count(DISTINCT market) FROM riders")
    rules = await db.fetchval("SELECT count(DISTINCT rule) FROM paths")
    assert (markets, rules) == (8, 4)
    assert await db.fetchval("SELECT count(*) FROM assignments WHERE why = 'onboarding'") > 0
    assert await db.fetchval("SELECT count(*) FROM assignments WHERE completed_at IS NOT NULL")
    assert (
        await db.fetchval(
            "SELECT count(*) FROM assignments a JOIN riders r USING (rider_id)"
            " WHERE r.status = 'inactive'"
        )
        == 0
    )


def _demo_file(tmp_path, change):
    """The demo document with `change` applied, written as a data file and read as load-data
    reads it (the riders and completions streamed from the file)."""
    document = demo(random.Random(7), 300)
    change(document)
    path = tmp_path / "training.json"
    path.write_bytes(orjson.dumps(document))
    streamed = {s.name: s.looked_up for s in SECTIONS if s.streamed}
    return read_document(path, streamed), document


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (
            lambda d: d["completions"][-1].update(riderId="R-nobody"),
            "completions[{last}].riderId: unknown rider 'R-nobody'",
        ),
        (
            lambda d: d["completions"][-1].update(timeSpentSeconds=-1),
            "completions[{last}].timeSpentSeconds: ",
        ),
        (lambda d: d["riders"][-1].update(phone="call me"), "riders[{riders}].phone: "),
    ],
)
async def test_a_file_whose_last_record_is_bad_writes_nothing_and_names_it(
    db, tmp_path, change, where
):
    document, written = _demo_file(tmp_path, change)
    last, riders = len(written["completions"]) - 1, len(written["riders"]) - 1
    with pytest.raises(LoadError) as error:
        await load_document(
            db, document, SECTIONS, [after_load], "training.json", settings=make_settings()
        )
    assert str(error.value).startswith("training.json: " + where.format(last=last, riders=riders))
    for table in ("riders", "courses", "paths", "course_results", "assignments"):
        assert await db.fetchval(f"SELECT count(*) FROM {table}") == 0


async def test_a_file_loads_as_its_document_does(db, tmp_path):
    document, written = _demo_file(tmp_path, lambda d: None)
    counts = await load_document(
        db, document, SECTIONS, [after_load], "training.json", settings=make_settings()
    )
    assert counts == {name: len(records) for name, records in written.items()}
    assert await db.fetchval("SELECT count(*) FROM riders") == len(written["riders"])
    assert await db.fetchval("SELECT count(*) FROM course_results") > 0


async def test_the_last_record_of_a_rider_id_wins_and_keeps_what_it_does_not_send(db):
    await add_rider(db, "R-1")
    await db.execute("UPDATE riders SET city = 'Dubai', language = 'ar' WHERE rider_id = 'R-1'")
    riders = [
        {"riderId": "R-1", "name": "First", "market": "AE", "status": "inactive"},
        {"riderId": "R-1", "name": "Last", "market": "EG"},
        {"riderId": "R-2", "name": "New", "market": "QA"},
    ]
    assert await load(db, {"riders": riders}) == {"riders": 3}
    stored = await db.fetch(
        "SELECT rider_id, name, market, city, language, status FROM riders ORDER BY rider_id"
    )
    assert [tuple(r) for r in stored] == [
        ("R-1", "Last", "EG", "Dubai", "ar", "active"),
        ("R-2", "New", "QA", None, "en", "active"),
    ]
