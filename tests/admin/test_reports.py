"""The reports (/admin/reports): every figure on a report agrees with what the completions API
and the CSV exports say for the same riders; quiz attempts keep their chosen options; the
riders list's overdue filter; the dashboard's counts link to what they count."""

from __future__ import annotations

import csv
import html
import io
import re
import statistics
import uuid
from collections import Counter, defaultdict
from datetime import UTC, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from urllib.parse import quote

import pytest

from jobs.reports import recount
from tests.rider.rows import API_KEY, QUIZ, add_course, add_path, form, save_riders
from tests.web import PageClient, sign_in

NOW = datetime.now(UTC)
ONE_RIGHT = {"q0": ["0"], "q1": ["0"], "q2": ["0"]}  # q1 wrong (Helmet only), q2 wrong (Never)
TWO_RIGHT = {"q0": ["0"], "q1": ["0", "2"], "q2": ["0"]}  # q2 wrong: 66.67, below 70
RIGHT = {"q0": ["0"], "q1": ["0", "2"], "q2": ["1"]}
# What each quiz rider sends, attempt after attempt (they stop once passed).
QUIZ_RIDERS = {
    "Q-1": [RIGHT],
    "Q-2": [ONE_RIGHT, RIGHT],
    "Q-3": [TWO_RIGHT, ONE_RIGHT, RIGHT],
    "Q-4": [ONE_RIGHT],
}


def _section(page: str, name: str) -> str:
    found = re.search(rf'<section id="{name}">(.*?)</section>', page, re.S)
    assert found, name
    return found.group(1)


def _table(page: str, name: str) -> list[list[str]]:
    """The body rows of a report's table, each cell's text."""
    body = re.search(r"<tbody>(.*?)</tbody>", _section(page, name), re.S)
    if body is None:
        return []
    rows = re.findall(r"<tr>(.*?)</tr>", body.group(1), re.S)
    return [
        [
            html.unescape(re.sub(r"<[^>]+>", "", cell))
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)
        ]
        for r in rows
    ]


async def _csv(client, path: str) -> list[dict]:
    response = await client.get(path)
    assert response.status == 200, await response.text()
    return list(csv.DictReader(io.StringIO((await response.text()).lstrip("\ufeff"))))


async def _completions(client) -> list[dict]:
    records, address = [], "/api/v1/completions?limit=2"
    while address:
        response = await client.get(address, headers=API_KEY)
        assert response.status == 200
        page = await response.json()
        records += page["data"]
        cursor = page["nextCursor"]
        address = cursor and f"/api/v1/completions?limit=2&cursor={quote(cursor)}"
    return records


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _week(moment: datetime) -> str:
    year, week, _ = moment.isocalendar()
    return f"{year}-W{week:02d}"


async def _data(client, db) -> dict:
    """Riders in two markets and three cities (one without), two paths with open, overdue and
    completed assignments made over the last weeks, completions spread over those weeks, and a
    quiz course taken through the real quiz page."""
    riders = [
        {"riderId": f"R-{n}", "name": f"Rider {n}", "market": ("AE", "KW")[n % 2], "pin": "1234"}
        | ({"city": ("Dubai", "Kuwait City")[n % 2] if n % 3 else "Sharjah"} if n % 5 else {})
        for n in range(1, 16)
    ]
    quiz_riders = [
        {"riderId": rider_id, "name": rider_id, "market": "AE", "city": "Dubai", "pin": "1234"}
        for rider_id in QUIZ_RIDERS
    ]
    await save_riders(client, *riders, *quiz_riders)
    courses = [await add_course(db, f"Course {n}", quiz=[]) for n in (1, 2)]
    paths = [await add_path(db, name, courses[:n]) for n, name in ((1, "Basics"), (2, "=Road"))]
    for n in range(1, 16):
        for k, path_id in enumerate(paths):
            if (n + k) % 4 == 0:
                continue
            assigned = NOW - timedelta(days=3 * n + k, hours=n)
            deadline = assigned + timedelta(days=7 + 5 * k)
            completed = assigned + timedelta(days=1 + n % 4, hours=k) if (n + k) % 3 == 0 else None
            await db.execute(
                "INSERT INTO assignments (rider_id, path_id, why, assigned_at, deadline,"
                " completed_at) VALUES ($1, $2, 'api', $3, $4, $5)",
                f"R-{n}",
                path_id,
                assigned,
                deadline,
                completed,
            )
        for k, course_id in enumerate(courses):
            if (n + k) % 2:
                completed = NOW - timedelta(days=5 * n + k)
                await db.execute(
                    "INSERT INTO course_results (rider_id, course_id, language, started_at,"
                    " completed_at, score, attempts, proof_code)"
                    " VALUES ($1, $2, 'en', $3, $3, 80, 1, training_proof_code())",
                    f"R-{n}",
                    course_id,
                    completed,
                )
    quiz_course = await add_course(db, "Food safety", quiz=QUIZ)
    quiz_path = await add_path(db, "Food", [quiz_course])
    for rider_id, attempts in QUIZ_RIDERS.items():
        await db.execute(
            "INSERT INTO assignments (rider_id, path_id, why, deadline)"
            " VALUES ($1, $2, 'api', now() + interval '7 days')",
            rider_id,
            quiz_path,
        )
        rider = PageClient(client)
        await rider.submit("/sign-in", {"rider_id": rider_id, "pin": "1234"}, form_page="/")
        for answers in attempts:
            response = await rider.submit(
                f"/training/courses/{quiz_course}/quiz", form(answers), form_page="/training"
            )
            assert response.status == 200
    return {"quiz_course": quiz_course}


def _unguarded(cell: str) -> str:
    """A CSV cell without the formula guard's leading quote."""
    return cell[1:] if cell[:2] in ("'=", "'+", "'-", "'@") else cell


def _one_decimal(value: float) -> str:
    return str(Decimal(repr(value)).quantize(Decimal("0.1"), ROUND_HALF_UP))


def _median(seconds: list[float]) -> str:
    """The median as the report reads it: of the durations in tenths of a day (half away from
    zero), the mean of the two middle ones."""
    if not seconds:
        return ""
    tenths = sorted(
        int((Decimal(repr(s)) / 8640).quantize(Decimal(1), ROUND_HALF_UP)) for s in seconds
    )
    middle = Decimal(tenths[(len(tenths) - 1) // 2] + tenths[len(tenths) // 2]) / 20
    return str(middle.quantize(Decimal("0.1"), ROUND_HALF_UP))


def _rate(part: int, whole: int) -> str:
    return _one_decimal(100 * part / whole)


def _discrimination(sent: list[tuple[int, dict]], index: int) -> str:
    """The discrimination index's cell of question `index` over the attempts `sent`: the
    correlation of the question's score (1 right, 0 wrong) with the rest of the attempt's."""
    right = [
        [set(answers[f"q{i}"]) == {str(o) for o in q["correct"]} for i, q in enumerate(QUIZ)]
        for _, answers in sent
    ]
    own = [int(marks[index]) for marks in right]
    rest = [sum(marks) - marks[index] for marks in right]
    if len(set(own)) < 2 or len(set(rest)) < 2:
        return "none (answers all alike)"
    value = _one_decimal(100 * statistics.correlation(own, rest))
    words = next(
        (w for below, w in ((30, "very likely"), (50, "likely")) if float(value) < below), ""
    )
    return f"{value}%" + (f" needs checking: {words}" if words else "")


@pytest.mark.parametrize("query", ["", "markets=AE", "markets=KW&cities=Kuwait+City"])
async def test_every_figure_on_the_reports_agrees_with_the_api_and_the_exports(
    client, db, make_admin, query
):
    made = await _data(client, db)
    await recount(db)
    account = await make_admin()
    assert (await sign_in(client, account)).status == 303
    filters = dict(pair.split("=") for pair in query.split("&") if pair)
    rider_query = "&".join(
        f"{name}={value}"
        for name, value in (("market", filters.get("markets")), ("city", filters.get("cities")))
        if value
    )
    riders = {
        r["riderId"]: r for r in await _csv(client, f"/admin/exports/riders.csv?{rider_query}")
    }
    assignments = await _csv(client, f"/admin/exports/assignments.csv?{rider_query}")
    completions = [c for c in await _completions(client) if c["riderId"] in riders]
    page = await (await client.get(f"/admin/reports?{query}")).text()

    # Completion by path, from the assignments export.
    by_path = defaultdict(list)
    for row in assignments:
        by_path[_unguarded(row["path"])].append(row)
    expected = []
    for path, rows in sorted(by_path.items(), key=lambda item: item[0].lower()):
        done = [r for r in rows if r["completedAt"]]
        overdue = [r for r in rows if not r["completedAt"] and _time(r["deadline"]) < NOW]
        days = [(_time(r["completedAt"]) - _time(r["assignedAt"])).total_seconds() for r in done]
        expected.append(
            [
                path,
                str(len(rows)),
                str(len(done)),
                _rate(len(done), len(rows)),
                str(len(overdue)),
                _median(days),
            ]
        )
    assert len(expected) >= 2
    assert [[*row[:3], row[3].rstrip("%"), *row[4:]] for row in _table(page, "paths")] == expected
    paths_csv = await _csv(client, f"/admin/reports/paths.csv?{query}")
    assert [
        [
            _unguarded(r["path"]),
            r["assigned"],
            r["completed"],
            r["completionRate"],
            r["overdue"],
            r["medianDaysToComplete"],
        ]
        for r in paths_csv
    ] == expected
    # The formula guard: a path named "=Road" stays text in a spreadsheet.
    assert "'=Road" in (await (await client.get(f"/admin/reports/paths.csv?{query}")).text())

    # Per week, completions from the API and assignments from the export.
    weeks = [_week(NOW - timedelta(weeks=n)) for n in range(11, -1, -1)]
    done = Counter(_week(_time(c["completedAt"])) for c in completions)
    made_in = Counter(_week(_time(r["assignedAt"])) for r in assignments)
    expected = [[week, str(done[week]), str(made_in[week])] for week in weeks]
    assert sum(int(row[1]) for row in expected) > 0
    assert _table(page, "weeks") == expected
    weeks_csv = await _csv(client, f"/admin/reports/weeks.csv?{query}")
    assert [[r["week"], r["completions"], r["assignments"]] for r in weeks_csv] == expected

    # Overdue by city, from the assignments and riders exports.
    overdue = Counter(
        (riders[r["riderId"]]["market"], riders[r["riderId"]]["city"])
        for r in assignments
        if not r["completedAt"] and _time(r["deadline"]) < NOW
    )
    expected = sorted(overdue.items(), key=lambda item: (-item[1], item[0][0], item[0][1] or "~"))
    assert expected
    assert _table(page, "overdue") == [
        [city or "(no city)", market, str(count)] for (market, city), count in expected
    ]
    overdue_csv = await _csv(client, f"/admin/reports/overdue.csv?{query}")
    assert [(r["market"], r["city"], r["overdue"]) for r in overdue_csv] == [
        (market, city, str(count)) for (market, city), count in expected
    ]
    # Each city links to its riders with overdue training: the riders the export counted.
    for (market, city), _count in expected:
        link = f"/admin/riders?market={market}" + (
            f"&amp;city={city.replace(' ', '+')}" if city else ""
        )
        assert f'{link}&amp;overdue=1"' in page
        listed = await (await client.get(html.unescape(link) + "&overdue=1")).text()
        expected_riders = {
            r["riderId"]
            for r in assignments
            if riders[r["riderId"]]["market"] == market
            and (not city or riders[r["riderId"]]["city"] == city)
            and not r["completedAt"]
            and _time(r["deadline"]) < NOW
        }
        assert set(re.findall(r'<td><a href="/admin/riders/([^"]+)">', listed)) == expected_riders

    # Item analysis of the quiz course, against what the riders sent and the API's records.
    course_id = made["quiz_course"]
    assert f'href="/admin/reports/courses/{course_id}' in page
    course_page = await (await client.get(f"/admin/reports/courses/{course_id}?{query}")).text()
    quiz_riders = {rider_id: a for rider_id, a in QUIZ_RIDERS.items() if rider_id in riders}
    sent = [
        (n, answers) for attempts in quiz_riders.values() for n, answers in enumerate(attempts, 1)
    ]
    expected = []
    for index, question in enumerate(QUIZ):
        key = f"q{index}"
        right = {str(option) for option in question["correct"]}
        first = [a for n, a in sent if n == 1]
        wrong = Counter(
            int(option)
            for _, a in sent
            if set(a[key]) != right
            for option in a[key]
            if option not in right
        )
        top = min(wrong, key=lambda option: (-wrong[option], option)) if wrong else None
        expected.append(
            [
                str(index + 1),
                question["question"],
                str(len(sent)),
                f"{_rate(sum(set(a[key]) == right for a in first), len(first))}% (of {len(first)})",
                f"{_rate(sum(set(a[key]) == right for _, a in sent), len(sent))}%",
                _discrimination(sent, index),
                question["options"][top] if top is not None else "",
            ]
        ) if sent else None
    assert _table(course_page, "questions") == (expected if sent else [])
    course_csv = await _csv(client, f"/admin/reports/courses/{course_id}.csv?{query}")
    assert [
        [
            str(int(r["question"]) + 1),
            r["text"],
            r["answered"],
            r["firstAttemptCorrectRate"],
            r["correctRate"],
            r["topWrongOption"],
        ]
        for r in course_csv
    ] == [[e[0], e[1], e[2], e[3].split("%")[0], e[4].rstrip("%"), e[6]] for e in expected if sent]
    # Attempts to pass: the API's attempts of the course's completions (riders stop on a pass).
    passed = Counter(c["attempts"] for c in completions if c["courseId"] == str(course_id))
    assert _table(course_page, "attempts") == [
        [f"{n}{'+' * (n == 5)}", str(passed[n])] for n in range(1, 6)
    ]
    scores = Counter()
    for _, answers in sent:
        right = sum(
            set(answers[f"q{i}"]) == {str(o) for o in q["correct"]} for i, q in enumerate(QUIZ)
        )
        scores[min(int(100 * right / len(QUIZ) // 10), 9)] += 1
    assert [int(row[1]) for row in _table(course_page, "scores")] == [scores[n] for n in range(10)]


async def test_a_quiz_attempt_keeps_the_options_chosen_once(client, db):
    await save_riders(client, {"riderId": "Q-1", "name": "Q", "market": "AE", "pin": "1234"})
    course_id = await add_course(db, "Food safety", quiz=QUIZ)
    path_id = await add_path(db, "Food", [course_id])
    await db.execute(
        "INSERT INTO assignments (rider_id, path_id, why, deadline)"
        " VALUES ('Q-1', $1, 'api', now() + interval '7 days')",
        path_id,
    )
    rider = PageClient(client)
    await rider.submit("/sign-in", {"rider_id": "Q-1", "pin": "1234"}, form_page="/")
    attempt_id = str(uuid.uuid4())
    for _ in range(2):  # the same attempt sent twice: recorded once
        token = await rider.csrf(f"/training/courses/{course_id}/quiz")
        data = [*form(ONE_RIGHT), ("attempt_id", attempt_id), ("csrf_token", token)]
        assert (await client.post(f"/training/courses/{course_id}/quiz", data=data)).status == 200
    await rider.submit(f"/training/courses/{course_id}/quiz", form(RIGHT), form_page="/training")
    rows = await db.fetch(
        "SELECT attempt, question, chosen, correct FROM quiz_answers ORDER BY attempt, question"
    )
    assert [tuple(row) for row in rows] == [
        (1, 0, [0], True),
        (1, 1, [0], False),
        (1, 2, [0], False),
        (2, 0, [0], True),
        (2, 1, [0, 2], True),
        (2, 2, [1], True),
    ]
    attempts = await db.fetch("SELECT attempt, score, passed FROM quiz_attempts ORDER BY attempt")
    assert [tuple(row) for row in attempts] == [(1, 33.33, False), (2, 100, True)]


async def test_the_riders_list_and_its_export_filter_riders_with_overdue_training(admin_client, db):
    await db.execute(
        "INSERT INTO riders (rider_id, name, market) SELECT 'R-' || i, 'Rider ' || i, 'AE'"
        " FROM generate_series(1, 4) i"
    )
    path_id = uuid.uuid4()
    await db.execute(
        "INSERT INTO paths (path_id, name, days_to_complete) VALUES ($1, 'Basics', 7)", path_id
    )
    await db.execute(
        "INSERT INTO assignments (rider_id, path_id, why, deadline, completed_at) VALUES"
        " ('R-1', $1, 'api', now() - interval '1 day', NULL),"  # overdue
        " ('R-2', $1, 'api', now() + interval '1 day', NULL),"  # open, not yet due
        " ('R-3', $1, 'api', now() - interval '1 day', now())",  # completed late
        path_id,
    )
    page = await (await admin_client.get("/admin/riders?overdue=1")).text()
    assert re.findall(r'<td><a href="/admin/riders/([^"]+)">', page) == ["R-1"]
    assert "checked" in re.search(r'<input type="checkbox" name="overdue"[^>]*>', page).group(0)
    exported = await _csv(admin_client, "/admin/exports/riders.csv?overdue=1")
    assert [row["riderId"] for row in exported] == ["R-1"]
    assert (await admin_client.get("/admin/riders?overdue=yes")).status == 400


async def test_the_dashboard_counts_link_to_what_they_count(admin_client):
    page = await (await admin_client.get("/admin")).text()
    for link in (
        "/admin/riders?status=onboarding",
        "/admin/riders?status=active",
        "/admin/riders?status=suspended",
        "/admin/riders?status=inactive",
        "/admin/riders?overdue=1",
        "/admin/reports#paths-title",
        "/admin/reports#weeks-title",
        "/admin/messages",
    ):
        assert f'href="{link}"' in page
    assert '<a href="/admin/reports">Reports</a>' in page


@pytest.mark.parametrize(
    "query",
    ["markets=XX", "assigned_from=2026-02-30", "assigned_from=2026-03-02&assigned_to=2026-03-01"],
)
async def test_bad_report_filters_answer_400(admin_client, query):
    page = await admin_client.get(f"/admin/reports?{query}")
    assert page.status == 400
    assert 'class="error"' in await page.text()
    assert (await admin_client.get(f"/admin/reports/paths.csv?{query}")).status == 400


async def test_a_course_without_a_quiz_has_no_item_analysis(admin_client, db):
    course_id = await add_course(db, "Reading only", quiz=[])
    assert (await admin_client.get(f"/admin/reports/courses/{course_id}")).status == 404
    assert (await admin_client.get(f"/admin/reports/courses/{uuid.uuid4()}.csv")).status == 404


# Four riders' first attempts at QUIZ (right: 1, wrong: 0) and the options they chose:
#        q0        q1           q2
#   A    1 {0}     1 {0,2}      1 {1}
#   B    1 {0}     0 {0}        1 {1}
#   C    0 {1}     0 {1}        1 {1}
#   D    0 {1}     1 {0,2}      0 {0}
HAND_ANSWERS = {
    "R-A": ([0], [0, 2], [1]),
    "R-B": ([0], [0], [1]),
    "R-C": ([1], [1], [1]),
    "R-D": ([1], [0, 2], [0]),
}


async def test_the_item_analysis_agrees_with_figures_worked_out_by_hand(admin_client, db):
    await db.execute(
        "INSERT INTO riders (rider_id, name, market, city)"
        " SELECT unnest($1::text[]), 'Rider', 'AE', 'Dubai'",
        list(HAND_ANSWERS),
    )
    course_id = await add_course(db, "Food safety", quiz=QUIZ)
    await db.execute(
        "INSERT INTO course_results (rider_id, course_id, language, started_at, attempts)"
        " SELECT unnest($1::text[]), $2, 'en', now(), 1",
        list(HAND_ANSWERS),
        course_id,
    )
    for rider_id, chosen in HAND_ANSWERS.items():
        marks = [set(c) == set(q["correct"]) for c, q in zip(chosen, QUIZ, strict=True)]
        await db.execute(
            "INSERT INTO quiz_attempts (course_id, rider_id, attempt, score, passed)"
            " VALUES ($1, $2, 1, $3, $4)",
            course_id,
            rider_id,
            round(100 * sum(marks) / 3, 2),
            all(marks),
        )
        await db.executemany(
            "INSERT INTO quiz_answers (course_id, rider_id, attempt, question, chosen, correct)"
            " VALUES ($1, $2, 1, $3, $4, $5)",
            [
                (course_id, rider_id, q, c, m)
                for q, (c, m) in enumerate(zip(chosen, marks, strict=True))
            ],
        )
    await recount(db)
    page = await (await admin_client.get(f"/admin/reports/courses/{course_id}")).text()
    # Facility: right answers of 4. Discrimination: Pearson's r of the question's marks x and
    # the rest of the attempt's y = (right answers in the attempt) − x:
    #   q0: x 1,1,0,0  y 2,1,1,1  Σdx·dy 0.5   Σdx² 1  Σdy² 0.75  r = 0.5/√0.75   =  57.7%
    #   q1: x 1,0,0,1  y 2,2,1,0  Σdx·dy −0.5  Σdx² 1  Σdy² 2.75  r = −0.5/√2.75  = −30.2%
    #   q2: x 1,1,1,0  y 2,1,0,1  Σdx·dy 0     (x̄ 0.75, ȳ 1)       r = 0          =   0.0%
    # Below 30%: very likely needs checking; below 50%: likely (Moodle's thresholds).
    assert _table(page, "questions") == [
        ["1", QUIZ[0]["question"], "4", "50.0% (of 4)", "50.0%", "57.7%", "Seat"],
        [
            "2",
            QUIZ[1]["question"],
            "4",
            "50.0% (of 4)",
            "50.0%",
            "-30.2% needs checking: very likely",
            "Phone",
        ],
        [
            "3",
            QUIZ[2]["question"],
            "4",
            "75.0% (of 4)",
            "75.0%",
            "0.0% needs checking: very likely",
            "Never",
        ],
    ]
    # Each option: the answers that chose it, of the question's 4.
    options = _section(page, "options")
    tables = re.findall(r"<tbody>(.*?)</tbody>", options, re.S)
    cells = [
        [
            [
                html.unescape(re.sub(r"<[^>]+>", "", c))
                for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)
            ]
            for r in re.findall(r"<tr>(.*?)</tr>", body, re.S)
        ]
        for body in tables
    ]
    assert cells == [
        [["Hot bag (right)", "2", "50.0%"], ["Seat", "2", "50.0%"]],
        [
            ["Helmet (right)", "3", "75.0%"],
            ["Phone", "1", "25.0%"],
            ["Lights (right)", "2", "50.0%"],
        ],
        [["Never", "1", "25.0%"], ["Before pick-up (right)", "3", "75.0%"]],
    ]


async def test_recount_now_runs_the_reports_job_for_editors_only(make_client, make_admin, db):
    await db.execute("INSERT INTO riders (rider_id, name, market) VALUES ('R-1', 'Rider', 'AE')")
    path_id = await add_path(db, "Basics", [await add_course(db, "Course", quiz=[])])
    await db.execute(
        "INSERT INTO assignments (rider_id, path_id, why, deadline)"
        " VALUES ('R-1', $1, 'api', now() - interval '1 day')",
        path_id,
    )
    viewer, editor = PageClient(await make_client()), PageClient(await make_client())
    for client, role in ((viewer, "viewer"), (editor, "editor")):
        account = await make_admin(email=f"{role}@example.com", role=role)
        assert (await sign_in(client.client, account)).status == 303
    # Before the first count: the page says so and leads to the Jobs page, where runs are.
    page = await (await viewer.get("/admin/reports")).text()
    assert '<a href="/admin/jobs">Not counted yet</a>' in page
    assert "Recount now" not in page
    forbidden = await viewer.submit("/admin/reports/recount", {}, form_page="/admin/reports")
    assert forbidden.status == 403
    assert await db.fetchval("SELECT count(*) FROM job_runs") == 0

    assert "Recount now" in await (await editor.get("/admin/reports")).text()
    response = await editor.submit("/admin/reports/recount", {}, form_page="/admin/reports")
    assert response.status == 303
    assert response.headers["Location"].startswith("/admin/reports?notice=")
    page = await (await editor.get(response.headers["Location"])).text()
    counted = await db.fetchval("SELECT refreshed_at FROM report_refresh")
    assert f"Recounted at {counted:%Y-%m-%d %H:%M:%S} UTC." in page
    assert _table(page, "overdue") == [["(no city)", "AE", "1"]]
    run = await db.fetchrow("SELECT job, outcome, started_by FROM job_runs")
    assert (run["job"], run["outcome"]) == ("reports", "succeeded")
    assert run["started_by"] is not None
