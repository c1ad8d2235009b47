"""Schemathesis's command line over the OpenAPI document, every family with its key, against
a real server: its `examples` and `coverage` phases (the documented examples, then every
boundary the document states: missing and empty fields, lengths, bounds, enums, unexpected
types, NUL characters), which the generated requests of tests/api do not run.

Zero server errors, zero undocumented statuses, zero answers that break the documented schema
or content type, and no `unhandled error` in the server's log. Add fuzzing by hand:
`FUZZ_PHASES=examples,coverage,fuzzing FUZZ_EXAMPLES=500`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from tests.conftest import TEST_KEYS
from tests.served import serving

CHECKS = (
    "not_a_server_error,status_code_conformance,content_type_conformance,"
    "response_schema_conformance"
)
KEYS = {
    # (path regex, header, key): the first match wins.
    "checks": (r"^/api/v2/", "x-api-key", TEST_KEYS["CHECKS_API_KEY"]),
    "training": (
        r"^/api/v1/(riders|flags|assignments|completions)",
        "x-api-key",
        TEST_KEYS["INTEGRATION_API_KEY"],
    ),
    "shop orders": (r"^/api/v1/exchanges/", "api-key", TEST_KEYS["SHOP_ORDERS_API_KEY"]),
    "shop import": (r"^/api/(users|import|products)", "api-key", TEST_KEYS["SHOP_IMPORT_API_KEY"]),
}


def _config() -> str:
    """schemathesis.toml: each operation sends its own family's key."""
    blocks = [
        textwrap.dedent(f"""\
            [[operations]]
            include-path-regex = '{pattern}'
            headers = {{ "{header}" = "{key}" }}
        """)
        for pattern, header, key in KEYS.values()
    ]
    return "\n".join(blocks)


def _fill(database_url: str) -> None:
    """Demo data, so that lookups by ID find users, orders and riders now and then."""
    subprocess.run(
        [sys.executable, "-m", "app", "demo-data", "--riders", "30"],
        env={**os.environ, "DATABASE_URL": database_url},
        check=True,
        capture_output=True,
    )


def test_boundaries_of_the_document_answer_as_documented(database_url, tmp_path):
    _fill(database_url)
    config = tmp_path / "schemathesis.toml"
    config.write_text(_config())
    with serving(database_url, tmp_path / "serve.log") as server:
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "schemathesis.cli",
                "--config-file",
                str(config),
                "run",
                f"{server.base}/api/openapi.json",
                "--checks",
                CHECKS,
                "--phases",
                os.environ.get("FUZZ_PHASES", "examples,coverage"),
                "--max-examples",
                os.environ.get("FUZZ_EXAMPLES", "25"),
                "--workers",
                "2",
                "--seed",
                os.environ.get("FUZZ_SEED", "20261122"),
                "--generation-database",
                "none",
                "--request-timeout",
                "10",
                "--no-color",
                "--warnings",
                "off",
            ],
            capture_output=True,
            text=True,
            timeout=300,
            cwd=tmp_path,  # schemathesis keeps a cache folder in the working directory
        )
    assert run.returncode == 0, run.stdout[-20000:] + run.stderr[-5000:]
    # A 500 answered in a shape the document allows would pass the checks: the log tells.
    assert '"unhandled error"' not in server.log, server.log[-5000:]
