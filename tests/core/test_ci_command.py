"""CI runs exactly the README's test command: `.ci/run`'s command is a line of the README."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_ci_runs_the_readmes_test_command():
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    command = script[-1]
    assert "python -m pytest" in command
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert command in [line.strip() for line in readme]
