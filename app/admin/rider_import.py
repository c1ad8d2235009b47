"""Rider CSV import (docs/csv.md): upload a file of riders, see what was saved and what was not,
download the rejected rows to fix and upload only those again.

The upload is read as a stream into a temporary file (at most MAX_FILE_BYTES; more is a 413
page before anything is parsed or written) while its bytes are checked to be UTF-8. Then the
file is parsed in a thread a batch of MAX_RIDERS records at a time, and each batch goes through
the API's own row validation and set-based upsert (`app.training`), committed on its own, while
the next batch is parsed; the automatic rules run in each batch's transaction, for its new
riders and those whose market, vehicle type, nationality or status it changes, as in the API.
Two batches are in flight, committed in file order (`_Saves`).

Each batch's transaction also keeps the import's counts so far in its `rider_imports` row, so
the POST answers 303 to the import's result page (`/admin/import/{import_id}`), which reads
them back: a refresh shows the result again and never imports again.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import tempfile
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import BinaryIO

import asyncpg
import structlog
from aiohttp import web

from app.admin import roles
from app.admin.exports import record_export, stream_csv
from app.admin.guard import ADMIN, actor
from app.admin.layout import render
from app.admin.rider_csv_parser import (
    NO_ROWS,
    Batch,
    FileRefused,
    Rejected,
    RiderFile,
    Utf8Check,
    csv_text,
)
from app.core import audit, database, html, pages, sql, uploads
from app.core.http import MiB, bulk_route
from app.core.keys import POOL, SETTINGS
from app.training import store as training_store
from app.training.pins import pepper_of, with_pin_hashes
from app.training.riders import MAX_RIDERS, VEHICLE_TYPES, Rider
from app.training.store import SavedRiders

log = structlog.get_logger("admin.import")

routes = web.RouteTableDef()

SQL = sql.load(
    "admin",
    "start_import",
    "add_import_rejects",
    "count_import",
    "fail_import",
    "import_result",
    "import_rejects",
    "import_rejects_first",
    "riders_elsewhere",
)
# Rows a cursor fetch brings: a few hundred kB of CSV, so memory stays flat at any row count.
FETCH_ROWS = 5000


async def _add_import_rejects(
    conn: asyncpg.Connection, import_id: uuid.UUID, rejected: Sequence[tuple[int, str, str]]
) -> None:
    """Keep (line, cells as CSV text, error) rows of the import, set-based."""
    lines, cells, errors = zip(*rejected, strict=True)
    await conn.execute(SQL.add_import_rejects, import_id, lines, cells, errors)


@contextlib.asynccontextmanager
async def _import_rejects(pool: asyncpg.Pool, import_id: uuid.UUID):
    """Batches of the import's rejected rows (line, cells, error), in file order."""
    async with pool.acquire() as conn, conn.transaction(readonly=True):
        yield database.batches(await conn.cursor(SQL.import_rejects, import_id), FETCH_ROWS)


# Spec, Limits: 25 MB a file (read as MiB, the larger reading). The body may be larger than
# the file by the multipart framing around it (boundaries, part headers).
MAX_FILE_BYTES = 25 * MiB
# Records parsed and saved at a time: a POST /api/v1/riders call's worth.
BATCH_ROWS = MAX_RIDERS
# Rejected rows listed on the result page; all of them are in the download.
SHOWN_REJECTED = 100

TOO_LARGE = "The file is larger than 25 MB. Split it into smaller files; nothing was saved."
CHOOSE_FILE = "Choose a CSV file to upload."
DATABASE_FAILED = (
    "The database failed while saving lines {first} to {last}. Lines up to {saved} were saved "
    "(and their rejected rows kept). Upload the same file again to finish: rows already saved "
    "are saved again with the same values."
)
# A market-limited admin's rows of other markets' riders (docs/csv.md, "Rider CSV import").
OTHER_MARKET = "market {market} is not one of your markets"
OTHER_MARKETS_RIDER = "this rider belongs to a market that is not one of yours"
# What a database failure midway looks like: the connection or the server going away, or a
# statement refused.
DATABASE_FAILURES = (asyncpg.PostgresError, asyncpg.InterfaceError, *database.UNAVAILABLE)


@dataclass(frozen=True)
class ImportResult:
    import_id: uuid.UUID
    inserted: int = 0
    updated: int = 0
    enrollments_created: int = 0
    rejected: int = 0
    failure: str | None = None
    # Saved vehicle types that no path's vehicle filter names: the API takes any value
    # (docs/csv.md, "Fixed lists"), so they are saved, and the page says so. Value → rows.
    unmatched_vehicles: Counter[str] = field(default_factory=Counter)

    def added(self, batch: Batch, saved: SavedRiders) -> ImportResult:
        """The result with one more batch saved."""
        unmatched = Counter(
            rider.vehicle_type
            for rider in batch.riders
            if rider.vehicle_type and rider.vehicle_type not in VEHICLE_TYPES
        )
        return dataclasses.replace(
            self,
            inserted=self.inserted + saved.inserted,
            updated=self.updated + saved.updated,
            enrollments_created=self.enrollments_created + saved.enrollments_created,
            rejected=self.rejected + len(batch.rejected),
            unmatched_vehicles=self.unmatched_vehicles + unmatched,
        )


async def _count(conn: asyncpg.Connection, result: ImportResult) -> None:
    await conn.execute(
        SQL.count_import,
        result.import_id,
        result.inserted,
        result.updated,
        result.enrollments_created,
        result.rejected,
        dict(result.unmatched_vehicles),
    )


async def receive(request: web.Request, upload: BinaryIO) -> None:
    """Copy the multipart field `file` into `upload`: uploads.TooLarge past MAX_FILE_BYTES,
    FileRefused when it is missing, empty or not UTF-8."""
    part = await uploads.file_part(request, MAX_FILE_BYTES)
    if part is None:
        raise FileRefused(CHOOSE_FILE)
    check, size = Utf8Check(), 0
    async for chunk in uploads.chunks(part, MAX_FILE_BYTES):
        size += len(chunk)
        check.feed(chunk)
        upload.write(chunk)
    if not size and not part.filename:
        raise FileRefused(CHOOSE_FILE)
    check.feed(b"", final=True)


@dataclass(frozen=True)
class Importer:
    """Who imports: the admin, as the audit log names them, and their markets (empty: every
    market), the only ones whose riders they may add or change."""

    admin_id: int
    who: audit.Actor
    markets: tuple[str, ...]


async def import_riders(
    pool: asyncpg.Pool, pepper: bytes | None, importer: Importer, upload: BinaryIO
) -> ImportResult:
    """Save the riders of the file in `upload`, their PINs hashed with `pepper`; FileRefused
    (nothing written) for a file without a usable header or without rows. Each batch's commit
    holds its audit event (`riders.imported`, on the import), and so does the rules' run."""
    rider_file = RiderFile(upload)
    try:
        return await _import(pool, pepper, importer, rider_file)
    finally:
        rider_file.close()


async def _import(
    pool: asyncpg.Pool, pepper: bytes | None, importer: Importer, rider_file: RiderFile
) -> ImportResult:
    header = await asyncio.to_thread(rider_file.header)
    batch = await asyncio.to_thread(rider_file.batch, BATCH_ROWS)
    if batch is None:
        raise FileRefused(NO_ROWS)
    result = ImportResult(uuid.uuid4())
    columns = csv_text(header.cells)
    await pool.execute(SQL.start_import, result.import_id, importer.admin_id, columns)
    saves = _Saves(pool, pepper, importer, result)
    try:
        while batch is not None and not saves.failed():
            upcoming = asyncio.ensure_future(asyncio.to_thread(rider_file.batch, BATCH_ROWS))
            try:
                await saves.start(batch)
            finally:  # the thread still reads the file: let it finish before the file closes
                await asyncio.wait([upcoming])
            batch = upcoming.result()
        result = await saves.finished()
    finally:
        await saves.cancel()
    if result.failure is not None:  # on another connection: the batch's may be gone
        await pool.execute(SQL.fail_import, result.import_id, result.failure)
    log.info(
        "rider import",
        import_id=str(result.import_id),
        inserted=result.inserted,
        updated=result.updated,
        rejected=result.rejected,
        enrollments_created=result.enrollments_created,
        failed=result.failure is not None,
    )
    return result


@dataclass
class _Save:
    first_line: int
    last_line: int
    task: asyncio.Task[ImportResult]


class _Saves:
    """The import's batches, two at a time: each is saved in a transaction of its own, the
    next one starts once this one holds its riders' row locks (so its automatic rules run
    beside the next batch's upsert, on the database's other core), and each commits only
    after the one before it. A rider in both waits for the first batch's commit, so the last
    row still wins, and the file is saved up to a line: a batch that fails takes the one
    after it down with it, and the lines before it stay saved."""

    def __init__(self, pool, pepper, importer, result: ImportResult) -> None:
        self._pool, self._pepper, self._importer = pool, pepper, importer
        self._started = result
        self._saves: list[_Save] = []

    async def start(self, batch: Batch) -> None:
        """Start saving `batch`; returns once it holds its riders' locks or has ended."""
        first_line = self._saves[-1].last_line + 1 if self._saves else 2
        before = self._saves[-1].task if self._saves else _done(self._started)
        locked = asyncio.get_running_loop().create_future()
        save = self._save(batch, first_line, before, locked)
        self._saves.append(_Save(first_line, batch.last_line, asyncio.create_task(save)))
        await asyncio.wait([locked, self._saves[-1].task], return_when=asyncio.FIRST_COMPLETED)

    def failed(self) -> bool:
        return any(save.task.done() and save.task.exception() for save in self._saves)

    async def finished(self) -> ImportResult:
        """The import's result once every batch has ended: with the first failed batch's
        lines when the database failed; another error is raised."""
        await asyncio.wait([save.task for save in self._saves])
        # Each one read, so that the batches failed with the one before them log nothing.
        errors = [save.task.exception() for save in self._saves]
        failed = next((i for i, exc in enumerate(errors) if exc is not None), None)
        if failed is None:
            return self._saves[-1].task.result()
        if not isinstance(errors[failed], DATABASE_FAILURES):
            raise errors[failed]
        save = self._saves[failed]
        result = self._saves[failed - 1].task.result() if failed else self._started
        log.error(
            "rider import failed",
            error_class=type(errors[failed]).__name__,
            saved_up_to=save.first_line - 1,
            import_id=str(result.import_id),
        )
        failure = DATABASE_FAILED.format(
            first=save.first_line, last=save.last_line, saved=save.first_line - 1
        )
        return dataclasses.replace(result, failure=failure)

    async def cancel(self) -> None:
        """End the batches still saving (the request was cancelled): they roll back."""
        running = [save.task for save in self._saves if not save.task.done()]
        for task in running:
            task.cancel()
        if running:
            await asyncio.wait(running)

    async def _save(
        self,
        batch: Batch,
        first_line: int,
        before: asyncio.Future[ImportResult],
        locked: asyncio.Future[None],
    ) -> ImportResult:
        """One batch in one transaction: its riders through the API's upsert and automatic
        rules, its rejected rows kept for the download, then, after the batch before it has
        committed, its audit events and the import's counts. Returns the result with it."""
        importer = self._importer
        async with self._pool.acquire() as conn, conn.transaction():
            try:
                batch = await _within_markets(conn, batch, importer.markets)
                riders = with_pin_hashes(batch.riders, self._pepper)
                inserted, updated, due = (
                    await training_store.upsert_riders(conn, riders) if riders else (0, 0, [])
                )
            finally:
                locked.set_result(None)
            created = await training_store.run_rules(conn, due) if due else 0
            saved = SavedRiders(inserted, updated, created)
            if batch.rejected:
                await _add_import_rejects(
                    conn,
                    self._started.import_id,
                    [(row.line, csv_text(row.cells), row.error) for row in batch.rejected],
                )
            result = (await before).added(batch, saved)
            import_id, lines = str(result.import_id), f"{first_line}-{batch.last_line}"
            summary = (
                f"lines {lines}: {saved.inserted} inserted, {saved.updated} updated, "
                f"{len(batch.rejected)} rejected"
            )
            await audit.record(conn, importer.who, "riders.imported", import_id, summary)
            if saved.enrollments_created:
                summary = (
                    f"{saved.enrollments_created} created by the automatic rules for the riders "
                    f"of lines {lines}"
                )
                await audit.record(conn, importer.who, "assignments.created", import_id, summary)
            await _count(conn, result)
        return result


def _done(result: ImportResult) -> asyncio.Future[ImportResult]:
    done = asyncio.get_running_loop().create_future()
    done.set_result(result)
    return done


def _other_market(rider: Rider, markets: tuple[str, ...], elsewhere: set[str]) -> str | None:
    """Why a market-limited admin may not save `rider`, or None when they may."""
    if rider.rider_id in elsewhere:
        return OTHER_MARKETS_RIDER
    if rider.market not in markets:
        return OTHER_MARKET.format(market=rider.market)
    return None


async def _within_markets(conn: asyncpg.Connection, batch: Batch, markets) -> Batch:
    """The batch as a market-limited admin may save it: a rider of another market, or one
    moved to another market, becomes a rejected row. Riders already of another market are
    locked until the batch's transaction ends, so their market stays as checked."""
    if not markets:
        return batch
    ids = [rider.rider_id for rider in batch.riders]
    elsewhere = {row["rider_id"] for row in await conn.fetch(SQL.riders_elsewhere, ids, markets)}
    riders, refused = [], []
    for rider in batch.riders:
        if (why := _other_market(rider, markets, elsewhere)) is None:
            riders.append(rider)
        else:
            refused.append(Rejected(*batch.origin[rider.rider_id], why))
    if not refused:
        return batch
    rejected = sorted(batch.rejected + refused, key=lambda row: row.line)
    return Batch(riders, rejected, batch.last_line, batch.origin)


def _form(request: web.Request, status: int = 200, problem: str | None = None) -> web.Response:
    return render(request, "admin/import.html", {"problem": problem}, status=status)


@routes.get("/admin/import")
@roles.needs("editor")
async def import_page(request: web.Request) -> web.Response:
    return _form(request)


# Every column once, with values the import accepts: a file to start from (docs/csv.md).
SAMPLE = (
    "riderId,name,market,phone,city,vehicleType,nationality,language,status,pin\r\n"
    "R-1001,Layla Hassan,AE,+971501234567,Dubai,motorbike,Emirati,ar,active,482913\r\n"
    "R-1002,Omar Saleh,KW,,Kuwait City,car,,en,onboarding,\r\n"
)


@routes.get("/admin/import/sample.csv")
@roles.needs("editor")
async def download_sample(request: web.Request) -> web.Response:
    return web.Response(
        text=SAMPLE,
        content_type="text/csv",
        headers={"Content-Disposition": 'attachment; filename="riders-sample.csv"'},
    )


@routes.post("/admin/import")
@roles.needs("editor")
@bulk_route
async def upload_riders(request: web.Request) -> web.Response:
    with tempfile.TemporaryFile() as upload:
        try:
            await receive(request, upload)
            upload.seek(0)
            admin = request[ADMIN]
            importer = Importer(admin.admin_id, actor(request), admin.markets)
            result = await import_riders(
                request.app[POOL], pepper_of(request.app[SETTINGS]), importer, upload
            )
        except uploads.TooLarge:
            return html.page(413, "File too large", TOO_LARGE)
        except FileRefused as exc:
            return _form(request, 400, str(exc))
    return pages.see_other(f"/admin/import/{result.import_id}")


async def _import_of(request: web.Request) -> asyncpg.Record:
    """The address's import, made by this admin within the last day; 404 otherwise."""
    import_id = pages.uuid_in_path(request, "import_id")
    found = await request.app[POOL].fetchrow(SQL.import_result, import_id, request[ADMIN].admin_id)
    if found is None:
        raise web.HTTPNotFound
    return found


@routes.get("/admin/import/{import_id}")
@roles.needs("editor")
async def import_result_page(request: web.Request) -> web.Response:
    """What the import saved and rejected, read back: a refresh imports nothing again."""
    result = await _import_of(request)
    import_id, pool = result["import_id"], request.app[POOL]
    unmatched = Counter(result["unmatched_vehicles"]).most_common()
    context = {
        "result": result,
        "shown": await pool.fetch(SQL.import_rejects_first, import_id, SHOWN_REJECTED),
        "unmatched_vehicles": unmatched,
        "vehicle_types": VEHICLE_TYPES,
    }
    return render(request, "admin/import_result.html", context)


@routes.get("/admin/import/{import_id}/rejected.csv")
@roles.needs("editor")
async def download_rejected(request: web.Request) -> web.StreamResponse:
    found = await _import_of(request)
    import_id, pool = found["import_id"], request.app[POOL]
    # The rows as uploaded: riders' data, so their download is recorded as the exports' is.
    summary = f"{found['rejected']} rows"
    await record_export(request, "rejected_rows.exported", summary, str(import_id))
    async with _import_rejects(pool, import_id) as batches:
        chunks = _rejected_chunks(batches)
        async with contextlib.aclosing(batches), contextlib.aclosing(chunks):
            return await stream_csv(
                request, found["header"] + ",error\r\n", chunks, filename="rejected-rows.csv"
            )


async def _rejected_chunks(batches) -> AsyncIterator[str]:
    """Every rejected row as uploaded, each with its `error`."""
    async for batch in batches:
        yield "".join(f"{cells},{csv_text([error])}\r\n" for _, cells, error in batch)
