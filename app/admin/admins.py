"""The admins page: add an admin, disable one (their sessions end at once); the last active
admin cannot be disabled, so the panel always has someone who can sign in."""

from __future__ import annotations

import asyncpg
import structlog
from aiohttp import web
from marshmallow import Schema, fields, validate

from app.admin.guard import ADMIN, actor
from app.admin.layout import render
from app.admin.sign_in import SetupForm
from app.core import audit, pages, sessions, sql
from app.core.database import Db
from app.core.forms import read
from app.core.keys import POOL
from app.core.passwords import hash_password

log = structlog.get_logger("admin.admins")

routes = web.RouteTableDef()


class AdminForm(SetupForm):
    """Another admin, added in the panel: the setup form's fields without its token."""

    class Meta:
        exclude = ("token",)


class DisableAdminForm(Schema):
    email = fields.String(required=True, validate=validate.Length(min=1, max=254))


SQL = sql.load(
    "admin",
    "admins_list",
    "add_admin",
    "lock_admins",
    "disable_admin",
)


async def admin_list(db: Db) -> list[asyncpg.Record]:
    return await db.fetch(SQL.admins_list)


async def insert_admin(db: Db, email: str, name: str, password_hash: str) -> int | None:
    """The new admin's id, or None when an admin has that email."""
    return await db.fetchval(SQL.add_admin, email, name, password_hash)


async def disable_unless_last(conn: asyncpg.Connection, email: str) -> asyncpg.Record | None:
    """Disables the admin unless it is the last active one, in the caller's transaction (see
    sql/admin/disable_admin.sql for the answer)."""
    await conn.execute(SQL.lock_admins)
    return await conn.fetchrow(SQL.disable_admin, email)


EMAIL_TAKEN = "An admin with this email exists."
NO_SUCH_ADMIN = "No admin has this email."
ALREADY_DISABLED = "This admin is already disabled."
LAST_ADMIN = "This is the last active admin: add another admin before disabling this one."


@routes.get("/admin/admins")
async def admins_page(
    request: web.Request, status: int = 200, *, values=None, errors=None, form=None
) -> web.Response:
    """The admins; a form's POST shows it again with `status`, what was entered and why it
    was refused."""
    context = {
        "admins": await admin_list(request.app[POOL]),
        "values": values or {},
        "errors": errors or {},
        "form": form,
    }
    return render(request, "admin/admins.html", context, status=status)


@routes.post("/admin/admins")
async def add_admin(request: web.Request) -> web.Response:
    values, errors = read(AdminForm(), await request.post())
    if errors:
        return await admins_page(request, 400, values=values, errors=errors, form="add")
    password_hash = await hash_password(values["password"])
    async with request.app[POOL].acquire() as conn, conn.transaction():
        admin_id = await insert_admin(conn, values["email"], values["name"], password_hash)
        if admin_id is not None:
            summary = f"name {values['name']}, added in the panel"
            await audit.record(conn, actor(request), "admin.created", values["email"], summary)
    if admin_id is None:
        entered = {"email": values["email"], "name": values["name"]}
        errors = {"email": EMAIL_TAKEN}
        return await admins_page(request, 400, values=entered, errors=errors, form="add")
    log.info("admin added", admin_id=admin_id, by=request[ADMIN].admin_id)
    return pages.see_other("/admin/admins")


@routes.get("/admin/admins/disable")
async def disable_admin_page(request: web.Request) -> web.Response:
    """What disabling the admin named by `email` will do, with the button that does it; the
    refusals the POST would give are given here already."""
    values, errors = read(DisableAdminForm(), request.query)
    if errors:
        return await admins_page(request, 400, values=values, errors=errors, form="disable")
    admins = await admin_list(request.app[POOL])
    email = values["email"].lower()
    target = next((a for a in admins if a["email"].lower() == email), None)
    if target is None:
        errors = {"email": NO_SUCH_ADMIN}
    elif target["disabled_at"] is not None:
        errors = {"email": ALREADY_DISABLED}
    elif sum(a["disabled_at"] is None for a in admins) == 1:
        errors = {"email": LAST_ADMIN}
    if errors:
        return await admins_page(request, 400, values=values, errors=errors, form="disable")
    themselves = target["email"].lower() == request[ADMIN].email.lower()
    context = {
        "title": f"Disable {target['name']} ({target['email']})?",
        "facts": (
            "They can no longer sign in, and their sessions end at once.",
            "You are disabling yourself: you will be signed out."
            if themselves
            else "The panel has no way to enable a disabled admin again.",
        ),
        "action": "/admin/admins/disable",
        "fields": {"email": target["email"]},
        "button": "Disable admin",
        "back": "/admin/admins",
        "back_text": "Keep them",
    }
    return render(request, "admin/confirm.html", context)


@routes.post("/admin/admins/disable")
async def disable_admin(request: web.Request) -> web.Response:
    values, errors = read(DisableAdminForm(), await request.post())
    if not errors:
        async with request.app[POOL].acquire() as conn, conn.transaction():
            row = await disable_unless_last(conn, values["email"])
            if row is None:
                errors = {"email": NO_SUCH_ADMIN}
            elif row["already"]:
                errors = {"email": ALREADY_DISABLED}
            elif not row["others"]:
                errors = {"email": LAST_ADMIN}
            else:
                await sessions.revoke_admin(conn, row["admin_id"])
                summary = "sessions ended"
                await audit.record(conn, actor(request), "admin.disabled", values["email"], summary)
    if errors:
        return await admins_page(request, 400, values=values, errors=errors, form="disable")
    log.info("admin disabled", admin_id=row["admin_id"], by=request[ADMIN].admin_id)
    # An admin who disabled themselves has no session any more: the next page is sign-in.
    return pages.see_other("/admin/admins")
