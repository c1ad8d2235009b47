"""A request aiohttp cannot read (a request line or a header over 8 KB) is answered 400 and
logged as one warning line, without a traceback and without the line itself."""

import asyncio
import logging

import pytest

SECRET = "tok" * 3000  # a path that carries a credential, 9,000 bytes long


async def raw(client, request: bytes) -> bytes:
    reader, writer = await asyncio.open_connection(client.server.host, client.server.port)
    writer.write(request)
    await writer.drain()
    answer = await reader.read()
    writer.close()
    return answer


@pytest.mark.parametrize(
    "request_bytes",
    [
        f"GET /t/{SECRET} HTTP/1.1\r\nHost: x\r\n\r\n".encode(),
        f"GET / HTTP/1.1\r\nHost: x\r\nX-Token: {SECRET}\r\n\r\n".encode(),
    ],
    ids=["request line", "header"],
)
async def test_a_line_over_8_kb_is_one_warning_line(client, caplog, request_bytes):
    with caplog.at_level(logging.INFO):
        answer = await raw(client, request_bytes)
    assert answer.split(b"\r\n")[0].endswith(b" 400 Bad Request")
    records = [r for r in caplog.records if r.name == "aiohttp.server"]
    assert len(records) == 1, [r.getMessage() for r in records]
    (record,) = records
    assert record.levelname == "WARNING" and record.exc_info is None
    assert record.getMessage() == (
        "request refused: a request line or header over the 8 KB limit, answered 400"
    )
    assert "tok" not in caplog.text


async def test_an_unreadable_request_names_its_kind_only(client, caplog):
    with caplog.at_level(logging.INFO):
        answer = await raw(client, b"GET / HTTP/1.1\r\nHost: x\r\nBad Header\x01: v\r\n\r\n")
    assert answer.split(b"\r\n")[0].endswith(b" 400 Bad Request")
    (record,) = [r for r in caplog.records if r.name == "aiohttp.server"]
    assert record.levelname == "WARNING" and record.exc_info is None
    assert record.getMessage().startswith("request refused: an unreadable request (")
