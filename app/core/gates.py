"""A gate of a few slots in each event loop: at most `size` holders at once in a process, the
others wait up to `wait` seconds for one, then get `refusal`. A process has one loop; the
tests run several, and a semaphore belongs to the loop that first waits on it.

What a gate admits holds pooled connections for long (a stream, an export, a bulk load), so
the connections it takes are not the pool's turns (app/core/turns.py: `LONG_HOLD`); the web
process's pool has room for every holder its gates admit besides the turns (`pool_size` in
app/web.py), so that a full gate never leaves a request waiting for a connection."""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import AsyncIterator, Callable

from app.core import turns


class Gate:
    def __init__(
        self, size: int, wait: float, refusal: Callable[[], BaseException], connections: int = 1
    ):
        self.size, self.wait, self.refusal = size, wait, refusal
        # The most connections one holder takes at once.
        self.connections = connections
        self._semaphores: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def semaphore(self) -> asyncio.Semaphore:
        """This loop's slots."""
        loop = asyncio.get_running_loop()
        if loop not in self._semaphores:
            self._semaphores[loop] = asyncio.Semaphore(self.size)
        return self._semaphores[loop]

    @property
    def connections_held(self) -> int:
        """The most connections its holders take at once."""
        return self.size * self.connections

    @contextlib.asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        slots = self.semaphore()
        try:
            await asyncio.wait_for(slots.acquire(), self.wait)
        except TimeoutError:
            raise self.refusal() from None
        long_hold = turns.LONG_HOLD.set(True)
        try:
            yield
        finally:
            turns.LONG_HOLD.reset(long_hold)
            slots.release()
