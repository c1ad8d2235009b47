"""A session secret for the embedded default (docs/operations.md, "The first minute"): when
the service runs on its embedded database and SESSION_SECRET is not set, one is generated the
first time and kept in `$DATA_DIR/session-secret` (mode 0600), so the README's run command
gives a panel one can sign in to, and sessions, one-tap links and PINs' pepper stay valid
across restarts. With DATABASE_URL set nothing is generated: a deployment sets its secret.
"""

from __future__ import annotations

import dataclasses
import os
import secrets
import sys

from app.core.config import Settings

FILE_NAME = "session-secret"


def _read_or_create(path) -> tuple[str, bool]:
    """The kept secret, and whether it was made now. O_EXCL: of two commands starting at once
    on one DATA_DIR, one writes the file and both read the same secret."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text(encoding="ascii").strip(), False
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        file.write(secrets.token_urlsafe(32) + "\n")
    return path.read_text(encoding="ascii").strip(), True


def kept(settings: Settings) -> Settings:
    """`settings` with the kept secret where the embedded default runs without one. The
    secret is put in the environment too, for the processes `serve` starts."""
    if settings.database_url is not None or settings.session_secret is not None:
        return settings
    path = settings.data_dir / FILE_NAME
    secret, made = _read_or_create(path)
    if made:
        print(f"SESSION_SECRET is not set: generated one, kept in {path}", file=sys.stderr)
    os.environ["SESSION_SECRET"] = secret
    return dataclasses.replace(settings, session_secret=secret)
