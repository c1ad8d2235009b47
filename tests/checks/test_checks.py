"""GET /api/v2/checks: fields, order, filters, parameter errors, snapshots."""

import orjson
import pytest

from app.checks.store import FETCH_ROWS
from tests.checks.data import AUTH, answer, check, load, question


async def get_checks(client, query=""):
    response = await client.get(f"/api/v2/checks{query}", headers=AUTH)
    assert response.status == 200, await response.text()
    return await response.json()


async def ids(client, query=""):
    return [c["ID"] for c in await get_checks(client, query)]


async def test_every_field_with_its_type_and_format(client, db):
    await load(
        db,
        questions=[question(2, category="Vehicle", image_url=None), question(10)],
        checks=[
            check(
                7,
                rider_id=123456789012,
                rider_name="Ahmed Ali",
                third_party_logistics="Fast Fleet",
                recorder_id=42,
                check_date="2026-03-14 23:05:09",
                timezone="UTC+04:00",
                country_code="AE",
                id_validation=True,
                license_plate=False,
                reported_items=["helmet", {"item": "box", "count": 2}],
                answers=[
                    answer(
                        10,
                        answer="No",
                        score="0",
                        evidence_image_url="https://cdn.example.com/e/7.jpg",
                    ),
                    answer(2, answer=None, score=None),
                ],
            )
        ],
    )
    assert await get_checks(client) == [
        {
            "ID": 7,
            "Rider_ID": 123456789012,
            "Rider_name": "Ahmed Ali",
            "3PL": "Fast Fleet",
            "Recorder_ID": 42,
            "Check_date": "2026-03-14 23:05:09",
            "ID_validation": 1,
            "License_plate": 0,
            "Reported_item": ["helmet", {"item": "box", "count": 2}],
            "Questioner": [
                {
                    "question": "Question 2?",
                    "question_id": "2",
                    "answer": None,
                    "imageUrl": None,
                    "evidenceImageUrl": None,
                    "score": None,
                    "category": "Vehicle",
                },
                {
                    "question": "Question 10?",
                    "question_id": "10",
                    "answer": "No",
                    "imageUrl": "https://cdn.example.com/q/10.png",
                    "evidenceImageUrl": "https://cdn.example.com/e/7.jpg",
                    "score": "0",
                    "category": "Safety",
                },
            ],
            "Country_code": "AE",
            "Timezone": "UTC+04:00",
        }
    ]


async def test_unknown_country_and_timezone_are_null_and_texts_are_escaped(client, db):
    await load(
        db,
        questions=[question(1)],
        checks=[
            check(
                1,
                timezone=None,
                country_code=None,
                rider_name='Zaid "Z" \\ زيد',
                id_validation=False,
            )
        ],
    )
    [body] = await get_checks(client)
    assert body["Country_code"] is None and body["Timezone"] is None
    assert body["Rider_name"] == 'Zaid "Z" \\ زيد'
    assert body["ID_validation"] == 0 and body["License_plate"] == 1
    assert body["Reported_item"] is None
    assert list(body) == [
        "ID",
        "Rider_ID",
        "Rider_name",
        "3PL",
        "Recorder_ID",
        "Check_date",
        "ID_validation",
        "License_plate",
        "Reported_item",
        "Questioner",
        "Country_code",
        "Timezone",
    ]


async def test_one_riders_checks_are_the_bytes_the_stream_sends(client, db):
    # A lone rider_id is answered by a statement of its own; with any other filter beside it
    # the answer comes from the cursor stream.
    await load(
        db,
        questions=[question(1), question(2, image_url=None)],
        checks=[
            check(
                3,
                rider_id=501,
                rider_name='Zaid "Z" \\ زيد',
                timezone=None,
                country_code=None,
                reported_items=["helmet", {"item": "box", "count": 2}],
                answers=[answer(2, answer=None, score=None), answer(1)],
            ),
            check(4, rider_id=502),
            check(9, rider_id=501, id_validation=False, check_date="2026-12-31 23:59:59"),
        ],
    )
    alone = await client.get("/api/v2/checks?rider_id=501", headers=AUTH)
    streamed = await client.get(
        "/api/v2/checks?rider_id=501&check_date_from=1900-01-01", headers=AUTH
    )
    assert alone.status == streamed.status == 200
    assert alone.headers["Content-Type"] == streamed.headers["Content-Type"]
    body = await alone.read()
    assert body == await streamed.read()
    assert [c["ID"] for c in orjson.loads(body)] == [3, 9]


async def test_a_rider_with_more_checks_than_a_batch_gets_all_of_them_in_order(client, db):
    # Rider 1 has exactly a batch (answered in one statement), rider 2 one check more (the
    # statement gives up and the stream answers); their checks alternate in ID order.
    riders = [1, 2] * FETCH_ROWS + [2]
    await load(
        db,
        questions=[question(1)],
        checks=[check(i, rider_id=rider) for i, rider in enumerate(riders, start=1)],
    )
    for rider, count in [(1, FETCH_ROWS), (2, FETCH_ROWS + 1)]:
        expected = [i for i, of in enumerate(riders, start=1) if of == rider]
        assert len(expected) == count
        assert await ids(client, f"?rider_id={rider}") == expected


async def test_no_checks_is_an_empty_array(client):
    assert await get_checks(client) == []


async def test_checks_are_ordered_by_id(client, db):
    await load(db, questions=[question(1)], checks=[check(i) for i in (30, 4, 17, 100, 2)])
    assert await ids(client) == [2, 4, 17, 30, 100]


@pytest.fixture
async def sample(db):
    """Six checks that each filter splits differently."""
    await load(
        db,
        questions=[question(1)],
        checks=[
            check(1, recorder_id=70, rider_id=501, check_date="2026-03-01 00:00:00"),
            check(
                2,
                recorder_id=71,
                rider_id=501,
                check_date="2026-03-01 23:59:59",
                id_validation=False,
            ),
            check(
                3,
                recorder_id=70,
                rider_id=502,
                check_date="2026-03-02 12:00:00",
                license_plate=False,
            ),
            check(
                4,
                recorder_id=71,
                rider_id=503,
                check_date="2026-03-03 00:00:00",
                id_validation=False,
                license_plate=False,
            ),
            check(5, recorder_id=70, rider_id=501, check_date="2026-02-28 23:59:59"),
            check(6, recorder_id=72, rider_id=504, check_date="2026-03-04 08:00:00"),
        ],
    )


FILTERED = [
    ("?recorder_id=70", [1, 3, 5]),
    ("?rider_id=501", [1, 2, 5]),
    ("?rider_id=999", []),
    ("?check_date_from=2026-03-01", [1, 2, 3, 4, 6]),
    ("?check_date_to=2026-03-01", [1, 2, 5]),
    ("?check_date_from=2026-03-01&check_date_to=2026-03-02", [1, 2, 3]),
    ("?check_date_from=2026-03-02&check_date_to=2026-03-02", [3]),
    ("?check_date_from=2026-03-03&check_date_to=2026-03-01", []),
    ("?is_validation=false", [2, 4]),
    ("?is_validation=true", [1, 3, 5, 6]),
    ("?license_plate=0", [3, 4]),
    ("?license_plate=1", [1, 2, 5, 6]),
    ("?recorder_id=70&rider_id=501", [1, 5]),
    ("?recorder_id=71&is_validation=0&license_plate=0", [4]),
    ("?rider_id=501&check_date_from=2026-03-01&is_validation=TRUE", [1]),
    (
        "?recorder_id=70&rider_id=501&check_date_from=2026-02-28&check_date_to=2026-03-01"
        "&is_validation=1&license_plate=true",
        [1, 5],
    ),
]


# One database serves each table of cases below: the cases only read.
async def test_filters_alone_and_combined(client, sample):
    for query, expected in FILTERED:
        assert await ids(client, query) == expected, query


async def test_boolean_spellings(client, sample):
    for spelling in ["true", "TRUE", "True", "tRuE", "1"]:
        assert await ids(client, f"?is_validation={spelling}") == [1, 3, 5, 6], spelling
        assert await ids(client, f"?license_plate={spelling}") == [1, 2, 5, 6], spelling
    for spelling in ["false", "FALSE", "False", "fAlSe", "0"]:
        assert await ids(client, f"?is_validation={spelling}") == [2, 4], spelling
        assert await ids(client, f"?license_plate={spelling}") == [3, 4], spelling


async def test_other_names_are_ignored(client, sample):
    for query in [
        "?Rider_id=501",
        "?RIDER_ID=501",
        "?Recorder_id=70",
        "?is_Validation=false",
        "?License_plate=0",
        "?Check_date_from=2026-03-03",
        "?unknown=1",
        "?rider_id_=x",
    ]:
        assert await ids(client, query) == [1, 2, 3, 4, 5, 6], query


MALFORMED = [
    ("recorder_id", "abc"),
    ("recorder_id", "1.0"),
    ("recorder_id", ""),
    ("recorder_id", "9223372036854775808"),
    ("recorder_id", "1_000"),
    ("rider_id", "12x"),
    ("rider_id", " 12"),
    ("rider_id", "0x10"),
    ("check_date_from", "2026-13-01"),
    ("check_date_from", "01/03/2026"),
    ("check_date_from", "2026-03-01T00:00:00"),
    ("check_date_to", "2026-02-30"),
    ("check_date_to", "2026-3-1"),
    ("check_date_to", ""),
    ("is_validation", "yes"),
    ("is_validation", "t"),
    ("is_validation", ""),
    ("license_plate", "2"),
    ("license_plate", "no"),
]


async def test_malformed_value_is_400_naming_the_parameter(client, sample):
    for name, value in MALFORMED:
        response = await client.get("/api/v2/checks", params={name: value}, headers=AUTH)
        assert response.status == 400, (name, value)
        body = await response.json()
        assert body["code"] == "invalid_request"
        assert body["error"].startswith(f"{name} must be "), (name, value, body)


async def test_first_malformed_parameter_is_named_and_valid_ones_do_not_hide_it(client):
    response = await client.get(
        "/api/v2/checks?rider_id=1&check_date_to=never&license_plate=maybe", headers=AUTH
    )
    assert response.status == 400
    assert (await response.json())["error"] == "check_date_to must be a date written YYYY-MM-DD"


async def test_a_parameter_given_twice_is_400(client, sample):
    response = await client.get("/api/v2/checks?rider_id=501&rider_id=502", headers=AUTH)
    assert response.status == 400
    assert await response.json() == {
        "error": "rider_id must be given at most once",
        "code": "invalid_request",
    }


async def test_negative_and_largest_ids_are_valid_filters(client, sample):
    assert await ids(client, "?rider_id=-1") == []
    assert await ids(client, "?recorder_id=9223372036854775807") == []


async def test_answers_keep_the_question_as_it_was_when_checked(client, db):
    await load(
        db,
        questions=[question(1), question(2)],
        checks=[check(1, answers=[answer(1), answer(2)])],
    )
    await load(
        db,
        questions=[
            question(1, question="Reworded?", category="Uniform", image_url=None),
            question(2, question="Also new?"),
        ],
    )
    await load(db, checks=[check(2, answers=[answer(1)])])
    first, second = await get_checks(client)
    assert [(e["question"], e["category"], e["imageUrl"]) for e in first["Questioner"]] == [
        ("Question 1?", "Safety", "https://cdn.example.com/q/1.png"),
        ("Question 2?", "Safety", "https://cdn.example.com/q/2.png"),
    ]
    assert [(e["question"], e["category"], e["imageUrl"]) for e in second["Questioner"]] == [
        ("Reworded?", "Uniform", None)
    ]


async def test_deleting_a_question_does_not_change_past_checks(client, db):
    await load(db, questions=[question(1)], checks=[check(1)])
    await db.execute("DELETE FROM questions")
    [body] = await get_checks(client)
    assert body["Questioner"][0]["question"] == "Question 1?"
