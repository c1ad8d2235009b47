"""What every form of the panel answers (docs/admin-panel.md, "After every action"): a POST that
did something answers 303 to a page that says so once; one that asks first or is refused
answers the question or the form again. And the call list's "Mark called"."""

import pytest
from aiohttp import web

from app.admin import PACKAGE
from tests.admin.notices import NOTICE, said_once
from tests.admin.riders_data import PATH_ID, add_riders
from tests.web import PageClient, sign_in

# Every POST route of the panel, by what it answers when it did what was asked:
# - "notice": 303 to a page that shows a one-time notice (admin_notices);
# - "job": 303 to the AI job's page, which shows the run's state;
# - "shown once": 303 to the page that shows a secret once (app/admin/reveal.py: a new API
#   key, a webhook's signing secret, a rider's new PIN);
# - "result": 303 to the import's result page, read from the database;
# - "session": sign-in, sign-out and setup, which redirect into or out of the panel.
# Invalid input re-renders the form with 400 (413/415 for an upload), an unknown thing is 404,
# a stale confirmation or a conflict is 409: nothing is written then.
POST_ROUTES = {
    "/admin/sign-in": "session",
    "/admin/sign-out": "session",
    "/admin/setup": "session",
    "/admin/riders/{rider_id}/status": "notice",
    "/admin/riders/{rider_id}/pin": "shown once",
    "/admin/riders/{rider_id}/links/revoke": "notice",
    "/admin/riders/{rider_id}/flags": "notice",
    "/admin/riders/{rider_id}/assignments": "notice",
    "/admin/assign": "notice",
    "/admin/reports/recount": "notice",
    "/admin/paths/new": "notice",
    "/admin/paths/{path_id}": "notice",
    "/admin/courses/new": "notice",
    "/admin/courses/import": "notice",
    "/admin/courses/{course_id}": "notice",
    "/admin/courses/{course_id}/translations/{language}": "notice",
    "/admin/courses/{course_id}/translations/{language}/review": "notice",
    "/admin/courses/generate": "job",
    "/admin/courses/{course_id}/translate": "job",
    "/admin/knowledge": "notice",
    "/admin/knowledge/{document_id}/delete": "notice",
    "/admin/messages/new": "notice",
    "/admin/messages/{message_id}/called": "notice",
    "/admin/jobs/{job}/run": "notice",
    "/admin/admins": "notice",
    "/admin/admins/role": "notice",
    "/admin/admins/disable": "notice",
    "/admin/api-keys": "shown once",
    "/admin/api-keys/{key_id}/revoke": "notice",
    "/admin/webhooks": "shown once",
    "/admin/webhooks/{endpoint_id}/enable": "notice",
    "/admin/webhooks/{endpoint_id}/disable": "notice",
    "/admin/webhooks/{endpoint_id}/test": "notice",
    "/admin/webhooks/{endpoint_id}/delete": "notice",
    "/admin/webhooks/{endpoint_id}/deliveries/{delivery_id}/replay": "notice",
    "/admin/import": "result",
}


def test_every_post_route_is_one_of_the_documented_answers():
    app = web.Application()
    app.add_routes(PACKAGE.routes)
    posted = {r.resource.canonical for r in app.router.routes() if r.method == "POST"}
    assert posted == set(POST_ROUTES)


async def _messages(db) -> None:
    await add_riders(db)
    await db.execute(
        "INSERT INTO messages (rider_id, kind, body, link, status, error) VALUES"
        " ('R-1', 'reminder', 'Hi Sam, finish Road basics: https://x.test/t/SECRET',"
        "  'https://x.test/t/SECRET', 'logged', NULL),"
        " ('R-2', 'flag', 'Hi Alia, take Safe driving.', NULL, 'failed', 'provider said 400'),"
        " ('R-3', 'reminder', 'sent text', NULL, 'sent', NULL)"
    )


async def _message_id(db, rider_id: str) -> int:
    return await db.fetchval("SELECT message_id FROM messages WHERE rider_id = $1", rider_id)


# (address, form, page the form is on, what the next page says once), after add_riders.
ACTIONS = [
    (
        "/admin/riders/R-1/status",
        {"status": "suspended"},
        "/admin/riders/R-1",
        "Status set to suspended; 0 paths assigned by the rules.",
    ),
    (
        "/admin/riders/R-1/flags",
        {"type": "late_delivery"},
        "/admin/riders/R-1",
        "Flag “Late delivery” added; 0 paths assigned.",
    ),
    (
        "/admin/assign",
        {"path_id": PATH_ID, "rider_ids": "R-1", "confirm": "1"},
        "/admin/assign",
        "1 assignment created (why: admin).",
    ),
    (
        "/admin/messages/new",
        {
            "rider_ids": "R-1",
            "body": "Hello",
            "confirm": "1",
            "expected_count": "1",
            "send_id": "5d0a4c61-46c4-4f0b-9a53-0b8c0f3a2c11",
        },
        "/admin/messages/new",
        "1 message recorded: 0 sent, 0 failed, 1 logged.",
    ),
    (
        "/admin/jobs/reports/run",
        {},
        "/admin/jobs",
        "The reports run finished: see its result below.",
    ),
    (
        "/admin/admins",
        {
            "email": "bo@example.com",
            "name": "Bo",
            "password": "a long enough password",
            "role": "viewer",
        },
        "/admin/admins",
        "Bo (bo@example.com) can now sign in as viewer of every market.",
    ),
]


@pytest.mark.parametrize(("address", "form", "form_page", "said"), ACTIONS)
async def test_an_action_redirects_to_a_page_that_says_what_it_did_once(
    admin_client, db, address, form, form_page, said
):
    await add_riders(db)
    response = await admin_client.submit(address, form, form_page=form_page)
    assert await said_once(admin_client, response) == said


async def test_a_notice_is_read_by_its_own_session_only(admin_client, db, make_client, make_admin):
    await add_riders(db)
    response = await admin_client.submit(
        "/admin/riders/R-1/status", {"status": "suspended"}, form_page="/admin/riders/R-1"
    )
    location = response.headers["Location"]
    other = PageClient(await make_client())
    await sign_in(other, await make_admin(email="other@example.com"))
    assert NOTICE.findall(await other.text(location)) == []
    # Still there for the session that made it, and a made-up reference is ignored.
    assert NOTICE.findall(await admin_client.text(location))
    for bad in ("not-a-uuid", "00000000-0000-0000-0000-000000000001"):
        page = await admin_client.text(f"/admin/riders/R-1?notice={bad}")
        assert NOTICE.findall(page) == []


async def test_the_notice_survives_the_redirect_to_another_instance(admin_client, db, make_client):
    """The redirect may land on another instance: the notice is in the database."""
    await add_riders(db)
    response = await admin_client.submit(
        "/admin/riders/R-1/status", {"status": "suspended"}, form_page="/admin/riders/R-1"
    )
    second = await make_client()
    second.session.cookie_jar.update_cookies(
        admin_client.session.cookie_jar.filter_cookies(admin_client.make_url("/admin"))
    )
    page = await (await second.get(response.headers["Location"])).text()
    assert NOTICE.findall(page) == ["Status set to suspended; 0 paths assigned by the rules."]


async def test_a_refused_action_re_renders_its_form_and_writes_nothing(admin_client, db):
    await add_riders(db)
    response = await admin_client.submit(
        "/admin/riders/R-1/flags", {"type": "speeding"}, form_page="/admin/riders/R-1"
    )
    assert response.status == 400
    assert await db.fetchval("SELECT count(*) FROM admin_notices") == 0
    assert await db.fetchval("SELECT count(*) FROM flags") == 0


async def test_the_call_list_shows_the_phone_and_the_text_not_sent(admin_client, db):
    await _messages(db)
    page = await admin_client.text("/admin/messages")
    assert '<a href="tel:+971501234567">+971501234567</a>' in page
    assert "Hi Alia, take Safe driving." in page
    # The one-tap link would sign the rider in: the panel shows a placeholder.
    assert "Hi Sam, finish Road basics: (one-tap link)" in page and "SECRET" not in page
    assert "sent text" not in page  # a sent message is not for the call list
    called = await _message_id(db, "R-2")
    assert f'action="/admin/messages/{called}/called"' in page
    sent = await _message_id(db, "R-3")
    assert f'action="/admin/messages/{sent}/called"' not in page


async def test_mark_called_records_who_and_when_and_stays(admin_client, db):
    await _messages(db)
    message_id = await _message_id(db, "R-2")
    address = f"/admin/messages/{message_id}/called"
    form = {"back": "status=failed&before=99&notice=x&evil=1"}
    response = await admin_client.submit(address, form, form_page="/admin/messages")
    assert response.headers["Location"].startswith("/admin/messages?status=failed&before=99&")
    assert await said_once(admin_client, response) == "Marked called: Alia Stone (R-2)."
    row = await db.fetchrow(
        "SELECT called_by, called_at FROM messages WHERE message_id = $1", message_id
    )
    assert row["called_by"] == admin_client.admin.email and row["called_at"] is not None
    page = await admin_client.text("/admin/messages?status=failed")
    assert f"Called by {admin_client.admin.email}, {row['called_at']:%Y-%m-%d %H:%M}" in page
    assert f'action="{address}"' not in page
    event = await db.fetchrow("SELECT actor, action, target, summary FROM audit_events")
    assert dict(event) == {
        "actor": admin_client.admin.email,
        "action": "message.called",
        "target": "R-2",
        "summary": f"message {message_id}",
    }
    # Marked again (two tabs): the first mark stays, and no second event.
    response = await admin_client.submit(address, {}, form_page="/admin/messages")
    said = await said_once(admin_client, response)
    assert said.startswith(
        f"Already marked called: Alia Stone (R-2), by {admin_client.admin.email}"
    )
    again = await db.fetchrow(
        "SELECT called_by, called_at FROM messages WHERE message_id = $1", message_id
    )
    assert again == row
    assert await db.fetchval("SELECT count(*) FROM audit_events") == 1


async def test_mark_called_of_a_sent_unknown_or_foreign_message_is_a_404(
    admin_client, db, make_client, make_admin
):
    await _messages(db)
    sent = await _message_id(db, "R-3")
    for message_id in (sent, 999999):
        response = await admin_client.submit(
            f"/admin/messages/{message_id}/called", {}, form_page="/admin/messages"
        )
        assert response.status == 404, message_id
    # An editor of Kuwait does not see the UAE's riders.
    kuwait = PageClient(await make_client())
    await sign_in(kuwait, await make_admin(email="kw@example.com", role="editor", markets=("KW",)))
    response = await kuwait.submit(
        f"/admin/messages/{await _message_id(db, 'R-2')}/called", {}, form_page="/admin/messages"
    )
    assert response.status == 404
    assert await db.fetchval("SELECT count(*) FROM messages WHERE called_at IS NOT NULL") == 0


async def test_a_viewer_may_not_mark_called(db, make_client, make_admin):
    await _messages(db)
    viewer = PageClient(await make_client())
    await sign_in(viewer, await make_admin(email="v@example.com", role="viewer"))
    page = await viewer.text("/admin/messages")
    assert "Not called yet" in page and "/called" not in page
    response = await viewer.submit(
        f"/admin/messages/{await _message_id(db, 'R-2')}/called", {}, form_page="/admin/messages"
    )
    assert response.status == 403
    assert await db.fetchval("SELECT count(*) FROM messages WHERE called_at IS NOT NULL") == 0
    assert await db.fetchval("SELECT count(*) FROM audit_events") == 0


async def test_a_viewer_may_not_run_reminders_or_revoke_links(db, make_client, make_admin):
    await add_riders(db)
    viewer = PageClient(await make_client())
    await sign_in(viewer, await make_admin(email="v@example.com", role="viewer"))
    for address in ("/admin/jobs/reminders/run", "/admin/riders/R-1/links/revoke"):
        assert (await viewer.get(address)).status == 403, address
        response = await viewer.submit(address, {"expected_count": "0"}, form_page="/admin")
        assert response.status == 403, address
    assert await db.fetchval("SELECT count(*) FROM job_runs") == 0
    assert await db.fetchval("SELECT links_revoked_at FROM riders WHERE rider_id = 'R-1'") is None
