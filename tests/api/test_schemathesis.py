"""Schemathesis over the OpenAPI document, against `python -m app serve` on a real port with
the demo data: no server error, no status the document does not list, no answer that breaks
its documented schema, content type or headers, for every operation of the three families."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request

import hypothesis
import pytest
import schemathesis
from aiohttp.test_utils import unused_port
from schemathesis import checks

from app.core.openapi import build_spec
from app.web import create_app
from tests.conftest import TEST_KEYS, _admin, make_settings, with_database

SCHEMA = schemathesis.openapi.from_dict(build_spec(create_app(make_settings(), "unused")))
# Bounded: every operation gets this many generated requests (the suite's budget is ~60 s).
EXAMPLES = 25
CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_headers_conformance,
    checks.response_schema_conformance,
]


def keys_for(path: str) -> dict[str, str]:
    """The key header of the family the path belongs to."""
    if path.startswith("/api/v2/"):
        return {"x-api-key": TEST_KEYS["CHECKS_API_KEY"]}
    if path.startswith("/api/v1/exchanges/"):
        return {"api-key": TEST_KEYS["SHOP_ORDERS_API_KEY"]}
    if path.startswith("/api/v1/"):
        return {"x-api-key": TEST_KEYS["INTEGRATION_API_KEY"]}
    return {"api-key": TEST_KEYS["SHOP_IMPORT_API_KEY"]}


def _wait_for_port(port: int, process: subprocess.Popen, seconds: float = 60) -> None:
    """Until a web process answers: the port itself opens before any does."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"serve exited with {process.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("serve did not listen in time")


@pytest.fixture(scope="module")
def served(pg_server_url, template_url):
    """The service with the demo data in its own database, on a real port."""
    name = "fuzz_demo"
    _admin(pg_server_url, f"CREATE DATABASE {name} TEMPLATE template_rider_ops")
    url = with_database(pg_server_url, name)
    env = {**os.environ, **TEST_KEYS, "DATABASE_URL": url, "LOG_FORMAT": "json"}
    subprocess.run(
        [sys.executable, "-m", "app", "demo-data", "--riders", "60"],
        env=env,
        check=True,
        capture_output=True,
        timeout=300,
    )
    port = unused_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "app", "serve"],
        env={**env, "HOST": "127.0.0.1", "PORT": str(port), "MIGRATE_ON_START": "0"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for_port(port, process)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=40)
        _admin(pg_server_url, f"DROP DATABASE {name} WITH (FORCE)")


@SCHEMA.parametrize()
@hypothesis.settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(hypothesis.HealthCheck),
    derandomize=True,
    database=None,
)
def test_every_operation_answers_as_documented(case, served):
    case.call_and_validate(base_url=served, headers=keys_for(case.path), checks=CHECKS)
