"""The API keys page (docs/security.md, "API keys"), owners only: the integrators' keys with
their scopes, first characters, dates and last use, the environment's keys beside them; create
one (shown once by `app.admin.reveal`: the database keeps only its hash), revoke one (after a
page that asks)."""

from __future__ import annotations

from datetime import UTC, datetime

from aiohttp import web
from marshmallow import Schema, ValidationError, fields, validate

from app.admin import notices, reveal, roles
from app.admin.guard import actor
from app.admin.layout import render
from app.core import api_keys, audit, pages, sql
from app.core.forms import read
from app.core.keys import POOL, SETTINGS

routes = web.RouteTableDef()

SQL = sql.load("admin", "api_keys", "api_key")

PAGE = "/admin/api-keys"
KEY_PATH = PAGE + "/{key_id:[0-9]{1,18}}"
NO_SCOPE = "Choose at least one scope."


def _problem(check):
    def validate_value(value):
        if problem := check(value):
            raise ValidationError(problem)

    return validate_value


def _days(text: str) -> None:
    try:
        api_keys.expiry_days(text)
    except ValueError as exc:
        raise ValidationError(str(exc)) from None


class KeyForm(Schema):
    name = fields.String(required=True, validate=_problem(api_keys.name_problem))
    scopes = fields.List(
        fields.String(validate=validate.OneOf(api_keys.SCOPES)),
        required=True,
        validate=validate.Length(min=1, error=NO_SCOPE),
        error_messages={"required": NO_SCOPE},
    )
    # Blank: never expires.
    expires_days = fields.String(validate=_days)


def _environment_keys(request: web.Request) -> list[dict]:
    """The scopes whose key is set in the environment (the key itself is never shown)."""
    settings = request.app[SETTINGS]
    return [
        {"scope": scope, "variable": setting.upper()}
        for scope, setting in api_keys.SCOPES.items()
        if getattr(settings, setting) is not None
    ]


@routes.get(PAGE)
@roles.needs("owner")
async def api_keys_page(
    request: web.Request, status: int = 200, *, values=None, errors=None
) -> web.Response:
    """The keys and the create form; the form's POST shows it again with `status` and its
    errors."""
    context = {
        "keys": await request.app[POOL].fetch(SQL.api_keys),
        "environment": _environment_keys(request),
        "scopes": api_keys.SCOPES,
        "values": values or {},
        "errors": errors or {},
        "now": datetime.now(UTC),
    }
    return render(request, "admin/api_keys/list.html", context, status=status)


@routes.post(PAGE)
@roles.needs("owner")
async def create_api_key(request: web.Request) -> web.Response:
    values, errors = read(KeyForm(), await request.post())
    if errors:
        return await api_keys_page(request, 400, values=values, errors=errors)
    days = values.get("expires_days")
    days = None if days is None else api_keys.expiry_days(days)
    name, scopes = values["name"], list(dict.fromkeys(values["scopes"]))
    async with request.app[POOL].acquire() as conn, conn.transaction():
        created = await api_keys.create(conn, name, scopes, days)
        if created is not None:
            summary = api_keys.summary(scopes, days)
            await audit.record(conn, actor(request), "api_key.created", name, summary)
            return await reveal.see_other(request, conn, "api_key", name, created.key)
    errors = {"name": "A key with this name exists already (names are never reused)."}
    return await api_keys_page(request, 400, values=values, errors=errors)


async def _key(request: web.Request):
    key = await request.app[POOL].fetchrow(SQL.api_key, int(request.match_info["key_id"]))
    if key is None:
        raise web.HTTPNotFound
    return key


@routes.get(KEY_PATH + "/revoke")
@roles.needs("owner")
async def revoke_page(request: web.Request) -> web.Response:
    key = await _key(request)
    if key["revoked_at"] is not None:
        return pages.see_other(PAGE)
    context = {
        "title": f"Revoke the API key {key['name']}?",
        "facts": [
            f"Requests with the key {key['key_start']}… (scopes {', '.join(key['scopes'])}) are "
            "refused on every instance within 5 seconds. This cannot be undone.",
            "To rotate a key, create the new one and switch the integrator to it first.",
        ],
        "action": request.path,
        "button": "Revoke the key",
        "back": PAGE,
        "back_text": "Keep it",
    }
    return render(request, "admin/confirm.html", context)


@routes.post(KEY_PATH + "/revoke")
@roles.needs("owner")
async def revoke_api_key(request: web.Request) -> web.Response:
    key = await _key(request)
    async with request.app[POOL].acquire() as conn, conn.transaction():
        scopes = await api_keys.revoke(conn, key["name"])
        if scopes is not None:
            summary = api_keys.summary(scopes)
            await audit.record(conn, actor(request), "api_key.revoked", key["name"], summary)
        message = f"The key {key['name']} is revoked: every instance refuses it within 5 seconds."
        return await notices.see_other(request, PAGE, message, conn)
