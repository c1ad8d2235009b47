"""An S3-compatible store for the backup tests: moto's server on loopback, reached by the
service's real client (aiobotocore) over HTTP, as an operator's store over HTTPS."""

from __future__ import annotations

import contextlib
import itertools
import socket
from dataclasses import dataclass

from aiobotocore.session import get_session
from moto.server import ThreadedMotoServer

CREDENTIALS = {"aws_access_key_id": "test-key", "aws_secret_access_key": "test-secret"}
REGION = "us-east-1"
_buckets = itertools.count()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def running():
    """A moto server on 127.0.0.1 and a free port; yields its endpoint URL."""
    port = _free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.stop()


@dataclass(frozen=True)
class Store:
    endpoint: str
    bucket: str
    prefix: str

    @property
    def url(self) -> str:
        """BACKUP_S3_URL with everything in it (the endpoint, region and credentials)."""
        return (
            f"s3://{CREDENTIALS['aws_access_key_id']}:{CREDENTIALS['aws_secret_access_key']}"
            f"@{self.bucket}/{self.prefix}?endpoint={self.endpoint}&region={REGION}"
        )

    @contextlib.asynccontextmanager
    async def client(self):
        async with get_session().create_client(
            "s3", endpoint_url=self.endpoint, region_name=REGION, **CREDENTIALS
        ) as client:
            yield client

    async def put(self, key: str, body: bytes = b"x") -> None:
        async with self.client() as client:
            await client.put_object(Bucket=self.bucket, Key=key, Body=body)

    async def keys(self) -> list[str]:
        async with self.client() as client:
            listed = await client.list_objects_v2(Bucket=self.bucket)
        return sorted(item["Key"] for item in listed.get("Contents", ()))

    async def get(self, key: str) -> bytes:
        async with self.client() as client:
            answer = await client.get_object(Bucket=self.bucket, Key=key)
            async with answer["Body"] as body:
                return await body.read()

    async def head(self, key: str) -> dict:
        async with self.client() as client:
            return await client.head_object(Bucket=self.bucket, Key=key)


async def new_store(endpoint: str, *, create: bool = True) -> Store:
    """A bucket of its own for one test (created unless `create` is False)."""
    store = Store(endpoint, f"rider-ops-backups-{next(_buckets)}", "nightly/db")
    if create:
        async with store.client() as client:
            await client.create_bucket(Bucket=store.bucket)
    return store
