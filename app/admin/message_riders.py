"""A text message an editor writes to the riders ticked on the riders list (docs/admin-riders.md,
"Message the riders ticked"): written, asked first with the count it would reach, then sent
and recorded (kind `admin`) for all of them in one statement."""

from __future__ import annotations

import uuid
from collections import Counter

import asyncpg
from aiohttp import web
from marshmallow import Schema, ValidationError, fields, validate, validates

from app.admin import notices, roles
from app.admin.guard import ADMIN, actor
from app.admin.layout import render
from app.core import audit, sql
from app.core.fields import Integer, Text
from app.core.forms import read
from app.core.keys import POOL, SETTINGS
from app.messaging.outbox import Draft, deliver, record
from app.messaging.provider import Messenger
from app.training.assignments import MAX_VALUE_LENGTH

routes = web.RouteTableDef()

SQL = sql.load("admin", "message_recipients", "claim_message_send")

# A text message, not a letter: what fits a phone's screen or two.
MAX_BODY_LENGTH = 500
# More than a riders list page holds (50), few enough to send while the editor waits.
MAX_RIDERS = 500
NO_RIDERS = "Tick at least one rider on the riders list."


class MessageForm(Schema):
    """The message form: `rider_ids` one ID a line (or space), the message's `body`."""

    rider_ids = fields.String(required=True, error_messages={"required": NO_RIDERS})
    body = Text(
        required=True,
        validate=validate.Length(
            max=MAX_BODY_LENGTH, error=f"Write at most {MAX_BODY_LENGTH} characters."
        ),
        error_messages={"required": "Write the message."},
    )
    confirm = fields.String(validate=validate.Equal("1"))
    # The riders the confirmation counted: a confirm that would now reach another number
    # sends nothing and asks again.
    expected_count = Integer(validate=validate.Range(min=0))
    # The confirm page's own random id: the first POST that carries it sends, any later one
    # (a double-click, a resent form) is told it went already.
    send_id = fields.UUID()

    @validates("rider_ids")
    def _rider_ids(self, value: str, **_) -> None:
        ids = value.split()
        if len(ids) > MAX_RIDERS:
            raise ValidationError(f"Message at most {MAX_RIDERS} riders at once.")
        if any(len(rider_id) > MAX_VALUE_LENGTH for rider_id in ids):
            raise ValidationError(f"A rider ID has at most {MAX_VALUE_LENGTH} characters.")


class Recipients:
    """The riders ticked as the admin may message them: `reachable` ones get the message,
    `skipped` ones (inactive, or without a phone) do not; riders outside the admin's markets
    (or unknown IDs) are in neither."""

    def __init__(self, rows: list[asyncpg.Record]) -> None:
        self.reachable = [row for row in rows if row["reachable"]]
        self.skipped = len(rows) - len(self.reachable)


async def _recipients(request: web.Request, rider_ids: str) -> Recipients:
    markets = roles.market_limit(request[ADMIN])
    rows = await request.app[POOL].fetch(
        SQL.message_recipients, sorted(set(rider_ids.split())), markets
    )
    return Recipients(rows)


def _riders(count: int) -> str:
    return f"{count:,} rider{'' if count == 1 else 's'}"


def _facts(ticked: int, recipients: Recipients) -> list[str]:
    count = len(recipients.reachable)
    facts = [f"{_riders(count)} of the {_riders(ticked)} ticked would get this message."]
    if recipients.skipped:
        facts.append(f"{_riders(recipients.skipped)} skipped: inactive, or without a phone.")
    if left := ticked - count - recipients.skipped:
        facts.append(f"{_riders(left)} not counted: not of your markets.")
    return facts


@routes.get("/admin/messages/new")
@roles.needs("editor")
async def message_page(
    request: web.Request, status: int = 200, *, values=None, errors=None
) -> web.Response:
    """The form, with the riders ticked on the riders list (`rider_ids`, repeated)."""
    if values is None:
        values = {"rider_ids": "\n".join(request.query.getall("rider_ids", []))}
    ids = values.get("rider_ids", "")
    ticked = len(set(ids.split()))
    recipients = await _recipients(request, ids) if ticked and not errors else None
    context = {
        "values": values,
        "errors": errors or {},
        "facts": _facts(ticked, recipients) if recipients else [],
        "max_length": MAX_BODY_LENGTH,
    }
    return render(request, "admin/message_new.html", context, status=status)


async def _confirm_page(request, values, recipients, status=200, *, changed=False):
    """Asks before sending, with the count it would reach now."""
    count = len(recipients.reachable)
    ticked = len(set(values["rider_ids"].split()))
    context = {
        "title": f"Send this message to {_riders(count)}?",
        "facts": [
            *_facts(ticked, recipients),
            f"“{values['body']}”",
            "It cannot be called back.",
        ],
        "action": "/admin/messages/new",
        "fields": {
            "rider_ids": values["rider_ids"],
            "body": values["body"],
            "expected_count": count,
            "send_id": str(uuid.uuid4()),
            "confirm": "1",
        },
        "button": f"Send to {_riders(count)}",
        "back": "/admin/riders",
        "back_text": "Cancel",
        "problem": (
            f"Nothing was sent: the riders changed; {_riders(count)} would now get it."
            if changed
            else None
        ),
    }
    return render(request, "admin/confirm.html", context, status=status)


@routes.post("/admin/messages/new")
@roles.needs("editor")
async def send_message(request: web.Request) -> web.Response:
    values, errors = read(MessageForm(), await request.post())
    if errors:
        return await message_page(request, 400, values=values, errors=errors)
    recipients = await _recipients(request, values["rider_ids"])
    count = len(recipients.reachable)
    if not count:
        none = {"rider_ids": "None of the riders ticked can get a message."}
        return await message_page(request, 400, values=values, errors=none)
    if values.get("confirm") != "1" or not {"expected_count", "send_id"} <= values.keys():
        return await _confirm_page(request, values, recipients)
    if count != values["expected_count"]:
        return await _confirm_page(request, values, recipients, 409, changed=True)
    pool = request.app[POOL]
    if (
        await pool.fetchval(SQL.claim_message_send, values["send_id"], request[ADMIN].admin_id)
        is None
    ):
        once = "This message was sent already: it was not sent again."
        return await notices.see_other(request, "/admin/messages?kind=admin", once)
    body = values["body"]
    drafts = [Draft(row["rider_id"], row["phone"], body, None) for row in recipients.reachable]
    async with Messenger(request.app[SETTINGS]) as messenger:
        deliveries = await deliver(messenger, drafts)
    statuses = Counter(delivery.status for delivery in deliveries)
    outcome = ", ".join(f"{statuses[name]} {name}" for name in ("sent", "failed", "logged"))
    async with pool.acquire() as conn, conn.transaction():
        await record(conn, "admin", drafts, deliveries)
        summary = f"{_riders(count)} messaged: {outcome}"
        await audit.record(conn, actor(request), "messages.sent_by_admin", None, summary)
        done = f"{count:,} message{'' if count == 1 else 's'} recorded: {outcome}."
        return await notices.see_other(request, "/admin/messages?kind=admin", done, conn)
