"""The reminders job: who is reminded, what they get, the 5,000 cap and the run's log line."""

from datetime import UTC, datetime, timedelta

import pytest
import structlog

from app.messaging.links import LINK_PURPOSE, signature_removed, verify
from jobs import JOBS, JobFailed
from tests.conftest import TEST_KEYS
from tests.messaging.rows import add_path, add_rider, assign

remind = JOBS["reminders"].run


async def _run(context):
    with structlog.testing.capture_logs() as logs:
        await remind(context)
    (line,) = [e for e in logs if e["event"] == "reminders sent"]
    return line


async def _messages(db):
    return await db.fetch("SELECT * FROM messages ORDER BY message_id")


async def test_riders_with_open_training_are_reminded_oldest_deadline_first(
    db, job_context, fake_provider
):
    safety, food, welcome = [await add_path(db, n) for n in ("Road safety", "Food", "Welcome")]
    await add_rider(db, "R-late", name="Lea", phone="+971500000001")
    await assign(db, "R-late", food, due_in_days=5)
    await assign(db, "R-late", safety, due_in_days=-3)
    await assign(db, "R-late", welcome, due_in_days=-9, completed=True)
    await add_rider(db, "R-suspended", name="Sol", phone="+971500000002", status="suspended")
    await assign(db, "R-suspended", food, due_in_days=1)
    await add_rider(db, "R-nophone", name="Noa", phone=None, status="onboarding")
    await assign(db, "R-nophone", welcome, due_in_days=2)
    await add_rider(db, "R-inactive", phone="+971500000003", status="inactive")
    await assign(db, "R-inactive", safety, due_in_days=-20)
    await add_rider(db, "R-done", phone="+971500000004")
    await assign(db, "R-done", safety, due_in_days=-20, completed=True)
    context = job_context(PUBLIC_BASE_URL="https://academy.example.com", **fake_provider.env)

    line = await _run(context)

    assert line["riders_reminded"] == 3
    assert line["delivered_by_messaging"] == 2
    assert line["logged"] == 1 and line["failed"] == 0
    assert line["assignments"] == 4
    rows = await _messages(db)
    assert [(m["rider_id"], m["kind"], m["status"]) for m in rows] == [
        ("R-late", "reminder", "sent"),
        ("R-suspended", "reminder", "sent"),
        ("R-nophone", "reminder", "logged"),
    ]
    assert [r["json"]["to"] for r in fake_provider.requests] == ["971500000001", "971500000002"]
    assert {m["provider_message_id"] for m in rows[:2]} == {"wamid.fake1", "wamid.fake2"}
    assert rows[2]["provider_message_id"] is None and rows[2]["error"] is None

    late = rows[0]
    now = datetime.now(UTC)
    sent = fake_provider.requests[0]["json"]["text"]["body"]
    link = sent.rpartition(" ")[2]
    assert sent.splitlines() == [
        "Hi Lea, you have unfinished training:",
        f"- Road safety: overdue since {now - timedelta(days=3):%Y-%m-%d}",
        f"- Food: due {now + timedelta(days=5):%Y-%m-%d}",
        f"Open your training: {link}",
    ]
    assert (late["body"], late["link"]) == (signature_removed(sent), signature_removed(link))
    assert link.startswith("https://academy.example.com/t/")
    token = link.rpartition("/t/")[2]
    assert verify(TEST_KEYS["SESSION_SECRET"], LINK_PURPOSE, token, now) == "R-late"


async def test_a_rider_with_more_than_10_open_paths_gets_10_listed_and_the_count_of_the_rest(
    db, job_context
):
    await add_rider(db, "R-1", name="Lea")
    for n in range(12):  # path 0 is due first, path 11 last
        await assign(db, "R-1", await add_path(db, f"Path {n:02}"), due_in_days=n + 1)
    await _run(job_context(SESSION_SECRET=None))
    (message,) = await _messages(db)
    now = datetime.now(UTC)
    assert message["body"].splitlines() == [
        "Hi Lea, you have unfinished training:",
        *(f"- Path {n:02}: due {now + timedelta(days=n + 1):%Y-%m-%d}" for n in range(10)),
        "- and 2 more",
        "Sign in to the training platform to continue.",
    ]


async def test_not_connected_every_reminder_is_logged(db, job_context):
    path = await add_path(db, "Road safety")
    await add_rider(db, "R-1")
    await assign(db, "R-1", path, due_in_days=1)
    line = await _run(job_context())
    assert (line["riders_reminded"], line["delivered_by_messaging"], line["logged"]) == (1, 0, 1)
    (message,) = await _messages(db)
    assert message["status"] == "logged"


async def test_without_a_session_secret_reminders_carry_no_link(db, job_context):
    path = await add_path(db, "Road safety")
    await add_rider(db, "R-1")
    await assign(db, "R-1", path, due_in_days=1)
    with structlog.testing.capture_logs() as logs:
        await remind(job_context(SESSION_SECRET=None))
    assert any(e["event"] == "SESSION_SECRET must be set" for e in logs)
    (message,) = await _messages(db)
    assert message["link"] is None
    assert message["body"].endswith("\nSign in to the training platform to continue.")


async def test_a_refused_send_is_recorded_failed_and_the_run_goes_on(
    db, job_context, fake_provider
):
    path = await add_path(db, "Road safety")
    for number, rider in enumerate(("R-1", "R-2"), start=1):
        await add_rider(db, rider, phone=f"+97150000000{number}")
        await assign(db, rider, path, due_in_days=number)
    fake_provider.answers = [(400, {"error": {"message": "Invalid parameter"}})]
    line = await _run(job_context(**fake_provider.env))
    assert (line["delivered_by_messaging"], line["failed"]) == (1, 1)
    rows = await _messages(db)
    assert [(m["rider_id"], m["status"], m["error"]) for m in rows] == [
        ("R-1", "failed", "provider answered 400: Invalid parameter"),
        ("R-2", "sent", None),
    ]


async def test_a_run_where_every_send_failed_fails(db, job_context, fake_provider):
    path = await add_path(db, "Road safety")
    await add_rider(db, "R-1")
    await assign(db, "R-1", path, due_in_days=1)
    fake_provider.answers = [(401, {"error": {"message": "Invalid OAuth access token"}})]
    with pytest.raises(JobFailed, match="all 1 messaging sends failed, e.g. provider answered 401"):
        await remind(job_context(**fake_provider.env))
    (message,) = await _messages(db)
    assert message["status"] == "failed"


async def test_a_run_handles_the_5000_oldest_open_assignments(db, job_context):
    # Riders 1..2600 each have two open paths: "First" due in i minutes, "Second" due in
    # 2600 + i minutes. Inactive riders and completed assignments with older deadlines must
    # not use up the cap: the 5,000 are all "First" and the "Second" of riders 1..2400.
    await db.execute(
        """
        INSERT INTO paths (path_id, name, days_to_complete)
        VALUES (gen_random_uuid(), 'First', 7), (gen_random_uuid(), 'Second', 7);
        INSERT INTO riders (rider_id, name, market, status)
        SELECT 'R-' || g, 'Rider ' || g, 'AE', CASE WHEN g > 2600 THEN 'inactive' ELSE 'active' END
        FROM generate_series(1, 2700) g;
        INSERT INTO assignments (rider_id, path_id, why, deadline, completed_at)
        SELECT 'R-' || g, p.path_id, 'api',
               now() + make_interval(mins => g + CASE p.name WHEN 'Second' THEN 2600 ELSE 0 END)
                     - CASE WHEN g > 2600 THEN interval '30 days' ELSE interval '0' END,
               NULL
        FROM generate_series(1, 2700) g CROSS JOIN paths p;
        INSERT INTO riders (rider_id, name, market) VALUES ('R-done', 'Done', 'AE');
        INSERT INTO assignments (rider_id, path_id, why, deadline, completed_at)
        SELECT 'R-done', path_id, 'api', now() - interval '60 days', now() FROM paths;
        """
    )
    line = await _run(job_context())
    assert line["assignments"] == 5000
    assert line["riders_reminded"] == 2600
    counts = await db.fetchrow(
        """
        SELECT count(*) AS riders,
               count(*) FILTER (WHERE body LIKE '%- Second:%') AS with_second,
               count(*) FILTER (WHERE body LIKE '%- First:%') AS with_first,
               count(*) FILTER (WHERE rider_id IN ('R-2401', 'R-2600')
                                  AND body LIKE '%- Second:%') AS beyond_cap
        FROM messages
        """
    )
    assert dict(counts) == {
        "riders": 2600,
        "with_second": 2400,
        "with_first": 2600,
        "beyond_cap": 0,
    }
    first = await db.fetchval("SELECT rider_id FROM messages ORDER BY message_id LIMIT 1")
    assert first == "R-1"
