"""A web process at rest holds no library it has not used yet (docs/operations.md#memory-limit): the
AI client (openai), the PDF reader (pypdf) and the migration tool (yoyo, psycopg) are imported when
first used. `python -m bench memory` measures what that leaves."""

import json
import subprocess
import sys

from yoyo import read_migrations

from app.core import migrations

LAZY = ("openai", "pypdf", "yoyo", "psycopg")

# The web process's own imports (`app.web_process`, which the supervisor runs) and its app,
# with the AI configured.
CREATE_APP = f"""
import json, sys
from app.web_process import run
from app.core.config import Settings
from app.web import create_app
settings = Settings.from_env({{"AI_API_KEY": "k", "AI_MODEL": "m", "DATA_DIR": "var"}})
create_app(settings, "postgresql://nobody@127.0.0.1:1/none")
print(json.dumps([name for name in {LAZY!r} if name in sys.modules]))
"""


def test_creating_the_app_imports_no_ai_pdf_or_migration_library():
    done = subprocess.run(
        [sys.executable, "-c", CREATE_APP], capture_output=True, text=True, check=True
    )
    assert json.loads(done.stdout) == []


def test_the_migrations_known_at_start_are_yoyos():
    shipped = read_migrations(str(migrations.MIGRATIONS_DIR))
    assert migrations.known_ids() == {migration.id for migration in shipped}


# What the supervising process of `python -m app serve` imports before it supervises: the
# command line, its `serve` command and the supervisor (app/serve.py).
SUPERVISING = """
import json, sys
from app import cli, serve
cli.parser().parse_args(["serve"])
print(json.dumps(sorted(sys.modules)))
"""
# The web's, the database driver's, the templates', the schemas', the migrations' and the
# metrics' libraries: the web processes and serve's start-up process import them. Nor
# structlog (with asyncio under it) nor multiprocessing (whose spawned processes come with a
# resource tracker process): the supervisor logs with logs.Lines and starts its processes with
# subprocess.
NOT_SUPERVISING = (
    "aiohttp",
    "asyncio",
    "structlog",
    "multiprocessing",
    "asyncpg",
    "jinja2",
    "marshmallow",
    "yoyo",
    "psycopg",
    "prometheus_client",
    "app.web",
    "app.web_process",
    "app.commands",
    "jobs",
)


def test_the_supervising_process_imports_no_web_database_or_template_library():
    done = subprocess.run(
        [sys.executable, "-c", SUPERVISING], capture_output=True, text=True, check=True
    )
    imported = set(json.loads(done.stdout))
    assert [name for name in NOT_SUPERVISING if name in imported] == []
    assert {"app.serve", "app.core.supervisor"} <= imported
