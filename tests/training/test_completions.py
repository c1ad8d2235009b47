"""GET /api/v1/completions: records, keyset paging, since, limit, cursor validation."""

import base64
import itertools
import uuid
from datetime import timedelta

import pytest

from tests.training.conftest import AUTH
from tests.training.helpers import add_course, add_rider, utc
from tests.webhooks.receiver import until

CURSOR_MESSAGE = "cursor must be the nextCursor value from a previous page"
_codes = (f"{a}{b}{c}" for a, b, c in itertools.product("ABCDEFGH", "JKMNPQRS", "TVWXYZ23"))


async def add_results(db, rows):
    """rows: (rider_id, course_id, completed_at) with started_at ten minutes before."""
    await db.executemany(
        "INSERT INTO course_results (rider_id, course_id, language, started_at, completed_at,"
        " score, attempts, time_spent_seconds, proof_code)"
        " VALUES ($1, $2, 'ar', $3, $4, 85.5, 2, 600, $5)",
        [(r, c, t - timedelta(minutes=10), t, "KPQRS" + next(_codes)) for r, c, t in rows],
    )


async def test_record_fields_and_time_format(api, db):
    await add_rider(db, "R-1", market="JO", status="inactive")
    course = await add_course(db, "Safe riding")
    no_quiz = await add_course(db, "Using the app", quiz=False)
    await add_results(db, [("R-1", course, utc(2026, 3, 1, 8, 47, 12, 345000))])
    await db.execute(
        "INSERT INTO course_results VALUES ('R-1', $1, 'ku', '2026-03-02T10:00:00Z',"
        " '2026-03-02T10:05:00Z', NULL, 0, 300, 'KKKKKKK2')",
        no_quiz,
    )
    await db.execute(  # opened, not passed: not in the feed
        "INSERT INTO course_results (rider_id, course_id, language, started_at)"
        " VALUES ('R-1', $1, 'en', now())",
        await add_course(db),
    )
    status, body = await api.get("/api/v1/completions")
    assert status == 200
    first, second = body["data"]
    assert first == {
        "riderId": "R-1",
        "market": "JO",
        "courseId": str(course),
        "course": "Safe riding",
        "language": "ar",
        "startedAt": "2026-03-01T08:37:12.345Z",
        "completedAt": "2026-03-01T08:47:12.345Z",
        "score": 85.5,
        "attempts": 2,
        "timeSpentSeconds": 600,
        "proofCode": first["proofCode"],
    }
    assert len(first["proofCode"]) == 8
    assert (second["score"], second["attempts"], second["completedAt"]) == (
        None,
        0,
        "2026-03-02T10:05:00.000Z",
    )
    assert body["next"] is None and body["nextCursor"] is None


async def test_cursor_paging_never_skips_or_repeats_equal_completion_times(api, db):
    courses = [await add_course(db) for _ in range(3)]
    rows = []
    for i in range(40):
        await add_rider(db, f"R-{i:02d}")
        for course in courses:
            # 120 records on four distinct times: 30 records share each time.
            rows.append((f"R-{i:02d}", course, utc(2026, 4, 1, 12, 0, i % 4)))
    await add_results(db, rows)
    seen, pages, params = [], 0, {"limit": "7"}
    while True:
        status, body = await api.get("/api/v1/completions", **params)
        assert status == 200
        pages += 1
        assert pages <= 18, "more pages than 120 records at 7 a page"  # a cursor that cycles
        seen += [(r["completedAt"], r["riderId"], r["courseId"]) for r in body["data"]]
        if body["nextCursor"] is None:
            assert body["next"] is None and len(body["data"]) < 7
            break
        assert len(body["data"]) == 7
        assert body["next"] == body["data"][-1]["completedAt"]
        params = {"limit": "7", "cursor": body["nextCursor"]}
    assert pages == 18
    assert len(seen) == len(set(seen)) == 120
    assert seen == sorted(seen)


async def test_a_full_last_page_has_a_cursor_to_an_empty_page(api, db):
    await add_rider(db, "R-1")
    await add_results(
        db,
        [
            ("R-1", await add_course(db), utc(2026, 1, 1)),
            ("R-1", await add_course(db), utc(2026, 1, 2)),
        ],
    )
    status, body = await api.get("/api/v1/completions", limit="2")
    assert len(body["data"]) == 2 and body["nextCursor"]
    status, body = await api.get("/api/v1/completions", limit="2", cursor=body["nextCursor"])
    assert (status, body) == (200, {"data": [], "next": None, "nextCursor": None})


@pytest.fixture
async def four_days(db):
    await add_rider(db, "R-1")
    course = await add_course(db)
    days = [utc(2026, 5, d, 0, 0, 0) for d in (1, 2, 3)] + [utc(2026, 5, 3, 23, 59, 59, 999000)]
    await add_results(
        db, [("R-1", course if i == 0 else await add_course(db), t) for i, t in enumerate(days)]
    )


@pytest.mark.parametrize(
    ("since", "count"),
    [
        ("2026-05-02", 2),  # a date: after its midnight UTC, strictly
        ("2026-05-02T00:00:00", 2),  # no offset: UTC
        ("2026-05-01T23:59:59.999", 3),
        ("2026-05-02T00:00:00.000001Z", 2),
        ("2026-05-02T03:00:00+04:00", 3),  # 2026-05-01T23:00Z
        ("2026-05-02T03:00:00 04:00", 3),  # an unencoded '+' arrives as a space
        ("2026-05-03T23:59:59.998Z", 1),
        ("2026-05-03T23:59:59.999Z", 0),
        ("2020-01-01", 4),
        ("0001-01-01T00:00:00+01:00", 4),  # before year 1 in UTC: before every record
        ("9999-12-31T23:59:59-14:00", 0),  # after 9999 in UTC: after every record
    ],
)
async def test_since(api, four_days, since, count):
    status, body = await api.get("/api/v1/completions", since=since)
    assert status == 200 and len(body["data"]) == count


@pytest.mark.parametrize("since", ["yesterday", "2026-13-01", "2026-05-02T25:00", "12"])
async def test_bad_since_is_400(api, four_days, since):
    status, body = await api.get("/api/v1/completions", since=since)
    assert (status, body) == (
        400,
        {"error": "since must be an ISO date", "code": "invalid_request"},
    )


async def test_cursor_wins_over_since_and_empty_values_count_as_absent(api, four_days):
    status, body = await api.get("/api/v1/completions", limit="1", cursor="", since="")
    assert status == 200 and body["data"][0]["completedAt"] == "2026-05-01T00:00:00.000Z"
    status, body = await api.get(
        "/api/v1/completions", cursor=body["nextCursor"], since="not a date"
    )
    assert status == 200
    assert [r["completedAt"][:10] for r in body["data"]] == [
        "2026-05-02",
        "2026-05-03",
        "2026-05-03",
    ]


@pytest.mark.parametrize(
    ("limit", "size"),
    [
        (None, 1000),
        ("0", 1000),
        ("-3", 1000),
        ("abc", 1000),
        ("2.5", 1000),
        ("", 1000),
        ("1", 1),
        ("4999", 4999),
        ("5000", 5000),
        ("5001", 5000),
        ("0042", 42),
        ("9" * 5000, 5000),
    ],
)
async def test_limit(api, db, limit, size):
    await add_rider(db, "R-1")
    courses = [uuid.uuid4() for _ in range(5001)]
    await db.execute(
        "INSERT INTO courses (course_id, title) SELECT unnest($1::uuid[]), 'C'", courses
    )
    await db.execute(
        "INSERT INTO course_results SELECT 'R-1', c, 'en', now(), now(), 90, 1, 60,"
        " translate(lpad(i::text, 8, '0'), '0123456789', 'ABCDEFGHJK')"
        " FROM unnest($1::uuid[]) WITH ORDINALITY AS u(c, i)",
        courses,
    )
    status, body = await api.get(
        "/api/v1/completions", **({} if limit is None else {"limit": limit})
    )
    assert status == 200 and len(body["data"]) == size
    assert body["nextCursor"] is not None


async def test_tampered_or_foreign_cursors_are_400(api, make_client, four_days):
    status, body = await api.get("/api/v1/completions", limit="1")
    good = body["nextCursor"]
    payload, signature = good.split(".")
    forged = (
        base64.urlsafe_b64encode(
            b'["2026-05-02T00:00:00.000Z","R-1","00000000-0000-0000-0000-000000000000"]'
        )
        .decode()
        .rstrip("=")
    )
    for cursor in [
        "abc",
        good + "x",
        payload,
        f"{forged}.{signature}",
        good.upper(),
        "2026-05-01T00:00:00.000Z",
        f"{payload}.",
        "....",
    ]:
        status, body = await api.get("/api/v1/completions", cursor=cursor)
        assert (status, body) == (400, {"error": CURSOR_MESSAGE, "code": "invalid_request"})
    other = await make_client(INTEGRATION_API_KEY="another-key")
    response = await other.get(
        "/api/v1/completions", params={"cursor": good}, headers={"x-api-key": "another-key"}
    )
    assert response.status == 400
    assert await response.json() == {"error": CURSOR_MESSAGE, "code": "invalid_request"}


# Directly the pool's own sessions are dropped and replaced; behind PgBouncer the pooler's.
@pytest.mark.direct
async def test_the_uptime_call_answers_500_while_the_database_is_down(client, database_down):
    # Spec: `GET /api/v1/completions?limit=1` answers 200 only when the database works.
    async with database_down():
        response = await client.get("/api/v1/completions?limit=1", headers=AUTH)
        assert response.status == 500
        assert await response.json() == {"error": "Internal server error", "code": "internal_error"}

    async def answered():
        return (await client.get("/api/v1/completions?limit=1", headers=AUTH)).status == 200

    # The pool replaces its dropped connections: once the database is back, so is the answer
    # (behind PgBouncer once the pooler logs in to the server again, server_login_retry).
    await until(answered, seconds=5)


@pytest.mark.parametrize(
    "query", ["limit=null&limit=null", "since=2026-05-01&since=2026-05-02", "cursor=a&cursor=b"]
)
async def test_a_parameter_given_twice_is_400_naming_it(api, four_days, query):
    name = query.split("=")[0]
    status, body = await api.get(f"/api/v1/completions?{query}")
    assert (status, body) == (
        400,
        {"error": f"{name} must be given at most once", "code": "invalid_request"},
    )


@pytest.mark.parametrize("name", ["limit", "since", "cursor"])
async def test_a_nul_character_in_a_parameter_is_400_naming_it(api, four_days, name):
    status, body = await api.get("/api/v1/completions", **{name: "1\x00"})
    assert (status, body) == (
        400,
        {"error": f"{name} must not contain the NUL character (U+0000)", "code": "invalid_request"},
    )
