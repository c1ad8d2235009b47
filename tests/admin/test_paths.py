"""Learning paths in the panel: list, create, edit, and the rule run on saving."""

import re
import uuid

from tests.admin.notices import said_once

COURSE_A = "00000000-0000-4000-8000-00000000000a"
COURSE_B = "00000000-0000-4000-8000-00000000000b"


async def _catalogue(db):
    await db.execute(
        "INSERT INTO courses (course_id, title, has_quiz, pass_mark) VALUES"
        " ($1, 'Road safety', true, 70), ($2, 'Food handling', false, NULL)",
        uuid.UUID(COURSE_A),
        uuid.UUID(COURSE_B),
    )
    await db.execute(
        "INSERT INTO riders (rider_id, name, market, vehicle_type, status) VALUES"
        " ('R1', 'Qatar bike', 'QA', 'motorbike', 'active'),"
        " ('R2', 'Qatar car', 'QA', 'car', 'active'),"
        " ('R3', 'UAE bike', 'AE', 'motorbike', 'active'),"
        " ('R4', 'Qatar inactive', 'QA', 'motorbike', 'inactive'),"
        " ('R5', 'Qatar new', 'QA', 'motorbike', 'onboarding')"
    )


def _form(**changes):
    form = {
        "name": "Qatar basics",
        "active": "on",
        "days_to_complete": "14",
        "rule": "all_matching",
        "markets": ["QA"],
        "courses": [COURSE_A, COURSE_B],
    }
    form.update(changes)
    return [
        (k, v)
        for k, value in form.items()
        if value is not None
        for v in (value if isinstance(value, list) else [value])
    ]


async def _assigned(db, path_id):
    rows = await db.fetch(
        "SELECT rider_id, why, completed_at IS NOT NULL AS completed"
        " FROM assignments WHERE path_id = $1 ORDER BY rider_id",
        path_id,
    )
    return [(r["rider_id"], r["why"], r["completed"]) for r in rows]


async def _create(admin_client, **changes):
    response = await admin_client.submit("/admin/paths/new", _form(**changes))
    assert response.status == 303, await response.text()
    location = response.headers["Location"]
    path_id = re.fullmatch(r"/admin/paths/([0-9a-f-]{36})\?notice=[0-9a-f-]{36}", location)
    assert path_id, location
    said = await said_once(admin_client, response)
    assigned = re.fullmatch(r"Path “[^”]+” saved; (\d+) riders? assigned\.", said)
    assert assigned, said
    return uuid.UUID(path_id.group(1)), int(assigned.group(1))


async def test_creating_an_active_all_matching_path_assigns_matching_riders(admin_client, db):
    await _catalogue(db)
    path_id, assigned = await _create(admin_client)
    assert assigned == 3
    row = await db.fetchrow("SELECT * FROM paths WHERE path_id = $1", path_id)
    assert (row["name"], row["active"], row["days_to_complete"], row["rule"], row["markets"]) == (
        "Qatar basics",
        True,
        14,
        "all_matching",
        ["QA"],
    )
    courses = await db.fetch(
        "SELECT course_id FROM path_courses WHERE path_id = $1 ORDER BY position", path_id
    )
    assert [str(r["course_id"]) for r in courses] == [COURSE_A, COURSE_B]
    # Every matching rider but the inactive one; the onboarding rider matches all_matching too.
    assert await _assigned(db, path_id) == [
        ("R1", "rule", False),
        ("R2", "rule", False),
        ("R5", "rule", False),
    ]
    page = await admin_client.text(f"/admin/paths/{path_id}")
    assert re.search(r"<dt>Riders assigned</dt><dd data-riders>3</dd>", page)
    assert 'value="Qatar basics"' in page
    listing = await (await admin_client.get("/admin/paths")).text()
    assert f'href="/admin/paths/{path_id}">Qatar basics</a>' in listing
    assert "<td data-open>3</td>\n<td data-completed>0</td>" in listing


async def test_a_rider_who_passed_every_course_gets_a_completed_assignment(admin_client, db):
    await _catalogue(db)
    await db.execute(
        "INSERT INTO course_results (rider_id, course_id, language, started_at, completed_at,"
        " attempts, proof_code) VALUES"
        " ('R1', $1, 'en', now(), now(), 1, 'AAAAAAAA'), ('R1', $2, 'en', now(), now(), 1,"
        " 'BBBBBBBB'), ('R2', $1, 'en', now(), now(), 1, 'CCCCCCCC')",
        uuid.UUID(COURSE_A),
        uuid.UUID(COURSE_B),
    )
    path_id, _ = await _create(admin_client)
    assert await _assigned(db, path_id) == [
        ("R1", "rule", True),
        ("R2", "rule", False),
        ("R5", "rule", False),
    ]
    listing = await (await admin_client.get("/admin/paths")).text()
    assert "<td data-open>2</td>\n<td data-completed>1</td>" in listing


async def test_an_inactive_or_manual_path_assigns_nobody(admin_client, db):
    await _catalogue(db)
    path_id, assigned = await _create(admin_client, active=None)
    assert assigned == 0 and await _assigned(db, path_id) == []
    assert (await db.fetchval("SELECT active FROM paths WHERE path_id = $1", path_id)) is False
    path_id, assigned = await _create(admin_client, rule="manual")
    assert assigned == 0 and await _assigned(db, path_id) == []


async def test_saving_runs_only_the_saved_paths_rule(admin_client, db):
    await _catalogue(db)
    other = uuid.uuid4()
    # An active automatic path that was never run (as if loaded without its rules).
    await db.execute(
        "INSERT INTO paths (path_id, name, active, days_to_complete, rule)"
        " VALUES ($1, 'Other', true, 7, 'all_matching')",
        other,
    )
    await _create(admin_client)
    assert await _assigned(db, other) == []


async def test_editing_a_path_activates_it_and_assigns_the_new_matches(admin_client, db):
    await _catalogue(db)
    path_id, _ = await _create(admin_client, active=None, rule="onboarding", markets=[])
    response = await admin_client.submit(
        f"/admin/paths/{path_id}", _form(rule="onboarding", markets=[], courses=[COURSE_B])
    )
    said = await said_once(admin_client, response)
    assert said == "Path “Qatar basics” saved; 1 rider assigned."
    assert await _assigned(db, path_id) == [("R5", "onboarding", False)]
    courses = await db.fetch("SELECT course_id FROM path_courses WHERE path_id = $1", path_id)
    assert [str(r["course_id"]) for r in courses] == [COURSE_B]
    # Saving again assigns nobody twice.
    response = await admin_client.submit(
        f"/admin/paths/{path_id}", _form(rule="onboarding", markets=[], courses=[COURSE_B])
    )
    said = await said_once(admin_client, response)
    assert said == "Path “Qatar basics” saved; 0 riders assigned."


async def test_the_form_lists_courses_flag_types_markets_and_vehicle_types(admin_client, db):
    await _catalogue(db)
    page = await (await admin_client.get("/admin/paths/new")).text()
    for value in ("late_delivery", "QA", "motorbike", COURSE_A, COURSE_B, "all_matching"):
        assert f'value="{value}"' in page
    assert page.count('name="courses"') == 3
    assert 'name="active" value="on" checked' in page


async def test_form_errors_keep_the_entered_values(admin_client, db):
    await _catalogue(db)
    response = await admin_client.submit(
        "/admin/paths/new",
        _form(
            name="Kept <b>name</b>",
            days_to_complete="٣",
            markets=["QA", "XX"],
            nationalities="Indian\nNepali",
            courses=[COURSE_B, "not-a-uuid"],
        ),
    )
    assert response.status == 400
    page = await response.text()
    assert 'value="Kept &lt;b&gt;name&lt;/b&gt;"' in page
    assert 'value="٣"' in page
    assert "Not a valid integer." in page
    assert "Must be one of" in page
    assert "Not a valid UUID." in page
    assert ">Indian\nNepali</textarea>" in page
    assert f'value="{COURSE_B}" selected' in page
    assert await db.fetchval("SELECT count(*) FROM paths") == 0


async def test_each_rule_of_the_record_is_a_field_error(admin_client, db):
    await _catalogue(db)
    cases = [
        ({"name": None}, "name", "This field is required."),
        ({"name": "x" * 201}, "name", "Length must be between 1 and 200."),
        ({"days_to_complete": "0"}, "days_to_complete", "from 1 to 730"),
        ({"days_to_complete": "731"}, "days_to_complete", "from 1 to 730"),
        ({"rule": "sometimes"}, "rule", "Must be one of"),
        ({"rule": "flag"}, "flag_types", "a flag path needs at least one flag type"),
        ({"flag_types": ["late_delivery", "bad_luck"]}, "flag_types", "Must be one of"),
        ({"vehicle_types": ["plane"]}, "vehicle_types", "Must be one of"),
        ({"courses": [COURSE_A, COURSE_A]}, "courses", "a course appears twice"),
        ({"courses": [str(uuid.uuid4())]}, "courses", "unknown course"),
    ]
    for changes, field, message in cases:
        response = await admin_client.submit("/admin/paths/new", _form(**changes))
        assert response.status == 400, changes
        page = await response.text()
        assert re.search(rf'<p class="error" id="{field}-error">[^<]*{re.escape(message)}', page), (
            changes,
            message,
        )
    assert await db.fetchval("SELECT count(*) FROM paths") == 0
    assert await db.fetchval("SELECT count(*) FROM assignments") == 0


async def test_a_flag_path_with_flag_types_is_saved_without_running_anything(admin_client, db):
    await _catalogue(db)
    path_id, assigned = await _create(
        admin_client, rule="flag", flag_types=["late_delivery", "equipment"]
    )
    assert assigned == 0
    row = await db.fetchrow("SELECT flag_types FROM paths WHERE path_id = $1", path_id)
    assert row["flag_types"] == ["late_delivery", "equipment"]


async def test_unknown_paths_are_a_404_page(admin_client):
    for address in (f"/admin/paths/{uuid.uuid4()}", "/admin/paths/not-a-uuid"):
        response = await admin_client.get(address)
        assert response.status == 404
        assert response.content_type == "text/html"
    response = await admin_client.submit(
        f"/admin/paths/{uuid.uuid4()}", _form(), form_page="/admin/paths/new"
    )
    assert response.status == 404


async def test_a_post_without_csrf_token_is_refused(admin_client, db):
    await _catalogue(db)
    response = await admin_client.post("/admin/paths/new", data=_form(), allow_redirects=False)
    assert response.status == 403
    assert await db.fetchval("SELECT count(*) FROM paths") == 0


async def test_path_names_are_escaped_in_the_list(admin_client, db):
    await _create(admin_client, name="<script>alert(1)</script>", courses=[])
    page = await (await admin_client.get("/admin/paths")).text()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


async def test_signed_out_visitors_are_sent_to_sign_in(page_client):
    response = await page_client.get("/admin/paths", allow_redirects=False)
    assert response.status == 303
    assert response.headers["Location"] == "/admin/sign-in"
