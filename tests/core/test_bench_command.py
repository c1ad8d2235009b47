"""`python -m bench` as a person first tries it: `--help` lists the benchmarks, an unknown
name is one line on stderr, no traceback."""

import subprocess
import sys
from pathlib import Path

from bench.__main__ import BENCHMARKS

ROOT = Path(__file__).resolve().parents[2]


def bench(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bench", *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_help_prints_the_usage_and_every_benchmark():
    answer = bench("--help")
    assert answer.returncode == 0, answer.stderr
    assert answer.stdout.startswith("usage: python -m bench")
    listed = {
        line.split()[0]
        for line in answer.stdout.split("benchmarks:\n", 1)[1].splitlines()[: len(BENCHMARKS)]
    }
    assert listed == set(BENCHMARKS)
    assert answer.stderr == ""


def test_an_unknown_benchmark_is_one_line_on_stderr():
    answer = bench("training", "no_such_benchmark")
    assert answer.returncode == 2
    assert answer.stdout == ""  # nothing ran, not even the known one before it
    assert answer.stderr.splitlines() == [
        "error: no benchmark named 'no_such_benchmark' (python -m bench --help lists them)"
    ]
