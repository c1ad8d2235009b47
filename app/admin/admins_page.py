"""The admins page (owners only): add an admin, set an admin's role and markets (from their
next request), disable one (their sessions end at once). The last active owner can be neither
disabled nor given another role, so the panel always has an owner."""

from __future__ import annotations

import asyncpg
import structlog
from aiohttp import web
from marshmallow import Schema, fields, post_load, validate

from app.admin import accounts, notices, roles
from app.admin.guard import ADMIN, actor
from app.admin.layout import render
from app.admin.sign_in import SetupForm
from app.core import audit, sessions, sql
from app.core.database import Db
from app.core.forms import read
from app.core.keys import POOL
from app.core.passwords import hash_password
from app.training.riders import MARKETS

log = structlog.get_logger("admin.admins")

routes = web.RouteTableDef()


ROLE_CHOICE = validate.OneOf(roles.ROLES, error="Choose owner, editor or viewer.")
MARKETS_FIELD = fields.List(
    fields.String(validate=validate.OneOf(MARKETS, error="{input} is not a market code.")),
    load_default=list,
)


class MarketsOnce(Schema):
    """A form's markets, each once (a repeated checkbox value adds nothing)."""

    @post_load
    def _once(self, data: dict, **_) -> dict:
        return {**data, "markets": list(dict.fromkeys(data["markets"]))}


class AdminForm(SetupForm, MarketsOnce):
    """Another admin, added in the panel: the setup form's fields without its token, and the
    role and markets (none: every market)."""

    # A new admin is an editor unless made otherwise.
    role = fields.String(load_default="editor", validate=ROLE_CHOICE)
    markets = MARKETS_FIELD

    class Meta:
        exclude = ("token",)


class AdminRoleForm(MarketsOnce):
    email = fields.String(required=True, validate=validate.Length(min=1, max=254))
    role = fields.String(required=True, validate=ROLE_CHOICE)
    markets = MARKETS_FIELD


class DisableAdminForm(Schema):
    email = fields.String(required=True, validate=validate.Length(min=1, max=254))


SQL = sql.load(
    "admin",
    "admins_list",
    "add_admin",
    "lock_admins",
    "disable_admin",
    "set_admin_role",
)


async def admin_list(db: Db) -> list[asyncpg.Record]:
    return await db.fetch(SQL.admins_list)


async def insert_admin(db: Db, values: dict, password_hash: str) -> int | None:
    """The new admin's id, or None when an admin has that email."""
    return await db.fetchval(
        SQL.add_admin,
        values["email"],
        values["name"],
        password_hash,
        values["role"],
        values["markets"],
    )


async def disable_unless_last(conn: asyncpg.Connection, email: str) -> asyncpg.Record | None:
    """Disables the admin unless it is the last active owner, in the caller's transaction (see
    sql/admin/disable_admin.sql for the answer)."""
    await accounts.lock_admins(conn)
    return await conn.fetchrow(SQL.disable_admin, email)


async def set_role_unless_last(
    conn: asyncpg.Connection, email: str, role: str, markets: list[str]
) -> asyncpg.Record | None:
    """Sets the admin's role and markets unless that takes the role of the last active owner,
    in the caller's transaction (see sql/admin/set_admin_role.sql for the answer)."""
    await accounts.lock_admins(conn)
    return await conn.fetchrow(SQL.set_admin_role, email, role, markets)


EMAIL_TAKEN = "An admin with this email exists."
NO_SUCH_ADMIN = "No admin has this email."
ALREADY_DISABLED = "This admin is already disabled."
LAST_OWNER = "This is the last active owner: make another admin an owner before disabling this one."
LAST_OWNER_ROLE = (
    "This is the last active owner: make another admin an owner before giving this one "
    "another role."
)


@routes.get("/admin/admins")
@roles.needs("owner")
async def admins_page(
    request: web.Request, status: int = 200, *, values=None, errors=None, form=None
) -> web.Response:
    """The admins; a form's POST shows it again with `status`, what was entered and why it
    was refused."""
    context = {
        "admins": await admin_list(request.app[POOL]),
        "roles": tuple(reversed(roles.ROLES)),
        "markets": MARKETS,
        "values": values or {},
        "errors": errors or {},
        "form": form,
    }
    return render(request, "admin/admins.html", context, status=status)


@routes.post("/admin/admins")
@roles.needs("owner")
async def add_admin(request: web.Request) -> web.Response:
    values, errors = read(AdminForm(), await request.post())
    if errors:
        return await admins_page(request, 400, values=values, errors=errors, form="add")
    password_hash = await hash_password(values["password"])
    async with request.app[POOL].acquire() as conn, conn.transaction():
        admin_id = await insert_admin(conn, values, password_hash)
        if admin_id is not None:
            role = accounts.role_text(values["role"], values["markets"])
            await audit.record(conn, actor(request), "admin.created", values["email"], role)
    if admin_id is None:
        entered = {key: values[key] for key in ("email", "name", "role", "markets")}
        errors = {"email": EMAIL_TAKEN}
        return await admins_page(request, 400, values=entered, errors=errors, form="add")
    log.info("admin added", admin_id=admin_id, by=request[ADMIN].admin_id)
    done = f"{values['name']} ({values['email']}) can now sign in as {role}."
    return await notices.see_other(request, "/admin/admins", done)


def _active_owners(admins: list[asyncpg.Record]) -> int:
    return sum(a["disabled_at"] is None and a["role"] == "owner" for a in admins)


@routes.post("/admin/admins/role")
@roles.needs("owner")
async def set_admin_role(request: web.Request) -> web.Response:
    """Sets an admin's role and markets; they count from that admin's next request (the guard
    loads the admin on each one). An owner who takes the role from themselves goes to the
    dashboard, since this page is no longer theirs."""
    values, errors = read(AdminRoleForm(), await request.post())
    if not errors:
        async with request.app[POOL].acquire() as conn, conn.transaction():
            row = await set_role_unless_last(
                conn, values["email"], values["role"], values["markets"]
            )
            if row is None:
                errors = {"email": NO_SUCH_ADMIN}
            elif row["last_owner"]:
                errors = {"email": LAST_OWNER_ROLE}
            elif (row["role"], list(row["markets"])) != (values["role"], values["markets"]):
                change = accounts.role_change(
                    row["role"], row["markets"], values["role"], values["markets"]
                )
                await audit.record(
                    conn, actor(request), "admin.role_changed", values["email"], change
                )
    if errors:
        return await admins_page(request, 400, values=values, errors=errors, form="role")
    log.info("admin role set", admin_id=row["admin_id"], by=request[ADMIN].admin_id)
    themselves = row["admin_id"] == request[ADMIN].admin_id
    role = accounts.role_text(values["role"], list(dict.fromkeys(values["markets"])))
    return await notices.see_other(
        request,
        "/admin" if themselves and values["role"] != "owner" else "/admin/admins",
        f"{values['email']} is now {role}, from their next page.",
    )


@routes.get("/admin/admins/disable")
@roles.needs("owner")
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
    elif target["role"] == "owner" and _active_owners(admins) == 1:
        errors = {"email": LAST_OWNER}
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
@roles.needs("owner")
async def disable_admin(request: web.Request) -> web.Response:
    values, errors = read(DisableAdminForm(), await request.post())
    if not errors:
        async with request.app[POOL].acquire() as conn, conn.transaction():
            row = await disable_unless_last(conn, values["email"])
            if row is None:
                errors = {"email": NO_SUCH_ADMIN}
            elif row["already"]:
                errors = {"email": ALREADY_DISABLED}
            elif row["last_owner"]:
                errors = {"email": LAST_OWNER}
            else:
                await sessions.revoke_admin(conn, row["admin_id"])
                summary = "sessions ended"
                await audit.record(conn, actor(request), "admin.disabled", values["email"], summary)
    if errors:
        return await admins_page(request, 400, values=values, errors=errors, form="disable")
    log.info("admin disabled", admin_id=row["admin_id"], by=request[ADMIN].admin_id)
    # An admin who disabled themselves has no session any more: the next page is sign-in.
    done = f"{values['email']} is disabled; their sessions ended."
    return await notices.see_other(request, "/admin/admins", done)
