"""load-data sections `questions` and `checks`: validation messages, upsert, snapshots."""

import orjson
import pytest

from app.checks.loading import SECTIONS
from app.core.loader import LoadError, load_document, read_document
from tests.checks.data import answer, check, load, question


async def snapshot(db):
    return [
        tuple(row)
        for row in await db.fetch(
            "SELECT 'q', question_id, xmin::text FROM questions"
            " UNION ALL SELECT 'c', id, xmin::text FROM checks ORDER BY 1, 2"
        )
    ]


async def test_loading_twice_changes_nothing(db):
    document = {
        "questions": [question(1), question(2, image_url=None)],
        "checks": [
            check(1, answers=[answer(2), answer(1)], reported_items=["bag"]),
            check(2, timezone=None, country_code=None),
        ],
    }
    assert await load(db, **document) == {"questions": 2, "checks": 2}
    before = await snapshot(db)
    assert await load(db, **document) == {"questions": 2, "checks": 2}
    assert await snapshot(db) == before  # same rows, not even rewritten (same xmin)


async def test_a_changed_record_is_updated(db):
    await load(db, questions=[question(1)], checks=[check(1)])
    await load(db, questions=[question(1, country_id=4)], checks=[check(1, rider_name="New")])
    assert await db.fetchval("SELECT country_id FROM questions") == 4
    assert await db.fetchval("SELECT rider_name FROM checks") == "New"


async def test_omitted_answer_fields_come_from_the_catalogue_given_ones_win(db):
    await load(
        db,
        questions=[question(1), question(2)],
        checks=[
            check(
                1,
                answers=[
                    answer(1),
                    answer(2, question="As asked", category="Asked", image_url=None),
                    answer(3, question="Not in catalogue", category="Other", image_url=None),
                ],
            )
        ],
    )
    stored = await db.fetchval("SELECT answers FROM checks")
    assert [(e["question"], e["category"], e["imageUrl"]) for e in stored] == [
        ("Question 1?", "Safety", "https://cdn.example.com/q/1.png"),
        ("As asked", "Asked", None),
        ("Not in catalogue", "Other", None),
    ]


async def test_reloading_a_check_keeps_its_snapshot_after_the_catalogue_changed(db):
    await load(db, questions=[question(1)], checks=[check(1)])
    await load(db, questions=[question(1, question="Reworded?")])
    await load(db, checks=[check(1, rider_name="Corrected")])
    [entry] = await db.fetchval("SELECT answers FROM checks")
    assert entry["question"] == "Question 1?"


# Every check answers question 1, which must be in the catalogue: the named record is the bad one.
Q1 = [question(1)]
INVALID = [
    (
        {"questions": [question(1), {**question(2), "question_id": None}]},
        "questions[1].question_id",
    ),
    ({"questions": [question(1), question(1)]}, "questions[1].question_id"),
    ({"questions": [question(1, answers=[{"name": "Yes"}])]}, "questions[0].answers[0].name_ar"),
    ({"questions": [question(1, image_url="not a url")]}, "questions[0].image_url"),
    (
        {"questions": [{k: v for k, v in question(1).items() if k != "country_id"}]},
        "questions[0].country_id",
    ),
    (
        {"questions": Q1, "checks": [check(1), check(2, check_date="2026-03-14T09:30:00")]},
        "checks[1].check_date",
    ),
    ({"questions": Q1, "checks": [check(1, timezone="+04:00")]}, "checks[0].timezone"),
    ({"questions": Q1, "checks": [check(1, country_code="uae")]}, "checks[0].country_code"),
    ({"questions": Q1, "checks": [check(1, id_validation="yes")]}, "checks[0].id_validation"),
    ({"questions": Q1, "checks": [check(1, rider_id="12")]}, "checks[0].rider_id"),
    ({"questions": Q1, "checks": [check(1, rider_name="a\u0000b")]}, "checks[0].rider_name"),
    (
        {"questions": [question(1, answers=[{"name": "Y\u0000", "name_ar": "x", "score": "1"}])]},
        "questions[0].answers[0].name",
    ),
    ({"questions": Q1, "checks": [check(1, reported_items="helmet")]}, "checks[0].reported_items"),
    ({"questions": Q1, "checks": [check(1), check(1)]}, "checks[1].id"),
    # Records that look usual but are not: the schema still words the error.
    (
        {"questions": Q1, "checks": [check(1), check(2, check_date="2026-02-30 09:30:00")]},
        "checks[1].check_date",
    ),
    (
        {"checks": [check(1, answers=[answer(1), answer(2, evidence_image_url="cdn/e.jpg")])]},
        "checks[0].answers[1].evidence_image_url",
    ),
    ({"questions": Q1, "checks": [check(1, id=True)]}, "checks[0].id"),
    ({"questions": Q1, "checks": [check(1, license_plate="true")]}, "checks[0].license_plate"),
    (
        {"questions": Q1, "checks": [check(1, answers=[{**answer(1), "note": "x"}])]},
        "checks[0].answers[0].note",
    ),
    (
        {"questions": Q1, "checks": [check(1, answers=[answer(1), answer(1)])]},
        "checks[0].answers[1].question_id",
    ),
    (
        {"questions": Q1, "checks": [check(1, answers=[answer(1, score=1)])]},
        "checks[0].answers[0].score",
    ),
    (
        {"questions": Q1, "checks": [check(1, answers=[answer(1, question="")])]},
        "checks[0].answers[0].question",
    ),
    (
        {"questions": [question(1)], "checks": [check(1), check(2, answers=[answer(9)])]},
        "checks[1].answers[0].question",
    ),
    (
        {
            "questions": [question(1)],
            "checks": [check(1, answers=[answer(1), answer(9, question="Q", image_url=None)])],
        },
        "checks[0].answers[1].category",
    ),
]


async def test_a_file_of_new_and_stored_checks_inserts_updates_and_keeps_alike(db):
    await load(db, questions=[question(1)], checks=[check(1), check(2), check(3)])
    before = dict(await db.fetch("SELECT id, xmin::text FROM checks"))
    await load(
        db,
        checks=[check(4), check(2, rider_name="Renamed"), check(1), check(5, answers=[])],
    )
    rows = await db.fetch("SELECT id, rider_name, xmin::text AS x FROM checks ORDER BY id")
    assert [(r["id"], r["rider_name"]) for r in rows] == [
        (1, "Rider 1"),
        (2, "Renamed"),
        (3, "Rider 3"),
        (4, "Rider 4"),
        (5, "Rider 5"),
    ]
    xmin = {r["id"]: r["x"] for r in rows}
    assert (xmin[1], xmin[3]) == (before[1], before[3])  # unchanged: not rewritten
    assert xmin[2] != before[2]
    [entry] = await db.fetchval("SELECT answers FROM checks WHERE id = 4")
    assert entry["question"] == "Question 1?"


async def test_invalid_record_names_section_index_and_field_and_writes_nothing(db):
    # Each case leaves the database empty, so one database serves them all.
    for document, where in INVALID:
        with pytest.raises(LoadError) as error:
            await load(db, **document)
        assert str(error.value).startswith(f"document: {where}: "), (where, str(error.value))
        assert await db.fetchval("SELECT count(*) FROM questions") == 0, where
        assert await db.fetchval("SELECT count(*) FROM checks") == 0, where


async def load_file(db, path, **sections):
    """Load `sections` as load-data does: written to a file, the checks read from it as they
    are needed rather than held."""
    path.write_bytes(orjson.dumps(sections))
    streamed = {s.name: s.looked_up for s in SECTIONS if s.streamed}
    document = read_document(path, streamed)
    return await load_document(db, document, SECTIONS, source=path.name)


async def test_a_file_is_loaded_the_same_as_a_document(db, tmp_path):
    checks = [check(i, answers=[answer(1), answer(2, question="As asked")]) for i in (3, 1, 2)]
    counts = await load_file(
        db, tmp_path / "f.json", questions=[question(1), question(2)], checks=checks
    )
    assert counts == {"questions": 2, "checks": 3}
    stored = {r["id"]: r["answers"] for r in await db.fetch("SELECT id, answers FROM checks")}
    assert sorted(stored) == [1, 2, 3]
    assert [e["question"] for e in stored[1]] == ["Question 1?", "As asked"]
    before = await snapshot(db)
    # Again, with one check changed: only that one is rewritten (the stored ones' pass).
    checks[1] = check(1, rider_name="Corrected", answers=checks[1]["answers"])
    assert await load_file(db, tmp_path / "g.json", checks=checks) == {"checks": 3}
    assert [row[:2] for row in await snapshot(db) if row not in before] == [("c", 1)]
    assert await db.fetchval("SELECT rider_name FROM checks WHERE id = 1") == "Corrected"


async def test_a_bad_check_late_in_a_file_is_named_and_nothing_is_written(db, tmp_path):
    checks = [check(i) for i in range(1, 51)] + [check(51, check_date="yesterday")]
    with pytest.raises(LoadError) as error:
        await load_file(db, tmp_path / "f.json", questions=[question(1)], checks=checks)
    assert str(error.value).startswith("f.json: checks[50].check_date: ")
    assert await db.fetchval("SELECT count(*) FROM questions") == 0


async def test_the_first_bad_check_is_named_whatever_its_fault(db, tmp_path):
    """A check whose question is in no catalogue comes before a check of the wrong shape."""
    checks = [check(1), check(2, answers=[answer(9)]), check(3, check_date="yesterday")]
    with pytest.raises(LoadError, match=r"^f.json: checks\[1\].answers\[0\].question: missing"):
        await load_file(db, tmp_path / "f.json", questions=[question(1)], checks=checks)
    assert await db.fetchval("SELECT count(*) FROM checks") == 0


async def test_an_id_beyond_bigint_is_named_not_refused_by_the_database(db):
    # (A file cannot hold one: its parser refuses integers beyond 64 bits as invalid JSON.)
    checks = [check(1), check(2**63, answers=[answer(2**64)])]
    with pytest.raises(LoadError, match=r"^document: checks\[1\].id: "):
        await load(db, questions=[question(1)], checks=checks)


async def test_checks_of_a_file_must_be_an_array(db, tmp_path):
    with pytest.raises(LoadError, match="^f.json: section checks must be an array$"):
        await load_file(db, tmp_path / "f.json", checks={"id": 1})
