"""The webhooks pages (docs/webhooks.md): endpoints added, disabled and enabled, deleted (after a
page that asks), sent a test event; each endpoint's deliveries, with "Replay". The signing
secret is shown once, on the page the add redirects to (`app.admin.reveal`); the panel never
shows it again. An
endpoint's URL must reach public addresses only (docs/webhooks.md#addresses): checked when it
is added, and again by the delivery loop before every attempt, test events included."""

from __future__ import annotations

import uuid
from urllib.parse import urlsplit

import structlog
from aiohttp import web
from marshmallow import Schema, fields, validate

from app.admin import notices, reveal, roles
from app.admin.guard import ADMIN, actor
from app.admin.layout import render
from app.core import audit, pages, sql
from app.core.database import Db
from app.core.forms import read
from app.core.keys import POOL, SETTINGS
from app.webhooks import endpoints, events, signing

log = structlog.get_logger("admin.webhooks")

routes = web.RouteTableDef()

SQL = sql.load(
    "admin",
    "webhook_endpoints",
    "webhook_endpoint",
    "add_webhook_endpoint",
    "set_webhook_endpoint_enabled",
    "delete_webhook_endpoint",
    "webhook_deliveries",
    "replay_webhook_delivery",
)


# The latest deliveries an endpoint's page lists.
PAGE_SIZE = 50
NO_EVENT = "Choose at least one event."
# What the endpoint's page says after an action.
ENABLED = {
    True: "The endpoint is enabled: its deliveries are sent again.",
    False: "The endpoint is disabled: nothing is sent to it, and it takes no new events.",
}


class EndpointForm(Schema):
    """The add form; its URL's rules depend on a setting and a lookup: `add_endpoint` checks
    them."""

    url = fields.String(required=True)
    events = fields.List(
        fields.String(validate=validate.OneOf(events.EVENT_TYPES)),
        required=True,
        validate=validate.Length(min=1, error=NO_EVENT),
        error_messages={"required": NO_EVENT},
    )
    description = fields.String(
        load_default="", validate=validate.Length(max=endpoints.MAX_DESCRIPTION_LENGTH)
    )


async def insert_endpoint(db: Db, values: dict, secret: str) -> uuid.UUID:
    return await db.fetchval(
        SQL.add_webhook_endpoint, values["url"], values["events"], values["description"], secret
    )


async def set_enabled(db: Db, endpoint_id: uuid.UUID, enabled: bool) -> bool:
    """Whether the endpoint exists."""
    return bool(await db.fetchval(SQL.set_webhook_endpoint_enabled, endpoint_id, enabled))


async def delete(db: Db, endpoint_id: uuid.UUID) -> bool:
    """Delete the endpoint and its deliveries; whether it existed."""
    return bool(await db.fetchval(SQL.delete_webhook_endpoint, endpoint_id))


async def replay(db: Db, endpoint_id: uuid.UUID, delivery_id: int) -> bool:
    """Send the delivery again now; whether it exists."""
    return bool(await db.fetchval(SQL.replay_webhook_delivery, endpoint_id, delivery_id))


@routes.get("/admin/webhooks")
@roles.needs("owner")
async def webhooks_page(
    request: web.Request, status: int = 200, *, values=None, errors=None
) -> web.Response:
    """The endpoints; the add form's POST shows it again with `status` and its errors."""
    context = {
        "endpoints": await request.app[POOL].fetch(SQL.webhook_endpoints),
        "event_types": events.EVENT_TYPES,
        "values": values or {},
        "errors": errors or {},
        "allow_private": request.app[SETTINGS].webhooks_allow_private,
    }
    return render(request, "admin/webhooks/list.html", context, status=status)


async def _endpoint(request: web.Request, endpoint_id: uuid.UUID):
    endpoint = await request.app[POOL].fetchrow(SQL.webhook_endpoint, endpoint_id)
    if endpoint is None:
        raise web.HTTPNotFound
    return endpoint


async def _back(request: web.Request, db: Db, endpoint_id: uuid.UUID, message: str):
    """303 to the endpoint's page, which says `message` once."""
    return await notices.see_other(request, f"/admin/webhooks/{endpoint_id}", message, db)


@routes.post("/admin/webhooks")
@roles.needs("owner")
async def add_endpoint(request: web.Request) -> web.Response:
    values, errors = read(EndpointForm(), await request.post())
    allow_private = request.app[SETTINGS].webhooks_allow_private
    if "url" not in errors and (problem := await endpoints.problem(values["url"], allow_private)):
        errors = {**errors, "url": problem}
    if errors:
        return await webhooks_page(request, 400, values=values, errors=errors)
    secret = signing.new_secret()
    async with request.app[POOL].acquire() as conn, conn.transaction():
        endpoint_id = await insert_endpoint(conn, values, secret)
        # The host only: an endpoint's path or query may carry the receiver's own token.
        fields = {"host": urlsplit(values["url"]).hostname, "events": values["events"]}
        summary = audit.described(fields)
        await audit.record(conn, actor(request), "webhook.created", str(endpoint_id), summary)
        log.info("webhook endpoint added", endpoint_id=str(endpoint_id), by=request[ADMIN].admin_id)
        return await reveal.see_other(request, conn, "webhook_secret", str(endpoint_id), secret)


@routes.get("/admin/webhooks/{endpoint_id}")
@roles.needs("owner")
async def endpoint_page(request: web.Request) -> web.Response:
    endpoint_id = pages.uuid_in_path(request, "endpoint_id")
    context = {
        "endpoint": await _endpoint(request, endpoint_id),
        "deliveries": await request.app[POOL].fetch(SQL.webhook_deliveries, endpoint_id, PAGE_SIZE),
        "page_size": PAGE_SIZE,
    }
    return render(request, "admin/webhooks/endpoint.html", context)


async def _set_enabled(request: web.Request, enabled: bool) -> web.Response:
    endpoint_id = pages.uuid_in_path(request, "endpoint_id")
    action = "webhook.enabled" if enabled else "webhook.disabled"
    async with request.app[POOL].acquire() as conn, conn.transaction():
        if not await set_enabled(conn, endpoint_id, enabled):
            raise web.HTTPNotFound
        await audit.record(conn, actor(request), action, str(endpoint_id))
        return await _back(request, conn, endpoint_id, ENABLED[enabled])


@routes.post("/admin/webhooks/{endpoint_id}/enable")
@roles.needs("owner")
async def enable_endpoint(request: web.Request) -> web.Response:
    return await _set_enabled(request, True)


@routes.post("/admin/webhooks/{endpoint_id}/disable")
@roles.needs("owner")
async def disable_endpoint(request: web.Request) -> web.Response:
    return await _set_enabled(request, False)


@routes.post("/admin/webhooks/{endpoint_id}/test")
@roles.needs("owner")
async def send_test_event(request: web.Request) -> web.Response:
    endpoint = await _endpoint(request, pages.uuid_in_path(request, "endpoint_id"))
    async with request.app[POOL].acquire() as conn, conn.transaction():
        await events.send_test(conn, endpoint["endpoint_id"])
        target = str(endpoint["endpoint_id"])
        await audit.record(conn, actor(request), "webhook.test_sent", target)
        message = "A test event is on its way; it appears below."
        return await _back(request, conn, endpoint["endpoint_id"], message)


@routes.get("/admin/webhooks/{endpoint_id}/delete")
@roles.needs("owner")
async def delete_page(request: web.Request) -> web.Response:
    endpoint = await _endpoint(request, pages.uuid_in_path(request, "endpoint_id"))
    return render(request, "admin/webhooks/delete.html", {"endpoint": endpoint})


@routes.post("/admin/webhooks/{endpoint_id}/delete")
@roles.needs("owner")
async def delete_endpoint(request: web.Request) -> web.Response:
    endpoint_id = pages.uuid_in_path(request, "endpoint_id")
    async with request.app[POOL].acquire() as conn, conn.transaction():
        if not await delete(conn, endpoint_id):
            raise web.HTTPNotFound
        await audit.record(conn, actor(request), "webhook.deleted", str(endpoint_id))
        log.info(
            "webhook endpoint deleted", endpoint_id=str(endpoint_id), by=request[ADMIN].admin_id
        )
        message = "The endpoint is deleted with its deliveries: nothing is sent to it any more."
        return await notices.see_other(request, "/admin/webhooks", message, conn)


@routes.post("/admin/webhooks/{endpoint_id}/deliveries/{delivery_id:[0-9]{1,18}}/replay")
@roles.needs("owner")
async def replay_delivery(request: web.Request) -> web.Response:
    endpoint_id = pages.uuid_in_path(request, "endpoint_id")
    delivery_id = int(request.match_info["delivery_id"])
    async with request.app[POOL].acquire() as conn, conn.transaction():
        if not await replay(conn, endpoint_id, delivery_id):
            raise web.HTTPNotFound
        summary = f"delivery {delivery_id}"
        await audit.record(
            conn, actor(request), "webhook.delivery_replayed", str(endpoint_id), summary
        )
        message = f"The delivery msg_{delivery_id} is sent again now."
        return await _back(request, conn, endpoint_id, message)
