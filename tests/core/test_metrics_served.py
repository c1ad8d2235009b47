"""GET /metrics of a real `serve` with two web processes: one scrape sums both (docs/metrics.md)."""

import http.client
import time
from urllib.parse import urlsplit

from tests.conftest import TEST_KEYS
from tests.core.test_metrics import samples, value
from tests.served import serving

TOKEN = "metrics-token-0123456789"
API = {"x-api-key": TEST_KEYS["INTEGRATION_API_KEY"]}
REQUESTS = 40


def get(url: str, headers: dict | None = None) -> tuple[int, str]:
    """One connection a request (the kernel hands them to either process); no redirect
    followed."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        connection.request("GET", f"{parts.path}?{parts.query}", headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


def scrape(base: str) -> tuple[dict, str]:
    status, text = get(f"{base}/metrics", {"Authorization": f"Bearer {TOKEN}"})
    assert status == 200
    return samples(text), text


def test_one_scrape_sums_every_web_process_and_no_label_carries_an_id(database_url, tmp_path):
    with serving(
        database_url, tmp_path / "serve.log", WEB_CONCURRENCY="2", METRICS_TOKEN=TOKEN
    ) as server:
        base = server.base
        for _ in range(REQUESTS):
            assert get(f"{base}/api/v1/completions?limit=1", API)[0] == 200
        assert get(f"{base}/admin/riders/R-SECRET-0815")[0] == 303  # to the sign-in page
        assert get(f"{base}/verify/PROOFSECRET")[0] == 404
        assert get(f"{base}/api/v1/riders/R-SECRET-0815", API)[0] == 404
        # Each process keeps at least two pooled connections, written every second.
        for _ in range(50):
            scraped, text = scrape(base)
            pooled = value(scraped, "db_pool_connections", state="used") + value(
                scraped, "db_pool_connections", state="idle"
            )
            if pooled >= 4:
                break
            time.sleep(0.1)
        assert pooled >= 4, text
        requests = value(
            scraped, "http_requests_total", method="GET", route="/api/v1/completions", status="200"
        )
        assert requests == REQUESTS
        assert (
            value(
                scraped,
                "http_requests_total",
                method="GET",
                route="/admin/riders/{rider_id}",
                status="303",
            )
            == 1
        )
        for secret in ("R-SECRET", "PROOFSECRET"):
            assert secret not in text
        # Any process answers the same sums.
        for _ in range(5):
            again, _ = scrape(base)
            assert (
                value(
                    again,
                    "http_requests_total",
                    method="GET",
                    route="/api/v1/completions",
                    status="200",
                )
                == REQUESTS
            )


STALE = """
from app.core import metrics
metrics.observe_request("GET", "/api/v1/completions", 200, 0.01)
"""


def test_the_previous_runs_files_are_cleaned_at_start(database_url, tmp_path):
    import os
    import subprocess
    import sys

    files = tmp_path / "metrics"
    files.mkdir()
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(files)}
    subprocess.run([sys.executable, "-c", STALE], env=env, check=True)
    assert list(files.glob("counter_*.db"))  # a previous run's count of 1
    with serving(
        database_url,
        tmp_path / "serve.log",
        METRICS_TOKEN=TOKEN,
        PROMETHEUS_MULTIPROC_DIR=str(files),
    ) as server:
        scraped, _ = scrape(server.base)
        assert (
            value(
                scraped,
                "http_requests_total",
                method="GET",
                route="/api/v1/completions",
                status="200",
            )
            == 0
        )


def test_counters_of_known_labels_are_at_zero_before_their_first_event(database_url, tmp_path):
    from app.core.throttle import SIGN_IN_AREAS
    from app.webhooks.delivery import OUTCOMES as WEBHOOK_OUTCOMES
    from jobs import JOBS
    from jobs.job import OUTCOMES

    with serving(database_url, tmp_path / "serve.log", METRICS_TOKEN=TOKEN) as server:
        scraped, text = scrape(server.base)
    expected = [
        *(("job_runs_total", {"job": j, "outcome": o}) for j in JOBS for o in OUTCOMES),
        *(("sign_in_failures_total", {"area": area}) for area in SIGN_IN_AREAS),
        *(("webhook_deliveries_total", {"outcome": o}) for o in WEBHOOK_OUTCOMES),
    ]
    assert "restore-drill" in JOBS and {"admin", "rider"} <= SIGN_IN_AREAS
    for name, labels in expected:
        assert scraped.get((name, frozenset(labels.items()))) == 0, (name, labels, text)
