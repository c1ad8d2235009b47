"""My training and the course player: lessons, quiz, completion, proofs; access, form errors,
double and concurrent submissions; the record in the completions feed."""

import asyncio
import re
import uuid
from datetime import UTC, datetime, timedelta

import pytest

from tests.rider.rows import (
    API_KEY,
    ONE_RIGHT,
    RIGHT,
    add_course,
    add_path,
    add_rider,
    assign,
    course_for,
    form,
    signed_in,
)
from tests.web import csrf_of


@pytest.fixture
async def rider(client):
    await add_rider(client)
    return await signed_in(client)


async def _record(db, course_id, rider_id="R-1"):
    return await db.fetchrow(
        "SELECT * FROM course_results WHERE rider_id = $1 AND course_id = $2", rider_id, course_id
    )


async def _completions(client):
    response = await client.get("/api/v1/completions", headers=API_KEY)
    assert response.status == 200
    return (await response.json())["data"]


async def test_my_training_lists_open_assignments_with_deadlines_and_finished_ones(rider, db):
    first, second = await add_course(db, "Food safety"), await add_course(db, "Road safety")
    hidden = await add_course(db, "Draft course", published=False)
    await assign(db, "R-1", await add_path(db, "Food path", [first, hidden]), due_in_days=3)
    await assign(db, "R-1", await add_path(db, "Road path", [second]), due_in_days=-2)
    done = await add_path(db, "Welcome path", [])
    await db.execute(
        "INSERT INTO assignments (rider_id, path_id, why, deadline, completed_at)"
        " VALUES ('R-1', $1, 'api', now(), now())",
        done,
    )
    page = await (await rider.get("/training")).text()
    now = datetime.now(UTC)
    overdue = f'Overdue by 2 days <span class="muted">({now - timedelta(days=2):%Y-%m-%d})'
    due = f'Due in 3 days <span class="muted">({now + timedelta(days=3):%Y-%m-%d})'
    assert page.index("Road path") < page.index(overdue) < page.index("Food path")
    assert page.index(due) < page.index("Finished training") < page.index("Welcome path")
    assert f'href="/training/courses/{first}"' in page
    assert "Draft course" in page and f'href="/training/courses/{hidden}"' not in page
    assert "0 of 2 courses passed" in page
    assert '<progress id="progress-2" value="0" max="2">' in page


async def test_first_opening_records_started_at_and_language_and_views_add_time(rider, db):
    course_id = await course_for(db)
    assert (await rider.get(f"/training/courses/{course_id}")).status == 200
    record = await _record(db, course_id)
    assert record["started_at"] is not None and record["language"] == "en"
    assert record["completed_at"] is None and record["attempts"] == 0
    started = record["started_at"]
    # Ten minutes away count as five; two minutes count as two.
    await db.execute("UPDATE course_results SET last_viewed_at = now() - interval '10 minutes'")
    await rider.get(f"/training/courses/{course_id}/lessons/1")
    await db.execute("UPDATE course_results SET last_viewed_at = now() - interval '2 minutes'")
    await rider.get(f"/training/courses/{course_id}/lessons/2")
    record = await _record(db, course_id)
    assert record["time_spent_seconds"] in (420, 421)
    assert record["started_at"] == started
    assert record["furthest_lesson"] == 2
    # Not passed: nothing in the feed.
    assert await _completions(rider) == []


async def test_lessons_are_numbered_from_one(rider, db):
    course_id = await course_for(db, lessons=2)
    page = await (await rider.get(f"/training/courses/{course_id}/lessons/1")).text()
    assert "Lesson 1 of 2" in page and "<strong>lesson 1</strong>" in page
    assert f'href="/training/courses/{course_id}/lessons/2"' in page
    last = await (await rider.get(f"/training/courses/{course_id}/lessons/2")).text()
    assert f'href="/training/courses/{course_id}/quiz"' in last
    for bad in ("0", "3", "abc", "٢", "-1", "1.0", "00000000001"):
        response = await rider.get(f"/training/courses/{course_id}/lessons/{bad}")
        assert response.status == 404, bad
        assert response.content_type == "text/html"


async def test_a_course_the_rider_has_no_access_to_is_a_404_page(rider, db, client):
    foreign = await add_course(db, "Someone else's")
    await add_rider(client, "R-2")
    await assign(db, "R-2", await add_path(db, "Other path", [foreign]))
    draft = await course_for(db, published=False)
    for course_id in (foreign, draft, uuid.uuid4(), "not-a-uuid"):
        for path in ("", "/lessons/1", "/quiz"):
            response = await rider.get(f"/training/courses/{course_id}{path}")
            assert response.status == 404, (course_id, path)
            assert "<h1>" in await response.text()
        response = await rider.submit(
            f"/training/courses/{course_id}/quiz", form(RIGHT), form_page="/training"
        )
        assert response.status == 404
    assert await db.fetchval("SELECT count(*) FROM course_results") == 0


@pytest.mark.parametrize(
    ("answers", "message"),
    [
        ({"q0": ["0"], "q1": ["0"]}, "Choose an answer."),
        ({**RIGHT, "q2": ["2"]}, "Choose one of the answers shown."),
        ({**RIGHT, "q2": ["x"]}, "Choose one of the answers shown."),
        ({**RIGHT, "q2": ["١"]}, "Choose one of the answers shown."),
        ({**RIGHT, "q2": ["-1"]}, "Choose one of the answers shown."),
        ({**RIGHT, "q7": ["0"]}, "These answers do not fit this quiz."),
    ],
)
async def test_quiz_answers_out_of_range_are_a_form_error(rider, db, answers, message):
    course_id = await course_for(db)
    response = await rider.submit(f"/training/courses/{course_id}/quiz", form(answers))
    assert response.status == 400
    page = await response.text()
    assert message in page
    assert 'name="q0" value="0" checked' in page  # what was chosen stays chosen
    assert (await _record(db, course_id))["attempts"] == 0


async def test_fail_then_pass_creates_the_completion_record_and_completes_the_path(rider, db):
    course_id = await course_for(db)
    failed = await rider.submit(f"/training/courses/{course_id}/quiz", form(ONE_RIGHT))
    assert failed.status == 200
    page = await failed.text()
    assert "Your score: 33.3%" in page and "Not passed yet" in page
    assert await _completions(rider) == []
    passed = await rider.submit(f"/training/courses/{course_id}/quiz", form(RIGHT))
    page = await passed.text()
    assert "You passed!" in page and "Your score: 100%" in page and "Attempts: 2" in page
    record = await _record(db, course_id)
    assert record["proof_code"] in page
    (completion,) = await _completions(rider)
    assert completion["riderId"] == "R-1" and completion["courseId"] == str(course_id)
    assert completion["course"] == "Food safety" and completion["market"] == "AE"
    assert completion["language"] == "en"
    assert completion["score"] == 100 and completion["attempts"] == 2
    assert completion["proofCode"] == record["proof_code"]
    assert completion["startedAt"] <= completion["completedAt"]
    assert await db.fetchval(
        "SELECT completed_at IS NOT NULL FROM assignments WHERE rider_id = 'R-1'"
    )


@pytest.mark.parametrize("answers", [ONE_RIGHT, RIGHT], ids=["failed", "passed"])
async def test_a_quiz_answered_without_a_view_before_starts_the_record(rider, db, answers):
    """An answer kept offline can reach the server before any view of the course was
    recorded (the offline copy's fetches record none)."""
    course_id = await course_for(db)
    response = await rider.submit(
        f"/training/courses/{course_id}/quiz", form(answers), form_page="/training"
    )
    assert response.status == 200
    record = await _record(db, course_id)
    assert record["attempts"] == 1 and record["language"] == "en"
    assert record["started_at"] is not None and record["time_spent_seconds"] == 0
    assert (record["completed_at"] is not None) == (answers is RIGHT)
    assert await db.fetchval("SELECT count(*) FROM quiz_answers") == 3


async def test_a_retake_never_lowers_the_score_nor_moves_the_completion(rider, db):
    course_id = await course_for(db)
    await rider.submit(f"/training/courses/{course_id}/quiz", form(RIGHT))
    first = await _record(db, course_id)
    retake = await rider.submit(f"/training/courses/{course_id}/quiz", form(ONE_RIGHT))
    page = await retake.text()
    assert "Your score: 33.3%" in page and "Best score: 100%" in page
    assert first["proof_code"] in page  # still completed, with the same proof
    record = await _record(db, course_id)
    assert record["score"] == 100 and record["attempts"] == 2
    assert record["completed_at"] == first["completed_at"]
    assert record["proof_code"] == first["proof_code"]


async def test_double_submit_counts_two_attempts_and_one_record(rider, db):
    course_id = await course_for(db)
    token = await rider.csrf(f"/training/courses/{course_id}/quiz")
    for _ in range(2):
        response = await rider.post(
            f"/training/courses/{course_id}/quiz", data=[*form(RIGHT), ("csrf_token", token)]
        )
        assert response.status == 200
    (completion,) = await _completions(rider)
    assert completion["attempts"] == 2


async def test_two_tabs_passing_at_once_give_one_record_and_one_proof_code(rider, db):
    course_id = await course_for(db)
    token = await rider.csrf(f"/training/courses/{course_id}/quiz")
    data = [*form(RIGHT), ("csrf_token", token)]
    responses = await asyncio.gather(
        *[rider.post(f"/training/courses/{course_id}/quiz", data=data) for _ in range(4)]
    )
    assert [r.status for r in responses] == [200] * 4
    code = (await _record(db, course_id))["proof_code"]
    for response in responses:
        assert code in await response.text()  # every tab shows the one proof code
    (completion,) = await _completions(rider)
    assert completion["attempts"] == 4


async def _draw_a_taken_proof_code_first(db, taken: str, fresh: str) -> None:
    """training_proof_code() answers `taken` at its first call, `fresh` after (a sequence:
    a rolled-back transaction does not take its call back)."""
    await db.execute("CREATE SEQUENCE proof_draws")
    await db.execute(
        "CREATE OR REPLACE FUNCTION training_proof_code() RETURNS text LANGUAGE sql AS"
        f" $$SELECT CASE WHEN nextval('proof_draws') = 1 THEN '{taken}' ELSE '{fresh}' END$$"
    )


async def _course_beside_a_taken_proof_code(db, **course) -> uuid.UUID:
    """A course of R-1's, beside another that R-1 passed with proof code TAKENAAA."""
    course_id, other = await course_for(db, **course), await add_course(db, "Road safety")
    await db.execute(
        "INSERT INTO course_results (rider_id, course_id, language, started_at, completed_at,"
        " score, attempts, proof_code) VALUES ('R-1', $1, 'en', now(), now(), 100, 1, 'TAKENAAA')",
        other,
    )
    return course_id


async def test_a_pass_that_draws_a_taken_proof_code_draws_again_and_counts_once(rider, db):
    course_id = await _course_beside_a_taken_proof_code(db)
    await _draw_a_taken_proof_code_first(db, "TAKENAAA", "FRESHBBB")
    passed = await rider.submit(f"/training/courses/{course_id}/quiz", form(RIGHT))
    assert passed.status == 200
    assert "FRESHBBB" in await passed.text()
    record = await _record(db, course_id)
    assert record["proof_code"] == "FRESHBBB" and record["attempts"] == 1
    assert await db.fetchval("SELECT count(*) FROM quiz_attempts") == 1
    completions = await _completions(rider)
    assert [c["proofCode"] for c in completions] == ["TAKENAAA", "FRESHBBB"]


async def test_a_pass_that_draws_only_taken_proof_codes_gives_up_after_five_and_writes_nothing(
    rider, db
):
    course_id = await _course_beside_a_taken_proof_code(db)
    await _draw_a_taken_proof_code_first(db, "TAKENAAA", "TAKENAAA")
    form_page = await rider.get(f"/training/courses/{course_id}/quiz")  # starts the record
    assert form_page.status == 200
    passed = await rider.post(
        f"/training/courses/{course_id}/quiz",
        data=[*form(RIGHT), ("csrf_token", csrf_of(await form_page.text()))],
    )
    assert passed.status == 500
    assert await db.fetchval("SELECT last_value FROM proof_draws") == 5
    record = await _record(db, course_id)
    assert record["attempts"] == 0 and record["completed_at"] is None
    assert await db.fetchval("SELECT count(*) FROM quiz_attempts") == 0


async def test_a_completion_that_draws_a_taken_proof_code_draws_again(rider, db):
    course_id = await _course_beside_a_taken_proof_code(db, lessons=1, quiz=[])
    await _draw_a_taken_proof_code_first(db, "TAKENAAA", "FRESHBBB")
    await rider.get(f"/training/courses/{course_id}/lessons/1")
    done = await rider.submit(
        f"/training/courses/{course_id}/complete",
        {},
        form_page=f"/training/courses/{course_id}/lessons/1",
    )
    assert done.status == 303
    assert done.headers["Location"] == "/training/proofs/FRESHBBB"


async def test_a_course_without_quiz_is_completed_after_its_last_lesson(rider, db):
    course_id = await course_for(db, lessons=2, quiz=[])
    assert (await rider.get(f"/training/courses/{course_id}/quiz")).status == 404
    early = await rider.submit(
        f"/training/courses/{course_id}/complete",
        {},
        form_page=f"/training/courses/{course_id}/lessons/1",
    )
    assert early.status == 400
    assert "Open every lesson first" in await early.text()
    last = await rider.get(f"/training/courses/{course_id}/lessons/2")
    assert f'action="/training/courses/{course_id}/complete"' in await last.text()
    done = await rider.submit(
        f"/training/courses/{course_id}/complete",
        {},
        form_page=f"/training/courses/{course_id}/lessons/2",
    )
    assert done.status == 303
    record = await _record(db, course_id)
    assert done.headers["Location"] == f"/training/proofs/{record['proof_code']}"
    (completion,) = await _completions(rider)
    assert completion["score"] is None and completion["attempts"] == 0
    # Completing again keeps the first record.
    again = await rider.submit(f"/training/courses/{course_id}/complete", {}, form_page="/training")
    assert again.headers["Location"] == done.headers["Location"]
    assert (await _record(db, course_id))["completed_at"] == record["completed_at"]


async def test_a_course_with_quiz_cannot_be_completed_without_it(rider, db):
    course_id = await course_for(db)
    await rider.get(f"/training/courses/{course_id}/lessons/2")
    response = await rider.submit(
        f"/training/courses/{course_id}/complete", {}, form_page="/training"
    )
    assert response.status == 404


async def test_a_path_completes_only_when_every_course_is_passed(rider, db):
    first = await add_course(db, "First")
    second = await add_course(db, "Second", quiz=[])
    await assign(db, "R-1", await add_path(db, "Two courses", [first, second]))
    await rider.submit(f"/training/courses/{first}/quiz", form(RIGHT))
    assert await db.fetchval("SELECT completed_at FROM assignments") is None
    page = await (await rider.get("/training")).text()
    assert "1 of 2 courses passed" in page
    await rider.get(f"/training/courses/{second}/lessons/2")
    await rider.submit(f"/training/courses/{second}/complete", {}, form_page="/training")
    assert await db.fetchval("SELECT completed_at FROM assignments") is not None
    page = await (await rider.get("/training")).text()
    assert "You have no open training" in page and "Finished training" in page


async def test_proof_page_is_the_riders_own(rider, db, client):
    course_id = await course_for(db)
    await rider.submit(f"/training/courses/{course_id}/quiz", form(RIGHT))
    code = (await _record(db, course_id))["proof_code"]
    response = await rider.get(f"/training/proofs/{code}")
    assert response.status == 200
    page = await response.text()
    assert code in page and "Food safety" in page and "Sam Rider" in page
    assert f"/verify/{code}" in page
    assert (await rider.get("/training/proofs/ABCDEFGH")).status == 404
    # Another rider cannot open it.
    await add_rider(client, "R-2")
    await signed_in(client, "R-2")
    assert (await client.get(f"/training/proofs/{code}")).status == 404


def _attempt_id(page: str) -> str:
    return re.search(r'name="attempt_id" value="([0-9a-f-]{36})"', page).group(1)


async def test_repeats_of_an_attempt_id_in_parallel_count_one_attempt_and_answer_the_first(
    rider, db
):
    course_id = await course_for(db)
    page = await (await rider.get(f"/training/courses/{course_id}/quiz")).text()
    data = [*form(ONE_RIGHT), ("attempt_id", _attempt_id(page)), ("csrf_token", csrf_of(page))]
    await db.execute("UPDATE course_results SET last_viewed_at = now() - interval '2 minutes'")
    responses = await asyncio.gather(
        *[rider.post(f"/training/courses/{course_id}/quiz", data=data) for _ in range(4)]
    )
    assert [r.status for r in responses] == [200] * 4
    for response in responses:
        text = await response.text()
        assert "Your score: 33.3%" in text and "Attempts: 1" in text
    record = await _record(db, course_id)
    assert record["attempts"] == 1 and record["time_spent_seconds"] in (120, 121)
    # A repeat sent later, after a pass with another attempt_id, still answers its own
    # first result (failed) and changes nothing.
    page = await (await rider.get(f"/training/courses/{course_id}/quiz")).text()
    passed = [*form(RIGHT), ("attempt_id", _attempt_id(page)), ("csrf_token", csrf_of(page))]
    assert (await rider.post(f"/training/courses/{course_id}/quiz", data=passed)).status == 200
    before = await _record(db, course_id)
    await db.execute("UPDATE course_results SET last_viewed_at = now() - interval '2 minutes'")
    late = await rider.post(f"/training/courses/{course_id}/quiz", data=data)
    assert "Your score: 33.3%" in await late.text()
    after = await _record(db, course_id)  # not even the view's time
    assert after["time_spent_seconds"] == before["time_spent_seconds"]
    assert after["last_viewed_at"] < before["last_viewed_at"]
    (completion,) = await _completions(rider)
    assert completion["attempts"] == 2 and completion["score"] == 100


async def test_each_rendered_quiz_form_has_its_own_attempt_id_and_a_bad_one_is_refused(rider, db):
    course_id = await course_for(db)
    pages = [await (await rider.get(f"/training/courses/{course_id}/quiz")).text() for _ in "ab"]
    assert _attempt_id(pages[0]) != _attempt_id(pages[1])
    bad = [*form(RIGHT), ("attempt_id", "not-a-uuid"), ("csrf_token", csrf_of(pages[0]))]
    response = await rider.post(f"/training/courses/{course_id}/quiz", data=bad)
    assert response.status == 400
    assert (await _record(db, course_id))["attempts"] == 0


def _continue_link(page: str) -> str | None:
    found = re.search(r'<a class="button continue" href="([^"]+)"', page)
    return found and found.group(1)


async def test_continue_leads_to_the_next_unfinished_lesson_then_the_quiz_then_the_next_course(
    rider, db
):
    first, second = await add_course(db, "First"), await add_course(db, "Second", quiz=[])
    await assign(db, "R-1", await add_path(db, "Path", [first, second]), due_in_days=0.5)
    page = await (await rider.get("/training")).text()
    assert "Due within a day" in page
    assert _continue_link(page) == f"/training/courses/{first}/lessons/1"
    await rider.get(f"/training/courses/{first}/lessons/1")
    page = await (await rider.get("/training")).text()
    assert _continue_link(page) == f"/training/courses/{first}/lessons/2"
    await rider.get(f"/training/courses/{first}/lessons/2")
    page = await (await rider.get("/training")).text()
    assert _continue_link(page) == f"/training/courses/{first}/quiz"
    await rider.submit(f"/training/courses/{first}/quiz", form(RIGHT))
    page = await (await rider.get("/training")).text()
    assert _continue_link(page) == f"/training/courses/{second}/lessons/1"
    assert '<progress id="progress-1" value="1" max="2">' in page
    for n in (1, 2):
        await rider.get(f"/training/courses/{second}/lessons/{n}")
    page = await (await rider.get("/training")).text()
    assert _continue_link(page) == f"/training/courses/{second}"  # its "complete" button


async def test_a_failed_quiz_shows_which_questions_were_wrong_but_not_the_right_options(rider, db):
    course_id = await course_for(db)
    response = await rider.submit(f"/training/courses/{course_id}/quiz", form(ONE_RIGHT))
    page = await response.text()
    wrong = re.search(r'<ul class="wrong-questions">(.*?)</ul>', page, re.S).group(1)
    assert "Question 2 of 3" in wrong and "Which are safe?" in wrong
    assert "Question 3 of 3" in wrong and "When do you wash hands?" in wrong
    assert "Question 1 of 3" not in wrong
    assert "Helmet" not in page and "Before pick-up" not in page
    passed = await rider.submit(f"/training/courses/{course_id}/quiz", form(RIGHT))
    assert "wrong-questions" not in await passed.text()


async def test_the_pin_field_opens_the_number_pad(client):
    page = await (await client.get("/")).text()
    pin = re.search(r'<input id="pin"[^>]*>', page).group(0)
    assert 'inputmode="numeric"' in pin and 'autocomplete="current-password"' in pin


async def test_fetches_that_keep_the_offline_copy_record_no_view(rider, db):
    course_id = await course_for(db)
    copy = {"X-Offline-Copy": "1"}
    base = f"/training/courses/{course_id}"
    for path in (base, f"{base}/lessons/1", f"{base}/lessons/2", f"{base}/quiz"):
        response = await rider.get(path, headers=copy)
        assert response.status == 200, path
        assert response.headers["Cache-Control"] == "no-store"
    assert await _record(db, course_id) is None  # no startedAt, language or time
    await rider.get(f"{base}/lessons/1")
    await db.execute("UPDATE course_results SET last_viewed_at = now() - interval '2 minutes'")
    await rider.get(f"{base}/lessons/2", headers=copy)
    record = await _record(db, course_id)
    assert record["time_spent_seconds"] == 0 and record["furthest_lesson"] == 1
    other = await add_course(db, "Not assigned")
    assert (await rider.get(f"/training/courses/{other}", headers=copy)).status == 404
