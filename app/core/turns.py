"""Whose turn it is at the database: a process's pooled connections go to its oldest request
first.

A request takes a connection several times (its session, then its page's statements), and a
plain queue puts it behind every request that arrived meanwhile each time: under a burst
every request waits behind the whole burst again and again, and the slowest ones wait for
all of it. Ordered by arrival, a request that has begun is finished before later ones take
its place, so the burst drains in about the order it came (the burst at one instant in
bench/README.md).
"""

from __future__ import annotations

import asyncio
import contextvars
import heapq
import itertools
import time

# When the request being served arrived (time.perf_counter()); work outside a request (a job,
# a command) counts as arriving when it asks.
ARRIVAL: contextvars.ContextVar[float | None] = contextvars.ContextVar("arrival", default=None)

# True while a request holds a gate's slot (app/core/gates.py: a stream, an export, a bulk
# load): the connection it takes is held for long, bounded by its gate, and takes no turn.
LONG_HOLD: contextvars.ContextVar[bool] = contextvars.ContextVar("long_hold", default=False)


class Turns:
    """`size` turns, handed to the earliest arrival among those waiting; a newcomer takes a
    free turn only when nobody waits."""

    def __init__(self, size: int):
        self.free = size
        self._waiting: list[tuple[float, int, asyncio.Future]] = []
        self._order = itertools.count()

    async def take(self) -> None:
        if self.free and not self._waiting:
            self.free -= 1
            return
        arrival = ARRIVAL.get()
        turn = asyncio.get_running_loop().create_future()
        entry = (time.perf_counter() if arrival is None else arrival, next(self._order), turn)
        heapq.heappush(self._waiting, entry)
        try:
            await turn
        except BaseException:
            if turn.done() and not turn.cancelled():
                self.give_back()  # handed a turn as the wait ended: the next in line gets it
            elif entry in self._waiting:
                self._waiting.remove(entry)
                heapq.heapify(self._waiting)
            raise

    def give_back(self) -> None:
        while self._waiting:
            turn = heapq.heappop(self._waiting)[2]
            if not turn.done():  # a cancelled wait leaves its entry until its task runs
                turn.set_result(None)
                return
        self.free += 1
