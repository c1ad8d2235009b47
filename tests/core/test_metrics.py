"""GET /metrics in one process: the token, the stable names, route templates as labels, and
each counter moved by the event it counts (docs/metrics.md). The sum over several processes of a
real `serve` is in test_metrics_served.py."""

import re
from datetime import UTC, datetime
from pathlib import Path

import orjson
import pytest
from prometheus_client.parser import text_string_to_metric_families

from app.core.keys import POOL
from jobs import JOBS, JobContext
from jobs.scheduler import JobLocked, run_locked
from tests.conftest import TEST_KEYS
from tests.rider.rows import add_rider as add_signed_up_rider
from tests.rider.rows import sign_in as rider_sign_in
from tests.training.helpers import add_path, add_rider
from tests.web import PageClient

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "metrics-token-0123456789"
SCRAPE = {"Authorization": f"Bearer {TOKEN}"}
API = {"x-api-key": TEST_KEYS["INTEGRATION_API_KEY"]}


def samples(text: str) -> dict[tuple[str, frozenset], float]:
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(scraped: dict, name: str, **labels: str) -> float:
    return scraped.get((name, frozenset(labels.items())), 0.0)


@pytest.fixture
async def scraper(make_client):
    client = await make_client(METRICS_TOKEN=TOKEN)

    async def scrape() -> dict:
        response = await client.get("/metrics", headers=SCRAPE)
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        return samples(await response.text())

    scrape.client = client
    return scrape


async def test_metrics_without_a_configured_token_is_503_api_disabled(make_client):
    client = await make_client()
    response = await client.get("/metrics", headers=SCRAPE)
    assert response.status == 503
    body = await response.json()
    assert body["code"] == "api_disabled" and "METRICS_TOKEN" in body["error"]


async def test_metrics_with_a_missing_or_wrong_token_is_401(make_client):
    client = await make_client(METRICS_TOKEN=TOKEN)
    for headers in ({}, {"Authorization": f"Bearer {TOKEN}x"}, {"Authorization": TOKEN}):
        response = await client.get("/metrics", headers=headers)
        assert response.status == 401
        assert (await response.json())["code"] == "unauthorized"


async def test_every_stable_name_is_exposed(scraper, db):
    await db.execute(
        "INSERT INTO ai_jobs (kind, status, error, finished_at)"
        " VALUES ('generation', 'failed', 'timed out', now())"
    )
    await scraper.client.get("/healthz")
    scraped = await scraper()
    names = {name for name, _ in scraped}
    for name in (
        "http_requests_total",
        "http_request_duration_seconds_bucket",
        "db_pool_connections",
        "db_pool_waiting",
        "ai_jobs",
    ):
        assert name in names, name
    assert value(scraped, "ai_jobs", kind="generation", status="failed") == 1
    # Counters that have not counted yet still have their HELP and TYPE lines.
    response = await scraper.client.get("/metrics", headers=SCRAPE)
    text = await response.text()
    for name in (
        "job_runs_total",
        "messages_total",
        "sign_in_failures_total",
        "webhook_deliveries_total",
        "api_requests_total",
    ):
        assert f"# TYPE {name} counter" in text, name


async def test_routes_are_labelled_by_template_never_by_an_id(scraper, db):
    client = scraper.client
    before = await scraper()
    await client.get("/api/users/U-SECRET-4711/kit", headers={"api-key": "wrong"})
    await client.get("/verify/PROOF999", headers={})
    await client.get("/api/v1/riders/R-SECRET-0815", headers=API)
    await client.get("/totally/unknown/R-SECRET-0815")
    await client.get("/api/v1/riders", headers=API)  # POST only
    after = await scraper()
    response = await client.get("/metrics", headers=SCRAPE)
    text = await response.text()
    assert "SECRET" not in text and "PROOF999" not in text

    def delta(**labels):
        return value(after, "http_requests_total", **labels) - value(
            before, "http_requests_total", **labels
        )

    assert delta(method="GET", route="/api/users/{user}/kit", status="403") == 1
    assert delta(method="GET", route="/verify/{proof_code}", status="404") == 1
    # Paths no route matched (404) and a wrong method (405) share one label.
    assert delta(method="GET", route="unmatched", status="404") == 2
    assert delta(method="GET", route="unmatched", status="405") == 1
    count = value(
        after, "http_request_duration_seconds_count", method="GET", route="/verify/{proof_code}"
    )
    assert count >= 1


async def test_sign_in_failures_are_counted_by_area(scraper, make_admin):
    client = scraper.client
    before = await scraper()
    account = await make_admin()
    response = await PageClient(client).submit(
        "/admin/sign-in", {"email": account.email, "password": "not the password"}
    )
    assert response.status == 401
    await add_signed_up_rider(client, "R-1", pin="1234")
    assert (await rider_sign_in(client, "R-1", "9999")).status == 401
    after = await scraper()
    for area in ("admin", "rider"):
        moved = value(after, "sign_in_failures_total", area=area) - value(
            before, "sign_in_failures_total", area=area
        )
        assert moved == 1, area


async def test_messages_are_counted_by_status(scraper, db):
    await add_rider(db, "R-1", phone="+971501234567")
    await add_path(db, "flag", flag_types=["cancellations"])
    before = await scraper()
    response = await scraper.client.post(
        "/api/v1/flags",
        json={"riderId": "R-1", "type": "cancellations", "notify": True},
        headers=API,
    )
    assert (await response.json())["notification"] == "logged"
    after = await scraper()
    assert (
        value(after, "messages_total", status="logged")
        - value(before, "messages_total", status="logged")
        == 1
    )


async def test_job_runs_are_counted_by_outcome(scraper, settings, database_url):
    pool = scraper.client.app[POOL]
    context = JobContext(settings=settings, pool=pool, database_url=database_url)
    before = await scraper()
    slot = datetime.now(UTC).replace(second=0, microsecond=0)
    await run_locked(JOBS["housekeeping"], context, slot)
    with pytest.raises(JobLocked):  # the slot ran already (in another process, say)
        await run_locked(JOBS["housekeeping"], context, slot)
    after = await scraper()
    for outcome in ("succeeded", "skipped"):
        moved = value(after, "job_runs_total", job="housekeeping", outcome=outcome) - value(
            before, "job_runs_total", job="housekeeping", outcome=outcome
        )
        assert moved == 1, outcome


PROMQL_FUNCTIONS = {"histogram_quantile", "max_over_time", "min_over_time"}


def metric_names_in(expression: str) -> set[str]:
    names = set(re.findall(r"\b([a-z_]+)(?=[\[{)])", expression))
    return {name for name in names if "_" in name} - PROMQL_FUNCTIONS


async def test_the_dashboard_and_the_promql_guide_use_only_exposed_names(scraper):
    await scraper.client.get("/healthz")
    response = await scraper.client.get("/metrics", headers=SCRAPE)
    families = set(re.findall(r"^# TYPE (\w+) (\w+)$", await response.text(), re.M))
    exposed = set()
    for name, kind in families:
        suffixes = ("_bucket", "_sum", "_count") if kind == "histogram" else ("",)
        exposed |= {name + suffix for suffix in suffixes}
    dashboard = orjson.loads((ROOT / "deploy" / "grafana-dashboard.json").read_bytes())
    expressions = [
        target["expr"] for panel in dashboard["panels"] for target in panel.get("targets", ())
    ]
    guide = (ROOT / "docs" / "metrics.md").read_text(encoding="utf-8")
    expressions += [line for line in guide.splitlines() if line.startswith("    ")]
    used = set().union(*(metric_names_in(expression) for expression in expressions))
    assert used <= exposed, used - exposed
    # The four golden signals: latency, traffic, errors, saturation.
    for signal in (
        "http_request_duration_seconds_bucket",
        "http_requests_total",
        'status=~"5.."',
        "db_pool_waiting",
    ):
        assert any(signal in expression for expression in expressions), signal
