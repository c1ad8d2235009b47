"""The demo data both API tests run against: users, orders, riders, paths and completions."""

from __future__ import annotations

import os
import subprocess
import sys


def fill_demo(database_url: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "app", "demo-data", "--riders", "30"],
        env={**os.environ, "DATABASE_URL": database_url},
        check=True,
        capture_output=True,
    )
