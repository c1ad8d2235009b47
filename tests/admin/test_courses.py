"""Courses in the panel: list, editor, translations, export and import."""

import html
import json
import re
import uuid

from aiohttp import FormData

from app.training import courses
from tests.admin.notices import said_once

DOCUMENT = {
    "title": "Road safety",
    "lessons": [
        {"title": "Helmets", "body": "Wear a **helmet**."},
        {"title": "Lights", "body": "Lights on at night."},
    ],
    "quiz": [
        {"question": "When do you wear a helmet?", "options": ["Always", "Never"], "correct": [0]},
        {"question": "Which are lights?", "options": ["Front", "Back", "Horn"], "correct": [0, 1]},
    ],
    "pass_mark": 80,
}
TRANSLATION = {
    "title": "السلامة",
    "lessons": [{"title": "خوذة", "body": "البس الخوذة"}, {"title": "أضواء", "body": "أضواء"}],
    "quiz": [
        {"question": "متى؟", "options": ["دائما", "أبدا"]},
        {"question": "أي؟", "options": ["أمام", "خلف", "بوق"]},
    ],
}


def course_form(document=DOCUMENT, published=False, **extra):
    """The editor's fields for a course document."""
    fields = [("title", document["title"]), ("pass_mark", str(document["pass_mark"]))]
    if published:
        fields.append(("published", "on"))
    for i, lesson in enumerate(document["lessons"]):
        fields += [(f"lesson_title_{i}", lesson["title"]), (f"lesson_body_{i}", lesson["body"])]
    for q, question in enumerate(document["quiz"]):
        fields.append((f"question_{q}", question["question"]))
        fields += [(f"option_{q}_{n}", text) for n, text in enumerate(question["options"])]
        fields += [(f"correct_{q}", str(n)) for n in question["correct"]]
    return fields + list(extra.items())


def translation_form(translation=TRANSLATION):
    fields = [("title", translation["title"])]
    for i, lesson in enumerate(translation["lessons"]):
        fields += [(f"lesson_title_{i}", lesson["title"]), (f"lesson_body_{i}", lesson["body"])]
    for q, question in enumerate(translation["quiz"]):
        fields.append((f"question_{q}", question["question"]))
        fields += [(f"option_{q}_{n}", text) for n, text in enumerate(question["options"])]
    return fields


async def _create(admin_client, **kwargs):
    response = await admin_client.submit("/admin/courses/new", course_form(**kwargs))
    assert response.status == 303, await response.text()
    location = response.headers["Location"]
    found = re.fullmatch(r"/admin/courses/([0-9a-f-]{36})\?notice=[0-9a-f-]{36}", location)
    assert found, location
    title = html.escape(kwargs.get("document", DOCUMENT)["title"])
    assert await said_once(admin_client, response) == f"Course “{title}” created."
    return uuid.UUID(found.group(1))


async def _stored(db, course_id):
    async with db.transaction():
        return await courses.read_course(db, course_id)


async def test_creating_a_course_saves_its_document_unpublished(admin_client, db):
    course_id = await _create(admin_client)
    course = await _stored(db, course_id)
    assert course.document() == DOCUMENT
    assert course.published is False and course.has_quiz is True
    page = await admin_client.text(f"/admin/courses/{course_id}")
    assert 'value="Road safety"' in page
    assert (
        'name="option_1_2" type="text" maxlength="500" placeholder="Option 3" value="Horn"' in page
    )
    assert 'name="correct_1" value="1" checked' in page
    # The preview renders the lesson's Markdown.
    assert "Wear a <strong>helmet</strong>." in page
    listing = await (await admin_client.get("/admin/courses")).text()
    assert f'href="/admin/courses/{course_id}">Road safety</a>' in listing


async def test_editing_publishes_and_replaces_the_document(admin_client, db):
    course_id = await _create(admin_client)
    changed = dict(
        DOCUMENT, title="Road safety 2", quiz=[], pass_mark=50, lessons=DOCUMENT["lessons"][1:]
    )
    response = await admin_client.submit(
        f"/admin/courses/{course_id}", course_form(changed, published=True)
    )
    assert await said_once(admin_client, response) == "Course “Road safety 2” saved."
    course = await _stored(db, course_id)
    assert course.document() == changed
    assert course.published is True and course.has_quiz is False
    listing = await (await admin_client.get("/admin/courses")).text()
    assert re.search(r"Road safety 2</a></td>\s*<td>Yes</td>\s*<td>No</td>", listing)


async def test_blank_rows_are_dropped_and_options_close_up(admin_client, db):
    form = [
        ("title", "Gaps"),
        ("pass_mark", "70"),
        ("lesson_title_0", ""),
        ("lesson_body_0", ""),
        ("lesson_title_1", "Only lesson"),
        ("lesson_body_1", "Text"),
        ("question_0", "Pick C"),
        ("option_0_0", "A"),
        ("option_0_1", ""),
        ("option_0_2", "C"),
        ("correct_0", "2"),
        ("question_1", ""),
        ("option_1_0", ""),
    ]
    response = await admin_client.submit("/admin/courses/new", form)
    assert response.status == 303
    course_id = uuid.UUID(response.headers["Location"].split("?")[0].rsplit("/", 1)[1])
    course = await _stored(db, course_id)
    assert course.lessons == [{"title": "Only lesson", "body": "Text"}]
    assert course.quiz == [{"question": "Pick C", "options": ["A", "C"], "correct": [1]}]


async def test_invalid_quizzes_are_field_errors_and_keep_the_values(admin_client, db):
    document = dict(
        DOCUMENT,
        title="Kept <b>title</b>",
        quiz=[
            {"question": "Only one option", "options": ["Alone"], "correct": [0]},
            {"question": "Out of range", "options": ["A", "B"], "correct": [5]},
            {"question": "Nothing ticked", "options": ["A", "B"], "correct": []},
        ],
    )
    response = await admin_client.submit("/admin/courses/new", course_form(document))
    assert response.status == 400
    page = await response.text()
    assert '<p class="error" id="question_0-error">Give 2 to 6 options.</p>' in page
    assert '<p class="error" id="question_1-error">Ticked options need their text.</p>' in page
    assert '<p class="error" id="question_2-error">Tick at least one correct option.</p>' in page
    assert 'value="Kept &lt;b&gt;title&lt;/b&gt;"' in page
    assert 'value="Only one option"' in page and 'value="Alone"' in page
    assert ">Wear a **helmet**.</textarea>" in page
    assert await db.fetchval("SELECT count(*) FROM courses") == 0


async def test_other_document_rules_are_field_errors(admin_client, db):
    cases = [
        (dict(DOCUMENT, title=" "), "title", "Enter a title of at most 200 characters."),
        (dict(DOCUMENT, title="x" * 201), "title", "Enter a title of at most 200 characters."),
        (dict(DOCUMENT, lessons=[]), "lessons", "A course needs 1 to 30 lessons."),
        (
            dict(DOCUMENT, lessons=[{"title": "No body", "body": ""}]),
            "lesson_0",
            "The body cannot be empty (at most 20000 characters).",
        ),
        (dict(DOCUMENT, pass_mark="101"), "pass_mark", "Enter a whole number from 0 to 100."),
        (dict(DOCUMENT, pass_mark="٥٠"), "pass_mark", "Enter a whole number from 0 to 100."),
    ]
    for document, field, message in cases:
        response = await admin_client.submit("/admin/courses/new", course_form(document))
        assert response.status == 400, document
        page = await response.text()
        assert f'<p class="error" id="{field}-error">{message}</p>' in page, (field, message)
    assert await db.fetchval("SELECT count(*) FROM courses") == 0


async def test_row_buttons_change_the_form_without_saving(admin_client, db):
    course_id = await _create(admin_client)
    response = await admin_client.submit(
        f"/admin/courses/{course_id}",
        course_form(dict(DOCUMENT, title="Not yet"), action="up_lesson_1"),
    )
    assert response.status == 200
    page = await response.text()
    assert "Not saved yet" in page
    assert page.index('value="Lights"') < page.index('value="Helmets"')
    page = await (
        await admin_client.submit(
            f"/admin/courses/{course_id}", course_form(action="remove_question_0")
        )
    ).text()
    assert 'value="When do you wear a helmet?"' not in page
    assert 'id="question_0" name="question_0" type="text" maxlength="1000" value="Which' in page
    page = await (
        await admin_client.submit(f"/admin/courses/{course_id}", course_form(action="add_lesson"))
    ).text()
    assert 'name="lesson_title_3"' in page and 'name="lesson_title_4"' not in page
    assert (await _stored(db, course_id)).document() == DOCUMENT


async def test_unknown_courses_are_404_pages(admin_client):
    unknown = uuid.uuid4()
    for address in (
        f"/admin/courses/{unknown}",
        f"/admin/courses/{unknown}/export.json",
        f"/admin/courses/{unknown}/translations/ar",
        "/admin/courses/nothing",
        "/admin/courses/00000000-0000-0000-0000-00000000000g",
    ):
        response = await admin_client.get(address)
        assert response.status == 404, address
        assert response.content_type == "text/html"
    for address in (
        f"/admin/courses/{unknown}",
        f"/admin/courses/{unknown}/translations/ar",
        f"/admin/courses/{unknown}/translations/ar/review",
    ):
        response = await admin_client.submit(address, course_form(), form_page="/admin/courses/new")
        assert response.status == 404, address


async def test_a_post_without_csrf_token_is_refused(admin_client, db):
    response = await admin_client.post(
        "/admin/courses/new", data=course_form(), allow_redirects=False
    )
    assert response.status == 403
    form = FormData()
    form.add_field("file", json.dumps(DOCUMENT), filename="course.json")
    response = await admin_client.post("/admin/courses/import", data=form, allow_redirects=False)
    assert response.status == 403
    assert await db.fetchval("SELECT count(*) FROM courses") == 0


async def test_script_titles_are_shown_as_text(admin_client):
    course_id = await _create(
        admin_client,
        document=dict(
            DOCUMENT,
            title="<script>alert(1)</script>",
            lessons=[{"title": "<script>x</script>", "body": "<script>alert(2)</script>"}],
        ),
    )
    for address in ("/admin/courses", f"/admin/courses/{course_id}"):
        page = await (await admin_client.get(address)).text()
        assert "<script>" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


async def test_export_is_the_course_document_with_its_id(admin_client):
    course_id = await _create(admin_client)
    response = await admin_client.get(f"/admin/courses/{course_id}/export.json")
    assert response.status == 200
    assert response.content_type == "application/json"
    assert "attachment" in response.headers["Content-Disposition"]
    assert json.loads(await response.text()) == {"id": str(course_id), **DOCUMENT}


async def test_a_course_without_lessons_has_no_export(admin_client, db):
    course_id = uuid.uuid4()
    await db.execute(
        "INSERT INTO courses (course_id, title, has_quiz, pass_mark)"
        " VALUES ($1, 'Older course', false, NULL)",
        course_id,
    )
    page = await (await admin_client.get(f"/admin/courses/{course_id}")).text()
    assert "export.json" not in page and "has no lessons yet" in page
    response = await admin_client.get(f"/admin/courses/{course_id}/export.json")
    assert response.status == 404


async def _import(admin_client, content: bytes | str, filename="course.json"):
    token = await admin_client.csrf("/admin/courses")
    form = FormData()
    form.add_field("csrf_token", token)
    form.add_field("file", content, filename=filename, content_type="application/json")
    return await admin_client.post("/admin/courses/import", data=form, allow_redirects=False)


async def test_import_makes_a_new_unpublished_course_from_an_export(admin_client, db):
    course_id = await _create(admin_client, published=True)
    exported = await (await admin_client.get(f"/admin/courses/{course_id}/export.json")).read()
    response = await _import(admin_client, b"\xef\xbb\xbf" + exported)  # a BOM is fine
    assert response.status == 303
    new_id = uuid.UUID(response.headers["Location"].split("?")[0].rsplit("/", 1)[1])
    assert new_id != course_id
    said = await said_once(admin_client, response)
    assert said == "Course “Road safety” imported, unpublished: check it, then publish it."
    course = await _stored(db, new_id)
    assert course.document() == DOCUMENT and course.published is False


async def test_bad_imports_are_form_errors(admin_client, db):
    cases = [
        (b"{not json", "The file is not valid JSON"),
        (b"\xff\xfe", "The file is not UTF-8 text."),
        (b"[1, 2]", "The file is not a course document: Invalid input type."),
        (
            json.dumps(
                dict(DOCUMENT, quiz=[{"question": "Q", "options": ["A", "B"], "correct": [2]}])
            ),
            "quiz[0].correct: option indexes go from 0 to 1",
        ),
        (
            json.dumps({k: v for k, v in DOCUMENT.items() if k != "lessons"}),
            "lessons: Missing data for required field.",
        ),
        (b"", "Choose a course file (.json) to import."),
    ]
    for content, message in cases:
        response = await _import(admin_client, content)
        assert response.status == 400, content
        page = await response.text()
        assert message in page, (content, page[page.find("alert") :][:300])
    assert await db.fetchval("SELECT count(*) FROM courses") == 0


async def test_translations_edit_review_and_states(admin_client, db):
    course_id = await _create(admin_client)
    page = await (await admin_client.get(f"/admin/courses/{course_id}")).text()
    assert page.count(">none</td>") == 3
    # A machine translation (as the AI job stores it) is listed with its state.
    async with db.transaction():
        await courses.save_translation(db, course_id, "ur", dict(TRANSLATION))
    page = await (await admin_client.get(f"/admin/courses/{course_id}")).text()
    assert 'data-state="machine"' in page
    response = await admin_client.submit(
        f"/admin/courses/{course_id}/translations/ur/review",
        [],
        form_page=f"/admin/courses/{course_id}",
    )
    assert await said_once(admin_client, response) == "The Urdu translation is marked reviewed."
    assert (
        await db.fetchval("SELECT state FROM course_translations WHERE language = 'ur'")
        == "reviewed"
    )
    # Writing one by hand makes it reviewed.
    form_page = await (await admin_client.get(f"/admin/courses/{course_id}/translations/ar")).text()
    assert "When do you wear a helmet?" in form_page
    response = await admin_client.submit(
        f"/admin/courses/{course_id}/translations/ar", translation_form()
    )
    said = await said_once(admin_client, response)
    assert said == "The Arabic translation is saved, as reviewed."
    row = await db.fetchrow("SELECT state, document FROM course_translations WHERE language = 'ar'")
    assert row["state"] == "reviewed"
    assert row["document"]["title"] == TRANSLATION["title"]
    assert row["document"]["quiz"][1]["options"] == ["أمام", "خلف", "بوق"]
    listing = await (await admin_client.get("/admin/courses")).text()
    assert "ar: reviewed" in listing and "ur: reviewed" in listing
    edit = await (await admin_client.get(f"/admin/courses/{course_id}/translations/ar")).text()
    assert f'value="{TRANSLATION["title"]}"' in edit


async def test_translation_errors_keep_the_values(admin_client, db):
    course_id = await _create(admin_client)
    form = [(k, "" if k == "option_1_2" else v) for k, v in translation_form()]
    response = await admin_client.submit(f"/admin/courses/{course_id}/translations/ku", form)
    assert response.status == 400
    page = await response.text()
    assert '<p class="error" id="question_1-error">' in page
    assert f'value="{TRANSLATION["title"]}"' in page
    assert await db.fetchval("SELECT count(*) FROM course_translations") == 0


async def test_reviewing_a_missing_translation_is_a_404(admin_client):
    course_id = await _create(admin_client)
    response = await admin_client.submit(
        f"/admin/courses/{course_id}/translations/ar/review",
        [],
        form_page=f"/admin/courses/{course_id}",
    )
    assert response.status == 404
    response = await admin_client.get(f"/admin/courses/{course_id}/translations/fr")
    assert response.status == 404


async def test_an_import_too_large_or_without_a_file_is_refused(admin_client, db):
    response = await _import(admin_client, b" " * (3 * 1024 * 1024 + 1))
    assert response.status == 400
    assert "The file is larger than 3 MB" in await response.text()
    response = await admin_client.submit("/admin/courses/import", {}, form_page="/admin/courses")
    assert response.status == 400
    assert "Choose a course file (.json) to import." in await response.text()
    assert await db.fetchval("SELECT count(*) FROM courses") == 0
