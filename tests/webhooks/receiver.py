"""A real webhook receiver on localhost: records what it is sent, answers as told."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from aiohttp import web

# What the receiver answers with an error status: the service must never keep nor show it.
ANSWER = "internal-answer-7f3c: what a machine of the network said"


class Receiver:
    def __init__(self) -> None:
        self.requests: list[tuple[dict[str, str], bytes]] = []
        # Statuses to answer, in turn; 204 once they are used up.
        self.answers: list[int] = []
        self.redirected = 0
        self.delay = 0.0
        self.in_flight = 0
        self.most_in_flight = 0

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/hook", self._hook)
        app.router.add_route("*", "/elsewhere", self._elsewhere)
        return app

    async def _hook(self, request: web.Request) -> web.Response:
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            await asyncio.sleep(self.delay)
            self.requests.append((dict(request.headers), await request.read()))
            status = self.answers.pop(0) if self.answers else 204
        finally:
            self.in_flight -= 1
        if status == 302:
            raise web.HTTPFound("/elsewhere")
        return web.Response(status=status, text=ANSWER if status >= 400 else None)

    async def _elsewhere(self, request: web.Request) -> web.Response:
        self.redirected += 1
        return web.Response(status=204)

    @property
    def ids(self) -> list[str]:
        return [headers["webhook-id"] for headers, _ in self.requests]


async def until(check: Callable[[], Awaitable[bool]], seconds: float = 10.0) -> None:
    """Wait until `check()` holds; fail after `seconds`."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not await check():
        assert asyncio.get_running_loop().time() < deadline, "timed out waiting"
        await asyncio.sleep(0.05)
