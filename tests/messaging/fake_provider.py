"""A fake messaging provider: a real aiohttp server on localhost that the tests script.

Each request takes the next scripted answer (then the default: 200 with a new message id)
and is recorded with its path, headers and JSON body.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from dataclasses import dataclass, field

import pytest
from aiohttp import web

PHONE_NUMBER_ID = "100200300"
TOKEN = "test-messaging-token"

# An answer: (status, JSON body), or HANG: no answer until the client gives up.
HANG = "hang"


@dataclass
class FakeProvider:
    url: str = ""
    answers: list = field(default_factory=list)
    requests: list = field(default_factory=list)
    ids: itertools.count = field(default_factory=lambda: itertools.count(1))

    @property
    def env(self) -> dict[str, str]:
        """The variables that connect the service to this provider."""
        return {
            "MESSAGING_API_URL": self.url,
            "MESSAGING_TOKEN": TOKEN,
            "MESSAGING_PHONE_NUMBER_ID": PHONE_NUMBER_ID,
        }

    async def handle(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.requests.append(
            {
                "path": request.path,
                "at": time.monotonic(),
                "authorization": request.headers.get("Authorization"),
                "json": body,
            }
        )
        answer = self.answers.pop(0) if self.answers else None
        if answer == HANG:
            await asyncio.sleep(5)
        elif answer is not None:
            status, error = answer
            return web.json_response(error, status=status)
        to = body["to"]
        return web.json_response(
            {
                "messaging_product": "whatsapp",
                "contacts": [{"input": to, "wa_id": to}],
                "messages": [{"id": f"wamid.fake{next(self.ids)}"}],
            }
        )


@pytest.fixture
async def fake_provider(aiohttp_server):
    provider = FakeProvider()
    app = web.Application()
    app.router.add_post(f"/v21.0/{PHONE_NUMBER_ID}/messages", provider.handle)
    server = await aiohttp_server(app, host="127.0.0.1")
    provider.url = str(server.make_url("/v21.0"))
    return provider
