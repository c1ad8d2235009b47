""" "Forgot your PIN?": `GET /forgot-pin` (the form: rider ID) and `POST /forgot-pin`, which
sends an active rider a new PIN by message to the phone the training team keeps for them, in
the rider's language (docs/rider-app.md, "Forgot your PIN?").

The new PIN works beside the old one until its first use, which makes it the rider's PIN: a
stranger who asks for one for someone else locks no one out, and only the rider's phone learns
it. The answer is the same page whatever the ID (unknown, inactive, no phone): the message is
sent after the answer, so its time does not tell either.
"""

from __future__ import annotations

import asyncio

import structlog
from aiohttp import web

from app.core import database, middleware
from app.core.config import Settings
from app.core.forms import read
from app.core.keys import POOL, SETTINGS
from app.core.throttle import TooManyAttempts, client_address
from app.messaging.outbox import Draft, record
from app.messaging.provider import Messenger
from app.rider import accounts
from app.rider.forms import ForgotPinForm, chosen_language
from app.rider.layout import asked_language, render
from app.rider.texts import translator
from app.training.pins import pepper_of

log = structlog.get_logger("rider")

routes = web.RouteTableDef()

# What the recorded message shows in place of the PIN: the team's list must sign no one in.
HIDDEN_PIN = "******"

# The sends under way in this process: held here only so that they are not collected
# before they end (a send lost with its process leaves a PIN no one knows, which expires).
_SENDING: set[asyncio.Task] = set()


def _page(request, language, status=200, *, rider_id="", errors=None, problem=None, asked=False):
    context = {
        "rider_id": rider_id,
        "errors": errors or {},
        "problem": problem,
        "asked": asked,
        "chosen_language": language,
    }
    return render(request, "rider/forgot_pin.html", context, status=status, language=language)


@routes.get("/forgot-pin")
async def forgot_pin_page(request: web.Request) -> web.Response:
    return _page(request, asked_language(request))


@routes.post("/forgot-pin")
async def forgot_pin(request: web.Request) -> web.Response:
    form = await request.post()
    values, missing = read(ForgotPinForm(), form)
    language = chosen_language(form)
    rider_id = values.get("rider_id", "")
    if missing:
        return _page(request, language, 400, errors={"rider_id": "field_required"})
    settings = request.app[SETTINGS]
    if not settings.session_secret_ok:
        log.error("SESSION_SECRET must be set", refused="rider new PIN")
        return _page(request, language, 503, rider_id=rider_id, problem=("sign_in_unavailable", {}))
    try:
        new = await accounts.new_pin(
            request.app[POOL], pepper_of(settings), rider_id, client_address(request)
        )
    except TooManyAttempts as exc:
        problem = ("too_many_new_pins", {"minutes": exc.minutes})
        return _page(request, language, 429, rider_id=rider_id, problem=problem)
    except database.UNAVAILABLE as exc:
        middleware.OUTAGES.failure(exc)
        return _page(request, language, 503, rider_id=rider_id, problem=("sign_in_unavailable", {}))
    if new is not None:
        task = asyncio.create_task(send_new_pin(request.app[POOL], settings, new))
        _SENDING.add(task)
        task.add_done_callback(_SENDING.discard)
    return _page(request, language, asked=True)


async def send_new_pin(pool, settings: Settings, new: accounts.NewPin) -> None:
    """Sends the new PIN to the rider's phone (recorded `logged` for the training team when
    messaging is not connected, as every message), and records the message without the PIN."""
    t = translator(new.language)
    link = settings.public_base_url + ("/" if new.language == "en" else f"/?lang={new.language}")
    try:
        async with Messenger(settings) as messenger:
            delivery = await messenger.send_text(
                new.phone, t("new_pin_message", pin=new.pin, link=link)
            )
        kept = Draft(new.rider_id, new.phone, t("new_pin_message", pin=HIDDEN_PIN, link=link), link)
        await record(pool, "pin_reset", [kept], [delivery])
    except Exception:  # after the answer: nobody else would hear of it
        log.exception("new PIN not sent", rider_id=new.rider_id)
        return
    log.info("new PIN", rider_id=new.rider_id, status=delivery.status, error=delivery.error)
