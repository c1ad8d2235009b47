"""The log lines an operator watches: the spec's names verbatim, and every error or warning the
code logs listed in the operations guide with what to do about it."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The spec's "Errors worth watching for in the app log".
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
