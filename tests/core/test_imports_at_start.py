"""A web process at rest holds no library it has not used yet (DESIGN §11, memory): the AI
client (openai), the PDF reader (pypdf) and the migration tool (yoyo, psycopg) are imported
when first used. `python -m bench memory` measures what that leaves."""

import json
import subprocess
import sys

from yoyo import read_migrations

from app.core import migrations

LAZY = ("openai", "pypdf", "yoyo", "psycopg")

# The web process's own imports (`app.web_process`, what its spawned target runs) and its
# app, with the AI configured.
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
