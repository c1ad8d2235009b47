"""The published contract is exact: the latest schemathesis, every check, against a real
server with demo data, over the 14 operations of the three families.

All four phases run (the document's examples; the coverage phase's boundaries of every field
and parameter: missing, empty, lengths, bounds, enums, wrong types, repeats; generated
requests; and stateful sequences through the document's links), in both modes: every request
the document calls valid must be accepted (ST202) and every request it calls invalid refused
(ST201), besides no server error, no undocumented status, answers that match their schemas,
content types and headers, and auth that is not ignored. Each family sends its own key: the
test gives schemathesis one key per security scheme of the document, by the family of the
operations that use it. Bounded and seeded, so every run sends the same requests; more by
hand: `FUZZ_EXAMPLES=500 FUZZ_SEED=7`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import psycopg

from tests.api.demo import fill_demo
from tests.conftest import TEST_KEYS
from tests.served import serving

ROOT = Path(__file__).resolve().parents[2]
OPERATIONS = 14
# (path prefix, key setting): the first match wins.
FAMILY_KEYS = (
    ("/api/v2/", "CHECKS_API_KEY"),
    ("/api/v1/exchanges/", "SHOP_ORDERS_API_KEY"),
    ("/api/v1/", "INTEGRATION_API_KEY"),
    ("/api/", "SHOP_IMPORT_API_KEY"),
)


def family_key(path: str) -> str:
    return next(TEST_KEYS[setting] for prefix, setting in FAMILY_KEYS if path.startswith(prefix))


def scheme_keys(document: dict) -> dict[str, str]:
    """Each security scheme's key, from the family of the operations that name it."""
    keys: dict[str, set[str]] = {}
    for path, operations in document["paths"].items():
        for operation in operations.values():
            for requirement in operation.get("security", []):
                for scheme in requirement:
                    keys.setdefault(scheme, set()).add(family_key(path))
    assert all(len(found) == 1 for found in keys.values()), keys  # one family's key a scheme
    return {scheme: found.pop() for scheme, found in keys.items()}


def config(document: dict) -> str:
    """schemathesis.toml: the keys, and only the document's own links for stateful tests
    (inferred ones guess from names: a riderId is no ambassador check's rider_id)."""
    schemes = document["components"]["securitySchemes"]
    lines = ["[phases.stateful.inference]", "algorithms = []", ""]
    for scheme, key in scheme_keys(document).items():
        field = "bearer" if schemes[scheme].get("scheme") == "bearer" else "api_key"
        lines += [f"[auth.openapi.{scheme}]", f"{field} = {json.dumps(key)}", ""]
    return "\n".join(lines)


def fill(database_url: str) -> list[int]:
    """Demo data, so that lookups find users, orders, riders and completions; the products a
    kit entry may name."""
    fill_demo(database_url)
    with psycopg.connect(database_url) as conn:
        rows = conn.execute("SELECT id FROM shop_products WHERE NOT deleted ORDER BY id")
        return [row[0] for row in rows]


def test_schemathesis_finds_no_failure_on_any_operation(database_url, tmp_path):
    products = fill(database_url)
    with serving(database_url, tmp_path / "serve.log") as server:
        with urllib.request.urlopen(f"{server.base}/api/openapi.json") as response:
            document = json.load(response)
        assert sum(len(ops) for ops in document["paths"].values() if ops) >= OPERATIONS
        (tmp_path / "schemathesis.toml").write_text(config(document))
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "schemathesis.cli",
                "--config-file",
                str(tmp_path / "schemathesis.toml"),
                "run",
                f"{server.base}/api/openapi.json",
                "--checks",
                "all",
                "--mode",
                "all",
                "--phases",
                os.environ.get("FUZZ_PHASES", "examples,coverage,fuzzing,stateful"),
                "--max-examples",
                os.environ.get("FUZZ_EXAMPLES", "30"),
                # One worker: CPython 3.11 keeps the parser's recursion depth process-wide, and
                # hypothesis parses source to describe strategies, so two workers at once fail
                # now and then (SystemError: AST constructor recursion depth mismatch).
                "--workers",
                "1",
                "--seed",
                os.environ.get("FUZZ_SEED", "20261125"),
                "--generation-database",
                "none",
                "--request-timeout",
                "10",
                "--no-color",
                "--warnings",
                "off",
                "--report",
                "ndjson",
                "--report-dir",
                str(tmp_path / "report"),
            ],
            env={
                **os.environ,
                "PYTHONPATH": str(ROOT),
                "SCHEMATHESIS_HOOKS": "tests.api.schemathesis_hooks",
                "CONTRACT_PRODUCT_IDS": ",".join(map(str, products)),
            },
            capture_output=True,
            text=True,
            timeout=400,
            cwd=tmp_path,  # schemathesis keeps a cache folder in the working directory
        )
    # The whole output stays beside the report for reading; the assertion shows its end.
    (tmp_path / "schemathesis.txt").write_text(run.stdout + run.stderr)
    output = run.stdout[-20000:] + run.stderr[-5000:]
    assert run.returncode == 0, output
    assert f"Tested: {OPERATIONS}" in run.stdout, output
    # A 500 answered in a shape the document allows would pass the checks: the log tells.
    assert '"unhandled error"' not in server.log, server.log[-5000:]
