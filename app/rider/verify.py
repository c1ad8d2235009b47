"""The public verification page `GET /verify/<proofCode>` (docs/rider-app.md#verification): no
sign-in; it shows only the course, the completion date, the rider's first name and last-name
initial.

Proof codes must not be enumerable faster than the sign-in limits allow: unknown codes count
as failures of the client address (`sign_in_attempts`, kind `verify`), 5 in 15 minutes, the
sign-in rule; past that every check answers 429 for a while.
"""

from __future__ import annotations

import re

import structlog
from aiohttp import web

from app.core import throttle
from app.core.keys import POOL
from app.rider import progress, store
from app.rider.layout import asked_language, render

log = structlog.get_logger("rider.verify")

routes = web.RouteTableDef()

# The client address is the subject: 5 unknown codes in 15 minutes.
THROTTLE = throttle.Limits("verify", per_subject=5, per_address=5)
PROOF_CODE = re.compile(r"[ABCDEFGHJKMNPQRSTVWXYZ2-9]{8}")


@routes.get("/verify/{proof_code}")
async def verify_page(request: web.Request) -> web.Response:
    language = asked_language(request)
    pool = request.app[POOL]
    address = throttle.client_address(request)
    try:
        attempt = await throttle.admit(pool, THROTTLE, address, address)
    except throttle.TooManyAttempts as exc:
        log.info("proof check throttled")
        context = {"found": None, "minutes": exc.minutes}
        return render(request, "rider/verify.html", context, status=429, language=language)
    code = request.match_info["proof_code"]
    found = await store.verify_proof(pool, code) if PROOF_CODE.fullmatch(code) else None
    if found is None:
        return render(request, "rider/verify.html", {"found": None}, status=404, language=language)
    await throttle.forget(pool, attempt)
    context = {"found": found, "code": code, "name": progress.public_name(found["name"])}
    return render(request, "rider/verify.html", context, language=language)
