"""Course generation: POST /admin/courses/generate → job → an unpublished English course, or a
failed job with its reason on the page and exactly one `Course generation failed` line."""

from __future__ import annotations

import asyncio
import io
import zipfile

import aiohttp
import pytest
import structlog

from app.ai import client as ai_client_module
from app.ai import runner, sources
from app.core import database
from app.training import courses
from tests.ai import fake_ai as fake
from tests.ai.conftest import wait_for_job
from tests.ai.files import make_pdf, make_scorm
from tests.conftest import POOL_MODE
from tests.waiting import until
from tests.web import sign_in

GENERATE = "/admin/courses/generate"


async def upload(client, name: str, data: bytes, path: str = GENERATE):
    token = await client.csrf("/admin/courses/generate")
    form = aiohttp.FormData(quote_fields=False)  # the name as a browser sends it
    form.add_field("csrf_token", token)  # first, as a browser sends the page's hidden field
    form.add_field("file", io.BytesIO(data), filename=name)
    return await client.post(path, data=form, allow_redirects=False)


async def generated(client, name: str, data: bytes, logs=None) -> tuple[str, str]:
    response = await upload(client, name, data)
    assert response.status == 303, await response.text()
    location = response.headers["Location"]
    assert location.startswith("/admin/jobs/")
    return location, await wait_for_job(client, location, logs=logs)


def failed_lines(logs, event="Course generation failed"):
    return [line for line in logs if line["event"] == event]


async def test_a_pdf_becomes_an_unpublished_english_course(ai_admin, fake_ai, database_url):
    pdf = make_pdf(["Wear your helmet on every ride.", "Check the brakes before you start."])
    location, page = await generated(ai_admin, "safety.pdf", pdf)
    assert 'data-job-status="succeeded"' in page
    assert "Helmet safety" in page and "safety.pdf" in page
    # The extracted text went to the provider, with the course document as the JSON schema.
    request = fake_ai.requests[0]["json"]
    assert request["model"] == fake.MODEL
    assert request["response_format"]["type"] == "json_schema"
    assert request["response_format"]["json_schema"]["schema"]["required"] == [
        "title",
        "lessons",
        "quiz",
        "pass_mark",
    ]
    assert "Wear your helmet on every ride." in request["messages"][1]["content"]
    assert "Check the brakes" in request["messages"][1]["content"]
    assert fake_ai.requests[0]["authorization"] == f"Bearer {fake.KEY}"
    async with database.connect(database_url) as conn:
        course_id = await conn.fetchval("SELECT course_id FROM ai_jobs")
        course = await courses.read_course(conn, course_id)
        kept = await conn.fetchval("SELECT count(*) FROM ai_job_sources")
    assert course.title == "Helmet safety" and not course.published
    assert [lesson["title"] for lesson in course.lessons] == ["Why a helmet", "Fitting it"]
    assert course.quiz[0]["correct"] == [0] and course.pass_mark == 70
    assert kept == 0  # the uploaded file is not kept once the job ended
    assert f'href="/admin/courses/{course_id}"' in page


async def test_a_text_file_and_markdown(ai_admin, fake_ai):
    _, page = await generated(ai_admin, "notes.md", b"# Heat\n\nDrink water.")
    assert 'data-job-status="succeeded"' in page
    assert "Drink water." in fake_ai.requests[0]["json"]["messages"][1]["content"]


async def test_a_scorm_package_reads_the_manifests_html_pages(ai_admin, fake_ai):
    _, page = await generated(ai_admin, "course.zip", make_scorm())
    assert 'data-job-status="succeeded"' in page
    sent = fake_ai.requests[0]["json"]["messages"][1]["content"]
    assert "Always wear a helmet & gloves." in sent
    assert "Check the strap before every ride." in sent
    assert "secret" not in sent  # scripts are not text


def _zip(entries: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as package:
        for name, data in entries.items():
            package.writestr(name, data)
    return out.getvalue()


@pytest.mark.parametrize(
    ("package", "reason"),
    [
        (
            lambda: make_scorm({"big.html": b"\0" * (30 * 1024 * 1024)}),
            "the package looks like a zip bomb (big.html)",
        ),
        (
            lambda: make_scorm({"../evil.html": "<p>x</p>"}),
            "the package holds a path that leaves it: ../evil.html",
        ),
        (
            lambda: make_scorm(href="../../etc/passwd.html"),
            "imsmanifest.xml names a path that leaves the package: ../../etc/passwd.html",
        ),
        (
            lambda: _zip({"index.html": b"<p>x</p>"}),
            "not a SCORM package: imsmanifest.xml is missing",
        ),
        (lambda: b"PK\x03\x04 not really", "the file is not a ZIP archive"),
    ],
)
async def test_a_dangerous_or_broken_package_fails_the_job(ai_admin, fake_ai, package, reason):
    with structlog.testing.capture_logs() as logs:
        _, page = await generated(ai_admin, "course.zip", package(), logs=logs)
    assert 'data-job-status="failed"' in page
    assert reason in page.replace("&amp;", "&")
    assert failed_lines(logs) == [
        {
            "event": "Course generation failed",
            "job_id": failed_lines(logs)[0]["job_id"],
            "reason": reason,
            "log_level": "error",
        }
    ]
    assert fake_ai.requests == []  # nothing was sent


async def test_a_broken_pdf_fails_the_job(ai_admin):
    with structlog.testing.capture_logs() as logs:
        _, page = await generated(ai_admin, "broken.pdf", b"%PDF-1.4\nthis is not a pdf", logs=logs)
    assert 'data-job-status="failed"' in page
    assert len(failed_lines(logs)) == 1
    assert failed_lines(logs)[0]["reason"].startswith("the PDF could not be read")


@pytest.mark.parametrize(
    ("answers", "reason"),
    [
        ([fake.status(429, "rate limited")] * 3, "the AI provider answered 429"),
        ([fake.status(500)] * 3, "the AI provider answered 500"),
        ([fake.document("{not json")], "the AI's answer is not valid JSON"),
        (
            [fake.document({"title": "x", "lessons": [], "quiz": [], "pass_mark": 70})],
            "the AI's course does not follow the course document: lessons: "
            "Length must be between 1 and 30.",
        ),
        (
            [
                fake.document(
                    {
                        **fake.COURSE,
                        "quiz": [{"question": "Q", "options": ["a", "b"], "correct": [5]}],
                    }
                )
            ],
            "the AI's course does not follow the course document: quiz.0.correct: "
            "option indexes go from 0 to 1",
        ),
        (
            [fake.document(["not", "an", "object"])],
            "the AI's course does not follow the course document: the answer is not a JSON object",
        ),
    ],
)
async def test_provider_failures_fail_the_job_with_one_line(ai_admin, fake_ai, answers, reason):
    fake_ai.script.extend(answers)
    with structlog.testing.capture_logs() as logs:
        _, page = await generated(ai_admin, "notes.txt", b"Drink water in the heat.", logs=logs)
    assert 'data-job-status="failed"' in page
    lines = failed_lines(logs)
    assert len(lines) == 1 and lines[0]["log_level"] == "error"
    assert lines[0]["reason"].startswith(reason)
    assert reason in page.replace("&#39;", "'")
    assert "Drink water" not in str(logs)  # no source or prompt text in the log


async def test_a_429_then_an_answer_is_retried(ai_admin, fake_ai):
    fake_ai.script.extend([fake.status(429), fake.status(503)])
    _, page = await generated(ai_admin, "notes.txt", b"Drink water.")
    assert 'data-job-status="succeeded"' in page
    assert len(fake_ai.requests) == 3


async def test_a_slow_provider_times_out(ai_client, make_admin, fake_ai, monkeypatch):
    monkeypatch.setattr(ai_client_module, "DOCUMENT_TIMEOUT", 0.3)
    monkeypatch.setattr(ai_client_module, "MAX_RETRIES", 0)
    fake_ai.script.append(fake.slow(2))
    client = await ai_client()
    await sign_in(client.client, await make_admin())
    with structlog.testing.capture_logs() as logs:
        _, page = await generated(client, "notes.txt", b"Drink water.", logs=logs)
    assert 'data-job-status="failed"' in page
    assert "no answer from the AI provider within 0.3 s" in page
    assert [line["reason"] for line in failed_lines(logs)] == [
        "no answer from the AI provider within 0.3 s"
    ]


async def test_a_long_source_is_split_and_merged_into_one_course(ai_admin, fake_ai):
    paragraphs = [f"Paragraph {n}: " + "ride safely " * 400 for n in range(30)]  # ~145,000 chars
    fake_ai.script.extend(
        fake.document(
            {
                **fake.COURSE,
                "title": f"Part {n}",
                "lessons": [{"title": f"Lesson {n}", "body": "Body."}],
            }
        )
        for n in (1, 2, 3)
    )
    _, page = await generated(ai_admin, "long.txt", "\n\n".join(paragraphs).encode())
    assert 'data-job-status="succeeded"' in page
    assert len(fake_ai.requests) == 3
    sent = [r["json"]["messages"][1]["content"] for r in fake_ai.requests]
    assert all(len(part) <= 60_000 for part in sent)
    assert "Paragraph 0:" in sent[0] and "Paragraph 29:" in sent[-1]
    assert "part 1 of 3" in fake_ai.requests[0]["json"]["messages"][0]["content"]
    assert "Part 1" in page  # the course takes the first part's title


async def test_a_job_running_over_15_minutes_is_failed_by_the_sweep(ai_admin, database_url):
    async with database.connect(database_url) as conn:
        job_id = await conn.fetchval(
            "INSERT INTO ai_jobs (kind, source_name, claimed_at, started_at)"
            " VALUES ('generation', 'x.txt', now(), now() - interval '16 minutes')"
            " RETURNING job_id"
        )
        await conn.execute(
            "INSERT INTO ai_jobs (kind, source_name, claimed_at)"
            " VALUES ('generation', 'y.txt', now())"
        )
        pool = await database.create_pool(database_url, pool_mode=POOL_MODE)
        try:
            with structlog.testing.capture_logs() as logs:
                await runner.sweep(pool)
                await runner.sweep(pool)  # a second sweep (another process) finds nothing
        finally:
            await pool.close()
        assert await conn.fetchval("SELECT count(*) FROM ai_jobs WHERE status = 'running'") == 1
    assert failed_lines(logs) == [
        {
            "event": "Course generation failed",
            "job_id": str(job_id),
            "reason": "timed out after 15 minutes",
            "log_level": "error",
        }
    ]
    response = await ai_admin.get(f"/admin/jobs/{job_id}")
    page = await response.text()
    assert 'data-job-status="failed"' in page and "timed out after 15 minutes" in page


async def test_a_job_the_sweep_ended_keeps_its_state_when_the_answer_comes(
    ai_admin, fake_ai, database_url, monkeypatch
):
    # The provider answers after the job was failed: nothing is stored, nothing more logged.
    released = asyncio.Event()
    fake_ai.script.append(fake.held(released))
    locked = []  # what the job found when it came to store the late answer
    lock_running_job = runner.store.lock_running_job

    async def lock_and_tell(conn, job_id):
        locked.append(await lock_running_job(conn, job_id))
        return locked[-1]

    monkeypatch.setattr(runner.store, "lock_running_job", lock_and_tell)
    response = await upload(ai_admin, "notes.txt", b"Drink water.")
    location = response.headers["Location"]
    async with database.connect(database_url) as conn:
        # The job is under way at the provider when the sweep ends it (only a claim is not
        # enough: the sweep drops the uploaded file, which the job may not have read yet).
        await until(lambda: fake_ai.requests, "the job asked the provider")
        await conn.execute("UPDATE ai_jobs SET started_at = now() - interval '16 minutes'")
        pool = await database.create_pool(database_url, pool_mode=POOL_MODE)
        try:
            with structlog.testing.capture_logs() as logs:
                await runner.sweep(pool)
                page = await wait_for_job(ai_admin, location)
                # The provider's late answer arrives and the job comes to store it.
                released.set()
                await until(lambda: locked, "the late answer reached the job")
        finally:
            released.set()
            await pool.close()
        assert locked == [False]
        assert await conn.fetchval("SELECT count(*) FROM courses") == 0
    assert 'data-job-status="failed"' in page
    assert len(failed_lines(logs)) == 1


async def test_upload_refusals(ai_admin):
    response = await upload(ai_admin, "slides.pptx", b"PK\x03\x04")
    assert response.status == 400
    assert "Upload a PDF, a SCORM package (.zip), or a .txt or .md file." in await response.text()
    token = await ai_admin.csrf(GENERATE)
    response = await ai_admin.post(
        GENERATE,
        data=aiohttp.FormData({"csrf_token": token, "other": "x"}, default_to_multipart=True),
        allow_redirects=False,
    )
    assert response.status == 400 and "Choose a file to upload." in await response.text()
    response = await upload(ai_admin, "empty.txt", b"")
    assert response.status == 400 and "The file is empty." in await response.text()


async def test_a_file_over_20_mb_is_refused_with_a_413_page(ai_admin, database_url):
    response = await upload(ai_admin, "big.txt", b"a" * (sources.FILE_LIMIT + 1))
    assert response.status == 413
    page = await response.text()
    assert "The file is larger than 20 MB." in page and "<html" in page
    async with database.connect(database_url) as conn:
        assert await conn.fetchval("SELECT count(*) FROM ai_jobs") == 0


async def test_a_form_without_its_csrf_token_is_refused(ai_admin):
    form = aiohttp.FormData()
    form.add_field("file", io.BytesIO(b"x"), filename="a.txt")
    response = await ai_admin.post(GENERATE, data=form, allow_redirects=False)
    assert response.status == 403


async def test_unconfigured_the_forms_say_so(unconfigured_admin, database_url):
    response = await unconfigured_admin.get(GENERATE)
    assert "AI is not configured" in await response.text()
    response = await upload(unconfigured_admin, "notes.txt", b"x")
    assert response.status == 503 and "AI is not configured" in await response.text()


async def test_the_job_page_refreshes_while_running_and_404s_for_unknown_ids(
    ai_admin, database_url
):
    async with database.connect(database_url) as conn:
        job_id = await conn.fetchval(
            "INSERT INTO ai_jobs (kind, source_name, claimed_at)"
            " VALUES ('generation', '<script>.txt', now()) RETURNING job_id"
        )
    response = await ai_admin.get(f"/admin/jobs/{job_id}")
    page = await response.text()
    assert 'data-job-status="running"' in page
    assert '<meta http-equiv="refresh" content="3">' in page
    assert "&lt;script&gt;.txt" in page
    for unknown in ("00000000-0000-4000-8000-000000000000", "not-a-uuid"):
        response = await ai_admin.get(f"/admin/jobs/{unknown}")
        assert response.status == 404
