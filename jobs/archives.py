"""Where backup archives are kept: a local folder (BACKUP_DIR) or an S3 store (BACKUP_S3_URL).

An archive is `rider-ops-YYYYMMDDTHHMMSSZ.dump` with its manifest `rider-ops-….json` beside it
(what was dumped: size, SHA-256, every table's row count at the dump's snapshot). Retention
deletes those names only, by the time in the name; any other file or object is never touched.

Uploads to S3 are multipart and streamed a part at a time (constant memory, whatever the
archive's size); each part carries its SHA-256, which the store checks on arrival, and the
finished object's size and checksum are compared with the file's before the upload counts.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
import os
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

from app.core.config import S3Location, Settings
from jobs.job import JobFailed

RETENTION = timedelta(days=14)
PREFIX = "rider-ops-"
SUFFIX = ".dump"
MANIFEST_SUFFIX = ".json"
STAMP = "%Y%m%dT%H%M%SZ"
# A part of a multipart upload is read into memory whole: 16 MiB bounds the upload's memory
# and, with S3's 10,000 parts, allows archives up to 160 GiB.
PART_BYTES = 16 * 1024 * 1024
# Downloads and hashing go by this much at a time.
CHUNK_BYTES = 1024 * 1024


def archive_name(at: datetime) -> str:
    return f"{PREFIX}{at.astimezone(UTC).strftime(STAMP)}{SUFFIX}"


def manifest_name(archive: str) -> str:
    return archive.removesuffix(SUFFIX) + MANIFEST_SUFFIX


def archive_time(name: str) -> datetime | None:
    """When the archive (or manifest) `name` was taken; None for a name that is not ours."""
    for suffix in (SUFFIX, MANIFEST_SUFFIX):
        if name.startswith(PREFIX) and name.endswith(suffix):
            try:
                stamp = name[len(PREFIX) : -len(suffix)]
                return datetime.strptime(stamp, STAMP).replace(tzinfo=UTC)
            except ValueError:
                return None
    return None


def expired(names: list[str], now: datetime) -> list[str]:
    """Our archives and manifests taken more than RETENTION before `now`."""
    return sorted(
        name
        for name in names
        if (taken := archive_time(name)) is not None and now - taken > RETENTION
    )


def latest(names: list[str]) -> str | None:
    archives = [n for n in names if n.endswith(SUFFIX) and archive_time(n) is not None]
    return max(archives, key=archive_time, default=None)


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as source:
        while chunk := source.read(CHUNK_BYTES):
            digest.update(chunk)
    return digest.hexdigest()


def private_file(path: Path) -> None:
    """An empty file only the owner can read (a process writing into it keeps the mode):
    archives hold PIN hashes, phones, emails and addresses."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
    path.chmod(0o600)


class Folder:
    """Archives in a local folder, readable by the service's user only."""

    def __init__(self, folder: Path):
        self.folder = folder

    def __str__(self) -> str:
        return str(self.folder)

    def make(self) -> None:
        try:
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            self.folder.chmod(0o700)
        except OSError as exc:
            raise JobFailed(f"cannot create {self.folder}: {exc.strerror}") from None

    async def names(self) -> list[str]:
        if not self.folder.is_dir():
            return []
        return sorted(p.name for p in self.folder.iterdir() if p.is_file())

    async def read_manifest(self, archive: str) -> dict | None:
        path = self.folder / manifest_name(archive)
        return json.loads(path.read_bytes()) if path.is_file() else None

    async def write_manifest(self, archive: str, manifest: dict) -> None:
        final = self.folder / manifest_name(archive)
        partial = self.folder / f".{final.name}.partial"
        private_file(partial)
        partial.write_bytes(json.dumps(manifest, indent=1).encode())
        partial.rename(final)

    @contextlib.asynccontextmanager
    async def fetched(self, archive: str, _scratch: Path) -> AsyncIterator[Path]:
        path = self.folder / archive
        if not path.is_file():
            raise JobFailed(f"no archive {archive} in {self.folder}")
        yield path

    async def delete(self, names: list[str]) -> None:
        for name in names:
            (self.folder / name).unlink(missing_ok=True)


def _client_options(location: S3Location) -> dict:
    """What the URL says; botocore reads the rest (AWS_ENDPOINT_URL, AWS_REGION,
    AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, …) from the environment, as every AWS SDK."""
    given = {
        "endpoint_url": location.endpoint,
        "region_name": location.region,
        "aws_access_key_id": location.access_key,
        "aws_secret_access_key": location.secret_key,
    }
    return {name: value for name, value in given.items() if value is not None}


def _next_part(source) -> tuple[bytes, bytes] | None:
    chunk = source.read(PART_BYTES)
    return (chunk, hashlib.sha256(chunk).digest()) if chunk else None


def _b64(digest: bytes) -> str:
    return base64.b64encode(digest).decode()


class Bucket:
    """Archives under a prefix of an S3 bucket (any S3-compatible store)."""

    def __init__(self, location: S3Location, client):
        self.location = location
        self.client = client

    def __str__(self) -> str:
        return str(self.location)

    def _key(self, name: str) -> str:
        return self.location.prefix + name

    async def names(self) -> list[str]:
        found = []
        pages = self.client.get_paginator("list_objects_v2").paginate(
            Bucket=self.location.bucket, Prefix=self.location.prefix + PREFIX
        )
        async for page in pages:
            for item in page.get("Contents", ()):
                name = item["Key"][len(self.location.prefix) :]
                if "/" not in name:
                    found.append(name)
        return sorted(found)

    async def upload(self, path: Path, name: str) -> None:
        """Upload the file at `path` as `name`, a part at a time, and check what arrived."""
        bucket, key = self.location.bucket, self._key(name)
        started = await self.client.create_multipart_upload(
            Bucket=bucket, Key=key, ChecksumAlgorithm="SHA256"
        )
        upload_id = started["UploadId"]
        parts, digests = [], []
        try:
            with path.open("rb") as source:
                # Read and hashed in a thread: the event loop serves requests meanwhile.
                while part := await asyncio.to_thread(_next_part, source):
                    chunk, digest = part
                    number = len(parts) + 1
                    # The store refuses a part whose bytes do not match its checksum.
                    sent = await self.client.upload_part(
                        Bucket=bucket,
                        Key=key,
                        UploadId=upload_id,
                        PartNumber=number,
                        Body=chunk,
                        ChecksumSHA256=_b64(digest),
                    )
                    del chunk
                    parts.append(
                        {"PartNumber": number, "ETag": sent["ETag"], "ChecksumSHA256": _b64(digest)}
                    )
                    digests.append(digest)
            await self.client.complete_multipart_upload(
                Bucket=bucket, Key=key, UploadId=upload_id, MultipartUpload={"Parts": parts}
            )
        except BaseException:
            with contextlib.suppress(Exception):
                await self.client.abort_multipart_upload(Bucket=bucket, Key=key, UploadId=upload_id)
            raise
        composite = _b64(hashlib.sha256(b"".join(digests)).digest())
        await self._check(key, path.stat().st_size, composite)

    async def _check(self, key: str, size: int, composite: str) -> None:
        """The stored object has the file's size and the SHA-256 of its parts' SHA-256s (S3's
        checksum of a multipart object, reported as `<checksum>-<parts>`)."""
        head = await self.client.head_object(
            Bucket=self.location.bucket, Key=key, ChecksumMode="ENABLED"
        )
        stored = head.get("ChecksumSHA256", "").partition("-")[0]
        if head["ContentLength"] != size or stored != composite:
            raise JobFailed(
                f"upload of {key} does not match the archive: {head['ContentLength']} bytes"
                f" with SHA-256 {stored or 'none'} stored, {size} bytes with {composite} sent"
            )

    async def read_manifest(self, archive: str) -> dict | None:
        try:
            answer = await self.client.get_object(
                Bucket=self.location.bucket, Key=self._key(manifest_name(archive))
            )
        except self.client.exceptions.NoSuchKey:
            return None
        async with answer["Body"] as body:
            return json.loads(await body.read())

    async def write_manifest(self, archive: str, manifest: dict) -> None:
        body = json.dumps(manifest, indent=1).encode()
        await self.client.put_object(
            Bucket=self.location.bucket,
            Key=self._key(manifest_name(archive)),
            Body=body,
            ChecksumSHA256=_b64(hashlib.sha256(body).digest()),
            ContentType="application/json",
        )

    @contextlib.asynccontextmanager
    async def fetched(self, archive: str, scratch: Path) -> AsyncIterator[Path]:
        """The archive downloaded into `scratch` (a private folder), removed afterwards."""
        target = scratch / archive
        private_file(target)
        try:
            try:
                answer = await self.client.get_object(
                    Bucket=self.location.bucket, Key=self._key(archive)
                )
            except self.client.exceptions.NoSuchKey:
                raise JobFailed(f"no archive {archive} in {self}") from None
            with target.open("wb") as out:
                async with answer["Body"] as body:
                    while chunk := await body.read(CHUNK_BYTES):
                        await asyncio.to_thread(out.write, chunk)
            yield target
        finally:
            target.unlink(missing_ok=True)

    async def delete(self, names: list[str]) -> None:
        # DeleteObjects takes at most 1,000 keys.
        for start in range(0, len(names), 1000):
            await self.client.delete_objects(
                Bucket=self.location.bucket,
                Delete={"Objects": [{"Key": self._key(n)} for n in names[start : start + 1000]]},
            )


@contextlib.asynccontextmanager
async def s3_bucket(location: S3Location) -> AsyncIterator[Bucket]:
    """The bucket of `location`; a failure of the store or of reaching it is one line."""
    # Imported here: only the backup commands need the S3 client.
    from aiobotocore.session import get_session
    from botocore.exceptions import BotoCoreError, ClientError

    try:
        async with get_session().create_client("s3", **_client_options(location)) as client:
            yield Bucket(location, client)
    except ClientError as exc:
        error = exc.response.get("Error", {})
        raise JobFailed(
            f"{location}: {error.get('Code', '?')}: {error.get('Message') or exc}"
        ) from None
    except BotoCoreError as exc:
        raise JobFailed(f"{location}: {exc}") from None


@contextlib.asynccontextmanager
async def restore_source(settings: Settings) -> AsyncIterator[Folder | Bucket]:
    """Where restores read from: the S3 store when BACKUP_S3_URL is set, else BACKUP_DIR."""
    if settings.backup_s3 is not None:
        async with s3_bucket(settings.backup_s3) as bucket:
            yield bucket
    else:
        yield Folder(settings.backup_dir)
