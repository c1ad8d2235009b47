"""Who may open a course is one rule, rider_open_course, which the statements that read or
write a rider's course record call, and which the planner inlines into them."""

import uuid

import pytest

from app.rider.store import SQL as RIDER_SQL
from app.training.store import SQL as TRAINING_SQL
from tests.rider.rows import add_course, add_path, assign, course_for
from tests.training.helpers import add_rider


async def _opens(db, rider_id, course_id, version=None, language="en", translation=None):
    return await db.fetchval(
        "SELECT count(*) FROM rider_open_course($1, $2, $3, $4, $5)",
        rider_id,
        course_id,
        version,
        language,
        translation,
    )


async def test_a_rider_opens_a_published_course_on_the_path_of_an_assignment(db):
    await add_rider(db, "R-1")
    await add_rider(db, "R-2")
    course = await course_for(db, "R-1")
    assert await _opens(db, "R-1", course) == 1
    assert await _opens(db, "R-2", course) == 0  # not on a path of theirs
    assert await _opens(db, "R-1", uuid.uuid4()) == 0
    unpublished = await add_course(db, published=False)
    await assign(db, "R-1", await add_path(db, "Later", [unpublished]))
    assert await _opens(db, "R-1", unpublished) == 0


async def test_a_rider_opens_the_course_shown_only_while_it_is_current(db):
    await add_rider(db, "R-1")
    course = await course_for(db, "R-1")
    version = await db.fetchval("SELECT xmin FROM courses WHERE course_id = $1", course)
    assert await _opens(db, "R-1", course, version) == 1
    await db.execute("UPDATE courses SET title = 'Changed' WHERE course_id = $1", course)
    assert await _opens(db, "R-1", course, version) == 0


def _plan(rows) -> str:
    return "\n".join(row[0] for row in rows)


@pytest.mark.parametrize(
    ("statement", "args"),
    [
        (RIDER_SQL.view_course, ["R-1", uuid.uuid4(), "en", 0, None, None, None]),
        (RIDER_SQL.peek_course, ["R-1", uuid.uuid4(), "en", None, None, None]),
        (
            TRAINING_SQL.assign_path,
            [uuid.uuid4(), None, None, None, None, "api", None, False, None],
        ),
        (TRAINING_SQL.run_rules, [["R-1"], None]),
        (TRAINING_SQL.assign_flag_paths, ["R-1", "equipment", uuid.uuid4()]),
    ],
)
async def test_the_rules_are_inlined_into_the_statements_that_call_them(db, statement, args):
    # An inlined function leaves no call in the plan: its SELECT is planned with the statement.
    plan = _plan(await db.fetch("EXPLAIN (VERBOSE, COSTS OFF) " + statement, *args))
    assert "rider_open_course" not in plan
    assert "training_path_passers" not in plan


async def test_a_quiz_answer_calls_no_rule_function_on_its_way(db):
    # The quiz answer's count and pass are PL/pgSQL (one round trip); each statement in them
    # is planned with rider_open_course and training_path_passers inlined, so the server's
    # function statistics count the two PL/pgSQL functions and never the rules.
    await add_rider(db, "R-1")
    course = await course_for(db, "R-1")
    answers = [{"chosen": [0], "correct": True}]
    async with db.transaction():
        await db.execute("SET LOCAL track_functions = 'all'")
        row = await db.fetchrow(
            RIDER_SQL.answer_quiz,
            "R-1",
            course,
            "en",
            100.0,
            True,
            answers,
            None,
            None,
            None,
            None,
            False,
        )
        calls = dict(await db.fetch("SELECT funcname, calls FROM pg_stat_xact_user_functions"))
    assert row["proof_code"] is not None  # passed: the pass and its assignments ran
    assert await db.fetchval("SELECT count(*) FROM assignments WHERE completed_at IS NOT NULL")
    assert calls.get("rider_answer_quiz") == 1
    assert calls.get("rider_pass_course") == 1
    assert "rider_open_course" not in calls
    assert "training_path_passers" not in calls
