"""No input gives a 500 on any page (issue 23, item 5): each hostile input of the review gets a
400 page (or the form again with a message), never a traceback."""

from __future__ import annotations

import secrets

import pytest
import structlog

from tests.admin.test_courses import _import as import_course
from tests.rider.rows import add_rider, course_for, signed_in
from tests.web import PageClient


def _no_traceback(logs) -> None:
    assert not [line for line in logs if line["event"] == "unhandled error"]


async def _post_raw(client, path: str, form_page: str, body: bytes, content_type: str):
    token = await PageClient(client).csrf(form_page)
    data = b"csrf_token=" + token.encode() + b"&" + body
    return await client.post(path, data=data, headers={"Content-Type": content_type})


async def test_a_form_body_in_another_encoding_or_an_unknown_charset_is_a_400(client):
    await add_rider(client)
    with structlog.testing.capture_logs() as logs:
        for content_type, body in [
            ("application/x-www-form-urlencoded; charset=utf-8", b"rider_id=R-\xff\xfe&pin=1234"),
            ("application/x-www-form-urlencoded; charset=no-such-charset", b"rider_id=R-1&pin=1"),
        ]:
            response = await _post_raw(client, "/sign-in", "/", body, content_type)
            assert response.status == 400, (content_type, await response.text())
            assert response.content_type == "text/html"
    _no_traceback(logs)


async def test_a_multipart_body_without_a_boundary_is_refused(admin_client):
    with structlog.testing.capture_logs() as logs:
        response = await admin_client.post(
            "/admin/import", data=b"x", headers={"Content-Type": "multipart/form-data"}
        )
    assert response.status in (400, 403)
    _no_traceback(logs)


async def test_a_3_kb_rider_id_or_email_is_the_form_again(client, page_client, db):
    with structlog.testing.capture_logs() as logs:
        response = await PageClient(client).submit(
            "/sign-in", {"rider_id": secrets.token_hex(1500), "pin": "1234"}, form_page="/"
        )
        # No rider ID is longer than 64 characters: the one answer for a wrong rider ID.
        assert response.status == 401 and "Wrong rider ID or PIN" in await response.text()
        assert await db.fetchval("SELECT count(*) FROM sign_in_attempts") == 0
        response = await page_client.submit(
            "/admin/sign-in", {"email": "a" * 3000 + "@example.com", "password": "x" * 12}
        )
        assert response.status == 400
    _no_traceback(logs)


async def test_a_question_or_lesson_number_of_5000_digits_is_a_400(client, db, admin_client):
    await add_rider(client)
    course_id = await course_for(db)
    rider = await signed_in(client)
    with structlog.testing.capture_logs() as logs:
        response = await rider.submit(
            f"/training/courses/{course_id}/quiz",
            {"q" + "9" * 5000: "0"},
            form_page="/training",
        )
        assert response.status == 400
        editor = f"/admin/courses/{course_id}"
        response = await admin_client.submit(editor, {"up_lesson_" + "9" * 5000: "1"})
        assert response.status in (200, 400)
    _no_traceback(logs)


@pytest.mark.parametrize(
    "document",
    [b'{"title": "\\ud800", "lessons": []}', b'{"title": "x", "pass_mark": ' + b"9" * 5000 + b"}"],
)
async def test_a_course_import_with_a_lone_surrogate_or_a_huge_number_is_a_400(
    admin_client, document
):
    with structlog.testing.capture_logs() as logs:
        response = await import_course(admin_client, document)
    assert response.status == 400
    assert "The file is not valid JSON" in await response.text()
    _no_traceback(logs)


async def test_the_last_day_of_the_calendar_is_a_400_on_the_messages_page(admin_client):
    with structlog.testing.capture_logs() as logs:
        response = await admin_client.get("/admin/messages", params={"to": "9999-12-31"})
    assert response.status == 400
    _no_traceback(logs)
