"""POST /api/v1/riders: validation, upsert semantics, automatic rules, concurrency."""

import asyncio
import hashlib

import pytest

import app.training.riders as riders_module
from app.training.pins import pepper_of, pin_matches
from tests.conftest import make_settings
from tests.training.conftest import AUTH
from tests.training.helpers import add_course, add_path, add_result, assignments, utc

BODY_MESSAGE = "Send { riders: [...] } with 1 to 5000 riders."


def rider(rider_id="R-1", **fields):
    return {"riderId": rider_id, "name": "Omar Haddad", "market": "AE", **fields}


async def stored(db, rider_id):
    row = await db.fetchrow("SELECT * FROM riders WHERE rider_id = $1", rider_id)
    return dict(row) if row else None


async def test_creates_a_rider_with_defaults_and_normalised_fields(api, db):
    status, body = await api.post(
        "/api/v1/riders",
        {
            "riders": [
                rider(
                    "  R-1 ",
                    name=" Omar ",
                    market="qatar",
                    phone="+974 (5512) 34-56",
                    city="Doha",
                    vehicleType="MotorBike",
                    nationality="Jordanian",
                    pin="0042",
                    unknown="ignored",
                )
            ]
        },
    )
    assert status == 200
    assert body == {"inserted": 1, "updated": 0, "enrollmentsCreated": 0, "errors": []}
    row = await stored(db, "R-1")
    assert (
        row["name"],
        row["market"],
        row["phone"],
        row["city"],
        row["vehicle_type"],
        row["nationality"],
        row["language"],
        row["status"],
    ) == ("Omar", "QA", "+97455123456", "Doha", "motorbike", "Jordanian", "en", "active")
    scheme, salt, digest = row["pin_hash"].split("$")
    assert scheme == "hmac-sha256" and "0042" not in row["pin_hash"]
    pepper = pepper_of(make_settings())  # the test app's
    assert pin_matches(pepper, row["pin_hash"], "0042")
    assert not pin_matches(pepper, row["pin_hash"], "0043")
    # Another service's pepper does not match.
    assert not pin_matches(b"another-pepper-0123456789", row["pin_hash"], "0042")


async def test_a_leaked_table_alone_does_not_give_pins_away(api, db):
    # Without the pepper (it is not in the database), trying every PIN finds nothing.
    await api.post("/api/v1/riders", {"riders": [rider("R-1", pin="0042")]})
    _, salt, digest = (await stored(db, "R-1"))["pin_hash"].split("$")
    guesses = (f"{n:04d}".encode() for n in range(10_000))
    assert not any(
        hashlib.sha256(bytes.fromhex(salt) + pin).hexdigest() == digest for pin in guesses
    )


def test_pins_hashed_before_the_pepper_still_match():
    salt = bytes(16)
    old = f"sha256${salt.hex()}${hashlib.sha256(salt + b'1234').hexdigest()}"
    pepper = pepper_of(make_settings())
    assert pin_matches(pepper, old, "1234") and not pin_matches(pepper, old, "1235")
    assert not pin_matches(pepper, "bcrypt$zz$00", "1234")


async def test_market_codes_and_names_in_any_case(api, db):
    markets = ["ae", "Kuwait", "QATAR", "bh", "oman", "Jo", "EGYPT", "iraq", "UAE"]
    rows = [rider(f"R-{i}", market=m) for i, m in enumerate(markets)]
    status, body = await api.post("/api/v1/riders", {"riders": rows})
    assert status == 200 and body["inserted"] == 9
    stored_markets = await db.fetch("SELECT market FROM riders ORDER BY rider_id")
    assert [r["market"] for r in stored_markets] == [
        "AE",
        "KW",
        "QA",
        "BH",
        "OM",
        "JO",
        "EG",
        "IQ",
        "AE",
    ]


async def test_update_keeps_omitted_and_empty_optional_fields(api, db):
    await api.post(
        "/api/v1/riders",
        {
            "riders": [
                rider(
                    phone="+971501234567",
                    city="Dubai",
                    vehicleType="car",
                    nationality="Indian",
                    language="AR",
                    status="onboarding",
                    pin="1234",
                )
            ]
        },
    )
    before = await stored(db, "R-1")
    status, body = await api.post(
        "/api/v1/riders",
        {
            "riders": [
                rider(
                    name="Omar H.",
                    market="KW",
                    phone="",
                    city="",
                    vehicleType="  ",
                    language="",
                    status="",
                    pin="",
                )
            ]
        },
    )
    assert status == 200
    assert (body["inserted"], body["updated"]) == (0, 1)
    after = await stored(db, "R-1")
    assert (after["name"], after["market"]) == ("Omar H.", "KW")
    for field in ("phone", "city", "vehicle_type", "nationality", "language", "status", "pin_hash"):
        assert after[field] == before[field], field
    assert after["language"] == "ar" and after["status"] == "onboarding"


async def test_update_sets_sent_language_and_status(api, db):
    await api.post("/api/v1/riders", {"riders": [rider(status="onboarding")]})
    await api.post("/api/v1/riders", {"riders": [rider(language="Ku", status="suspended")]})
    row = await stored(db, "R-1")
    assert (row["language"], row["status"]) == ("ku", "suspended")
    await api.post("/api/v1/riders", {"riders": [rider(language="ur")]})
    row = await stored(db, "R-1")
    assert (row["language"], row["status"]) == ("ur", "suspended")


async def versions(db) -> dict[str, tuple]:
    """Each rider's row version (a write makes a new one), update time and city."""
    rows = await db.fetch("SELECT rider_id, xmin::text, updated_at, city FROM riders")
    return {row["rider_id"]: tuple(row)[1:] for row in rows}


async def test_a_rider_sent_as_stored_counts_as_updated_and_is_not_written(api, db):
    first = [
        rider("R-1", phone="+971501234567", city="Dubai", vehicleType="car", status="onboarding"),
        rider("R-2", city="Doha"),
        rider("R-3", pin="1234"),
    ]
    await api.post("/api/v1/riders", {"riders": first})
    before = await versions(db)
    # R-1 as stored (its optional fields omitted keep their values), R-2 with a new city, R-3
    # with its PIN again (salted anew, so written).
    again = [
        rider("R-1", status="onboarding"),
        rider("R-2", city="Dammam"),
        rider("R-3", pin="1234"),
    ]
    status, body = await api.post("/api/v1/riders", {"riders": again})
    assert status == 200
    assert body == {"inserted": 0, "updated": 3, "enrollmentsCreated": 0, "errors": []}
    after = await versions(db)
    assert after["R-1"] == before["R-1"]
    assert after["R-2"][0] != before["R-2"][0] and after["R-2"][1] > before["R-2"][1]
    assert after["R-2"][2] == "Dammam"
    assert after["R-3"][0] != before["R-3"][0]


async def test_each_rider_of_a_batch_gets_only_its_own_language_and_status(api, db):
    # IDs a JSON key must carry unchanged: quotes, a backslash, Arabic, a dot.
    ids = ['R "1"', "R\\2", "ر-3", "R.4"]
    await api.post(
        "/api/v1/riders", {"riders": [rider(i, language="ar", status="onboarding") for i in ids]}
    )
    status, body = await api.post(
        "/api/v1/riders",
        {
            "riders": [
                rider(ids[0], language="ur"),
                rider(ids[1], status="suspended"),
                rider(ids[2]),
                rider(ids[3], language="ku", status="active"),
                rider("R-new", status="onboarding"),
            ]
        },
    )
    assert status == 200 and (body["inserted"], body["updated"]) == (1, 4)
    rows = await db.fetch("SELECT rider_id, language, status FROM riders")
    assert {r["rider_id"]: (r["language"], r["status"]) for r in rows} == {
        ids[0]: ("ur", "onboarding"),
        ids[1]: ("ar", "suspended"),
        ids[2]: ("ar", "onboarding"),
        ids[3]: ("ku", "active"),
        "R-new": ("en", "onboarding"),
    }


async def test_the_last_duplicate_wins(api, db):
    status, body = await api.post(
        "/api/v1/riders",
        {
            "riders": [
                rider("R-1", name="First", city="Doha"),
                rider("R-1 ", name="Second"),
                rider("R-1", name="", city="Rejected"),
            ]
        },
    )
    assert status == 200
    assert body["inserted"] == 1 and body["updated"] == 0
    assert body["errors"] == [
        {"index": 2, "field": "name", "error": "Too small: expected string to have >=1 characters"}
    ]
    row = await stored(db, "R-1")
    assert (row["name"], row["city"]) == ("Second", None)


ROW_ERRORS = [
    ({"name": "A", "market": "AE"}, "Invalid input: expected string, received undefined"),
    ({"riderId": "R", "market": "AE"}, "Invalid input: expected string, received undefined"),
    (
        {"riderId": 7, "name": "A", "market": "AE"},
        "Invalid input: expected string, received number",
    ),
    (
        {"riderId": True, "name": "A", "market": "AE"},
        "Invalid input: expected string, received boolean",
    ),
    (
        {"riderId": None, "name": "A", "market": "AE"},
        "Invalid input: expected string, received null",
    ),
    (
        {"riderId": {}, "name": "A", "market": "AE"},
        "Invalid input: expected string, received object",
    ),
    (
        {"riderId": [], "name": "A", "market": "AE"},
        "Invalid input: expected string, received array",
    ),
    (
        {"riderId": "   ", "name": "A", "market": "AE"},
        "Too small: expected string to have >=1 characters",
    ),
    (
        {"riderId": "R", "name": " ", "market": "AE"},
        "Too small: expected string to have >=1 characters",
    ),
    (
        {"riderId": "R" * 65, "name": "A", "market": "AE"},
        "Too big: expected string to have <=64 characters",
    ),
    (
        {"riderId": "R", "name": "A" * 201, "market": "AE"},
        "Too big: expected string to have <=200 characters",
    ),
    ({"riderId": "R", "name": "A"}, "Invalid input: expected string, received undefined"),
    (
        {"riderId": "R", "name": "A", "market": "France"},
        "market must be one of AE, KW, QA, BH, OM, JO, EG, IQ (or the market name, e.g. Qatar)",
    ),
    (
        {"riderId": "R", "name": "A", "market": ""},
        "market must be one of AE, KW, QA, BH, OM, JO, EG, IQ (or the market name, e.g. Qatar)",
    ),
    ({"riderId": "R", "name": "A", "market": 3}, "Invalid input: expected string, received number"),
    (
        {"riderId": "R", "name": "A", "market": "AE", "phone": "+9" * 17},
        "Too big: expected string to have <=32 characters",
    ),
    (
        {"riderId": "R", "name": "A", "market": "AE", "phone": "0501234567"},
        "phone must be in international format, e.g. +971501234567",
    ),
    (
        {"riderId": "R", "name": "A", "market": "AE", "phone": "+12345"},
        "phone must be in international format, e.g. +971501234567",
    ),
    (
        {"riderId": "R", "name": "A", "market": "AE", "city": "C" * 101},
        "Too big: expected string to have <=100 characters",
    ),
    (
        {"riderId": "R", "name": "A", "market": "AE", "vehicleType": "V" * 41},
        "Too big: expected string to have <=40 characters",
    ),
    (
        {"riderId": "R", "name": "A", "market": "AE", "nationality": "N" * 61},
        "Too big: expected string to have <=60 characters",
    ),
    (
        {"riderId": "R", "name": "A", "market": "AE", "city": None},
        "Invalid input: expected string, received null",
    ),
    (
        {"riderId": "R", "name": "A", "market": "AE", "language": "fr"},
        "language must be en, ar, ur or ku",
    ),
    (
        {"riderId": "R", "name": "A", "market": "AE", "status": "Active"},
        'Invalid option: expected one of "onboarding"|"active"|"suspended"|"inactive"',
    ),
    (
        {"riderId": "R", "name": "A", "market": "AE", "status": "retired"},
        'Invalid option: expected one of "onboarding"|"active"|"suspended"|"inactive"',
    ),
    (
        {"riderId": "R", "name": "A", "market": "AE", "status": 5},
        "Invalid input: expected string, received number",
    ),
    (
        {"riderId": "R", "name": "A", "market": "AE", "status": None},
        "Invalid input: expected string, received null",
    ),
    (
        {"riderId": "R", "name": "A", "market": "AE", "status": ["active"]},
        "Invalid input: expected string, received array",
    ),
    # The limit applies to the value as stored: "İ" lower-cases to two characters.
    (
        {"riderId": "R", "name": "A", "market": "AE", "vehicleType": "\u0130" * 21},
        "Too big: expected string to have <=40 characters",
    ),
    (
        {"riderId": "R\u0000", "name": "A", "market": "AE"},
        "Text must not contain the NUL character (U+0000).",
    ),
    (
        {"riderId": "R", "name": "A", "market": "AE", "city": "Dubai\u0000"},
        "Text must not contain the NUL character (U+0000).",
    ),
    ({"riderId": "R", "name": "A", "market": "AE", "pin": "123"}, "pin must be 4 to 8 digits"),
    (
        {"riderId": "R", "name": "A", "market": "AE", "pin": "123456789"},
        "pin must be 4 to 8 digits",
    ),
    ({"riderId": "R", "name": "A", "market": "AE", "pin": "12a4"}, "pin must be 4 to 8 digits"),
    (
        {"riderId": "R", "name": "A", "market": "AE", "pin": 1234},
        "Invalid input: expected string, received number",
    ),
    ("R-1", "Invalid input: expected object, received string"),
    ([], "Invalid input: expected object, received array"),
    # The first problem in field order wins.
    (
        {"riderId": "R", "name": "A" * 201, "market": "France", "pin": "1"},
        "Too big: expected string to have <=200 characters",
    ),
    (
        {"riderId": "R", "name": "A", "market": "AE", "language": "fr", "status": "x"},
        "language must be en, ar, ur or ku",
    ),
]


async def test_row_errors(api, db):
    rows = [rider("R-ok")] + [row for row, _ in ROW_ERRORS]
    status, body = await api.post("/api/v1/riders", {"riders": rows})
    assert status == 200
    assert (body["inserted"], body["updated"], body["enrollmentsCreated"]) == (1, 0, 0)
    assert [(error["index"], error["error"]) for error in body["errors"]] == [
        (index, message) for index, (_, message) in enumerate(ROW_ERRORS, start=1)
    ]
    assert await db.fetchval("SELECT count(*) FROM riders") == 1


@pytest.mark.parametrize(
    ("row", "field"),
    [
        ({"name": "A", "market": "AE"}, "riderId"),
        ({"riderId": "R", "name": " ", "market": "AE"}, "name"),
        ({"riderId": "R", "name": "A", "market": "France"}, "market"),
        ({"riderId": "R", "name": "A", "market": "AE", "phone": "0501234567"}, "phone"),
        ({"riderId": "R", "name": "A", "market": "AE", "city": None}, "city"),
        ({"riderId": "R", "name": "A", "market": "AE", "pin": "12"}, "pin"),
        ("R-1", None),
    ],
)
async def test_a_row_error_names_its_field(api, row, field):
    # The messages ("Too small: ...") do not say which field; `field` does.
    status, body = await api.post("/api/v1/riders", {"riders": [rider("R-ok"), row]})
    assert status == 200
    assert [(error["index"], error["field"]) for error in body["errors"]] == [(1, field)]


async def test_a_number_beyond_a_double_is_a_row_error(client, db):
    body = (
        b'{"riders": [{"riderId": "R-1", "name": "A", "market": "AE"},'
        b' {"riderId": 1e400, "name": "B", "market": "AE"}]}'
    )
    response = await client.post("/api/v1/riders", data=body, headers=AUTH)
    assert response.status == 200
    assert (await response.json())["errors"] == [
        {"index": 1, "field": "riderId", "error": "Invalid input: expected string, received number"}
    ]
    assert await db.fetchval("SELECT count(*) FROM riders") == 1


async def test_every_row_rejected_is_400_and_saves_nothing(api, db):
    status, body = await api.post(
        "/api/v1/riders", {"riders": [{"name": "A", "market": "AE"}, rider("R-2", status="ACTIVE")]}
    )
    assert status == 400
    assert body == {
        "error": "No rider was saved.",
        "code": "invalid_request",
        "inserted": 0,
        "updated": 0,
        "enrollmentsCreated": 0,
        "errors": [
            {
                "index": 0,
                "field": "riderId",
                "error": "Invalid input: expected string, received undefined",
            },
            {
                "index": 1,
                "field": "status",
                "error": (
                    'Invalid option: expected one of "onboarding"|"active"|"suspended"|"inactive"'
                ),
            },
        ],
    }
    assert await db.fetchval("SELECT count(*) FROM riders") == 0


async def test_body_errors(api, db):
    for body in [
        {},
        {"riders": []},
        {"riders": "R-1"},
        {"riders": None},
        [rider()],
        {"riders": [rider(f"R-{i}") for i in range(5001)]},
    ]:
        status, answer = await api.post("/api/v1/riders", body)
        assert (status, answer) == (400, {"error": BODY_MESSAGE, "code": "invalid_request"})
    assert await db.fetchval("SELECT count(*) FROM riders") == 0


async def test_invalid_json(client):
    response = await client.post(
        "/api/v1/riders",
        data=b'{"riders": [',
        headers={"x-api-key": "test-integration-key", "Content-Type": "application/json"},
    )
    assert response.status == 400
    assert await response.json() == {"error": BODY_MESSAGE, "code": "invalid_request"}


async def test_5000_riders_are_accepted(api, db):
    status, body = await api.post(
        "/api/v1/riders", {"riders": [rider(f"R-{i}") for i in range(5000)]}
    )
    assert status == 200 and body["inserted"] == 5000
    status, body = await api.post(
        "/api/v1/riders", {"riders": [rider(f"R-{i}") for i in range(5000)]}
    )
    assert (body["inserted"], body["updated"]) == (0, 5000)


async def test_all_matching_rule_assigns_matching_riders_once(api, db):
    course = await add_course(db)
    path = await add_path(
        db,
        "all_matching",
        [course],
        days=12,
        markets=["AE", "QA"],
        vehicle_types=["motorbike"],
        nationalities=["Indian"],
    )
    await add_path(db, "all_matching", [course], active=False)
    await add_path(db, "manual", [course])
    await add_path(db, "flag", [course], flag_types=["equipment"])
    match = dict(market="QA", vehicleType="Motorbike", nationality="Indian")
    status, body = await api.post(
        "/api/v1/riders",
        {
            "riders": [
                rider("R-match", **match),
                rider("R-market", **{**match, "market": "KW"}),
                rider("R-vehicle", **{**match, "vehicleType": "car"}),
                rider("R-nation", **{**match, "nationality": "indian"}),
                rider("R-none", market="QA"),
                rider("R-inactive", status="inactive", **match),
                rider("R-onboarding", status="onboarding", **match),
            ]
        },
    )
    assert status == 200 and body["enrollmentsCreated"] == 2
    rows = await assignments(db)
    assert {(r["rider_id"], r["path_id"], r["why"]) for r in rows} == {
        ("R-match", path, "rule"),
        ("R-onboarding", path, "rule"),
    }
    for row in rows:
        assert row["completed_at"] is None
        assert (row["deadline"] - row["assigned_at"]).days == 12
    # Saving again assigns nothing more; finishing it and saving again neither (never had it),
    # though the rules run (the market changes, to one the path still matches), beside a new
    # rider who gets it.
    await db.execute("UPDATE assignments SET completed_at = now()")
    status, body = await api.post(
        "/api/v1/riders",
        {"riders": [rider("R-match", **{**match, "market": "AE"}), rider("R-new", **match)]},
    )
    assert body["enrollmentsCreated"] == 1
    rows = await assignments(db)
    assert sorted(r["rider_id"] for r in rows) == ["R-match", "R-new", "R-onboarding"]


async def test_empty_filters_match_any_rider(api, db):
    path = await add_path(db, "all_matching")
    status, body = await api.post("/api/v1/riders", {"riders": [rider("R-1"), rider("R-2")]})
    assert body["enrollmentsCreated"] == 2
    assert {r["path_id"] for r in await assignments(db)} == {path}


async def test_onboarding_rule_assigns_riders_in_onboarding_status(api, db):
    path = await add_path(db, "onboarding", markets=["AE"])
    await add_path(db, "onboarding", active=False)
    status, body = await api.post(
        "/api/v1/riders",
        {
            "riders": [
                rider("R-new", status="onboarding"),
                rider("R-active"),
                rider("R-other-market", market="EG", status="onboarding"),
            ]
        },
    )
    assert body["enrollmentsCreated"] == 1
    assert [(r["rider_id"], r["path_id"], r["why"]) for r in await assignments(db)] == [
        ("R-new", path, "onboarding")
    ]
    # An existing rider who moves to onboarding gets it on that save.
    status, body = await api.post(
        "/api/v1/riders", {"riders": [rider("R-active", status="onboarding")]}
    )
    assert body["enrollmentsCreated"] == 1
    assert {r["rider_id"] for r in await assignments(db)} == {"R-new", "R-active"}


async def test_rule_assignment_completes_at_once_when_courses_were_passed(api, db):
    courses = [await add_course(db), await add_course(db)]
    await api.post("/api/v1/riders", {"riders": [rider("R-1"), rider("R-2")]})
    for i, course in enumerate(courses):
        await add_result(db, "R-1", course, utc(2026, 1, 1), f"ABCDEF2{i + 2}")
    await add_result(db, "R-2", courses[0], utc(2026, 1, 1), "ABCDEF99")
    await add_path(db, "all_matching", courses)
    status, body = await api.post(
        "/api/v1/riders", {"riders": [rider("R-1", market="QA"), rider("R-2", market="QA")]}
    )
    assert body["enrollmentsCreated"] == 2
    done = {r["rider_id"]: r["completed_at"] is not None for r in await assignments(db)}
    assert done == {"R-1": True, "R-2": False}


async def test_rules_run_for_new_riders_and_riders_whose_rule_fields_change(api, db):
    base = dict(market="AE", vehicleType="motorbike", nationality="Indian", status="active")
    ids = ["R-same", "R-market", "R-vehicle", "R-nation", "R-status"]
    await api.post("/api/v1/riders", {"riders": [rider(i, **base) for i in ids]})
    # A path the service's own path changes did not announce (theirs run the rules for every
    # rider): only a save that can change what a rule sees looks at it.
    path = await add_path(db, "all_matching")
    status, body = await api.post(
        "/api/v1/riders",
        {"riders": [rider("R-same", name="Renamed", phone="+971500000001", city="Dubai", **base)]},
    )
    assert status == 200 and body["enrollmentsCreated"] == 0
    assert await assignments(db) == []
    changed = {
        "R-market": {"market": "QA"},
        "R-vehicle": {"vehicleType": "car"},
        "R-nation": {"nationality": "Egyptian"},
        "R-status": {"status": "suspended"},
        "R-new": {},
    }
    status, body = await api.post(
        "/api/v1/riders",
        {"riders": [rider(i, **{**base, **fields}) for i, fields in changed.items()]},
    )
    assert status == 200 and body["enrollmentsCreated"] == 5
    assert {(r["rider_id"], r["path_id"]) for r in await assignments(db)} == {
        (i, path) for i in changed
    }


async def test_overlapping_upserts_in_parallel_never_fail_or_lose_a_rider(client, db):
    await add_path(db, "all_matching")
    ids = [f"R-{i:04d}" for i in range(1500)]

    async def send(chunk, name):
        response = await client.post(
            "/api/v1/riders",
            json={"riders": [rider(i, name=name) for i in chunk]},
            headers={"x-api-key": "test-integration-key"},
        )
        return response.status, await response.json()

    # Two calls over the same riders in opposite request orders, and a third overlapping.
    results = await asyncio.gather(
        send(ids, "A"), send(list(reversed(ids)), "B"), send(ids[700:] + ids[:300], "C")
    )
    assert [status for status, _ in results] == [200, 200, 200]
    assert sum(body["inserted"] for _, body in results) == 1500
    assert sum(body["enrollmentsCreated"] for _, body in results) == 1500
    assert await db.fetchval("SELECT count(*) FROM riders") == 1500
    assert await db.fetchval("SELECT count(*) FROM assignments") == 1500


@pytest.mark.parametrize(
    "row",
    [
        {"riderId": " R-1 ", "name": " Sam ", "market": "qatar"},
        {"riderId": "R-1", "name": "Sam", "market": " ae ", "phone": " +974 (55) 12-34 [56] "},
        {"riderId": "R-1", "name": "Sam", "market": "AE", "phone": "", "city": "  "},
        {"riderId": "R-1", "name": "Sam", "market": "AE", "vehicleType": " MotorBike "},
        {"riderId": "R-1", "name": "Sam", "market": "AE", "language": " AR ", "status": ""},
        {"riderId": "R-1", "name": "Sam", "market": "AE", "status": "inactive", "pin": "12345678"},
        {"riderId": "R-1", "name": "Sam", "market": "AE", "nationality": "x" * 60, "extra": 1},
        {"riderId": "R-1", "name": "Sam", "market": "AE", "language": "", "pin": ""},
    ],
)
def test_the_quick_check_of_a_row_reads_it_as_the_field_by_field_check(row):
    # `_well_formed` is parse_riders' fast path; any row it is unsure of goes to parse_rider.
    quick = riders_module._well_formed(row)
    assert quick is None or quick == riders_module.parse_rider(row)
    assert riders_module.parse_riders([row])[0] == [riders_module.parse_rider(row)]


@pytest.mark.parametrize(
    "row",
    [
        {"riderId": "R-1", "name": "Sam", "market": "AE", "phone": "+97"},
        {"riderId": "R-1", "name": "Sam", "market": "AE", "language": "fr"},
        {"riderId": "R-1", "name": "Sam", "market": "AE", "status": "Active"},
        {"riderId": "R-1", "name": "Sam", "market": "AE", "pin": "12a4"},
        {"riderId": "R-1", "name": "Sam", "market": "AE", "city": "c" * 101},
        {"riderId": "R-1", "name": "Sam\x00", "market": "AE"},
        {"riderId": "R-1", "name": " ", "market": "AE"},
        {"riderId": "R-1", "market": "AE"},
        {"riderId": "R-1", "name": "Sam", "market": "FR"},
        ["R-1"],
    ],
)
def test_the_quick_check_leaves_every_faulty_row_to_the_field_by_field_check(row):
    assert riders_module._well_formed(row) is None
