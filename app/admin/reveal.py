"""Secrets the panel shows once (docs/security.md, "Shown once"): a new API key, a new webhook
endpoint's signing secret, a rider's new PIN. One rule for all of them.

The POST that makes the secret answers `see_other`: a 303 to `/admin/shown-once/{reveal_id}`
whose cookie, scoped to that one address, holds the secret XOR a random pad, while an
`admin_reveals` row holds the pad, for the admin session that made it, for REVEAL_SECONDS. The
page takes the pad once (`take_reveal.sql`) and shows the secret; a refresh says it was shown,
and another session finds nothing there (404). The cookie alone, the row alone or the page a
second time reveal nothing, so no secret rests in the database in plain text to be shown.
"""

from __future__ import annotations

import base64
import binascii
import secrets
from dataclasses import dataclass
from urllib.parse import quote

from aiohttp import web

from app.admin import roles
from app.admin.layout import render
from app.core import pages, sessions, sql
from app.core.database import Db
from app.core.keys import POOL, SETTINGS

routes = web.RouteTableDef()

SQL = sql.load("admin", "create_reveal", "take_reveal")

PAGE = "/admin/shown-once"
COOKIE = "admin_reveal"
# How long the pad may be taken: time enough for the redirect, short enough that a secret
# nobody collected is not waiting for long.
REVEAL_SECONDS = 300


@dataclass(frozen=True)
class Kind:
    """What the page says of one kind of secret; `{subject}` is the row's subject."""

    title: str
    use: str
    gone: str
    back: str
    back_text: str


KINDS = {
    "api_key": Kind(
        title="New API key {subject}",
        use="Copy it now and give it to the integrator: the service keeps only its hash.",
        gone="If it was lost, revoke the key and create another.",
        back="/admin/api-keys",
        back_text="Back to the API keys",
    ),
    "webhook_secret": Kind(
        title="Signing secret of the new webhook endpoint",
        use="Copy it now and give it to the integrator: their receiver checks every "
        "delivery's signature with it.",
        gone="If it was lost, delete the endpoint and add it again: the new one has a new secret.",
        back="/admin/webhooks/{subject}",
        back_text="Back to the endpoint",
    ),
    "rider_pin": Kind(
        title="New PIN for rider {subject}",
        use="Give it to the rider now: the service keeps only its hash.",
        gone="If it was lost, reset the PIN again.",
        back="/admin/riders/{subject}",
        back_text="Back to the rider",
    ),
}
NOTHING_HERE = (
    "Nothing is waiting to be shown here. A secret is shown once, within "
    f"{REVEAL_SECONDS // 60} minutes, to the signed-in browser that made it."
)


def _xor(data: bytes, pad: bytes) -> bytes:
    return bytes(a ^ b for a, b in zip(data, pad, strict=True))


async def see_other(
    request: web.Request, db: Db, kind: str, subject: str, secret: str
) -> web.Response:
    """A 303 to the page that shows `secret` (a `kind` of KINDS, about `subject`) once. `db`:
    the action's transaction, so the pad is kept only with what made the secret."""
    pad = secrets.token_bytes(len(secret.encode()))
    session_hash = sessions.id_hash(sessions.ADMIN, request)
    reveal_id = await db.fetchval(
        SQL.create_reveal, session_hash, kind, subject, pad, REVEAL_SECONDS
    )
    location = f"{PAGE}/{reveal_id}"
    response = pages.see_other(location)
    response.set_cookie(
        COOKIE,
        base64.urlsafe_b64encode(_xor(secret.encode(), pad)).decode().rstrip("="),
        max_age=REVEAL_SECONDS,
        path=location,
        httponly=True,
        secure=request.app[SETTINGS].secure_cookies,
        samesite="Strict",
    )
    return response


def _revealed(cookie: str | None, pad: bytes | None) -> str | None:
    if cookie is None or pad is None:
        return None
    try:
        masked = base64.urlsafe_b64decode(cookie + "=" * (-len(cookie) % 4))
        return _xor(masked, pad).decode()
    except (binascii.Error, ValueError):  # damaged, or of another length
        return None


@routes.get(PAGE + "/{reveal_id}")
@roles.needs("viewer")
async def shown_once_page(request: web.Request) -> web.Response:
    """The secret, the one time its pad is taken; afterwards only that it was shown."""
    reveal_id = pages.uuid_in_path(request, "reveal_id")
    session_hash = sessions.id_hash(sessions.ADMIN, request)
    taken = await request.app[POOL].fetchrow(SQL.take_reveal, reveal_id, session_hash)
    if taken is None:
        context = {"title": "Nothing to show", "hint": NOTHING_HERE}
        return render(request, "admin/not_found.html", context, status=404)
    kind = KINDS[taken["kind"]]
    context = {
        "title": kind.title.format(subject=taken["subject"]),
        "secret": _revealed(request.cookies.get(COOKIE), taken["pad"]),
        "kind": kind,
        "back": kind.back.format(subject=quote(taken["subject"], safe="")),
    }
    response = render(request, "admin/shown_once.html", context)
    response.del_cookie(COOKIE, path=request.path)
    return response
