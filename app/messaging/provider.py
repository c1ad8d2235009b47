"""The messaging cloud API client, in the request shape of the WhatsApp Cloud API.

`POST {MESSAGING_API_URL}/{MESSAGING_PHONE_NUMBER_ID}/messages` with `Authorization: Bearer
{MESSAGING_TOKEN}` and a text message. A send ends in one `Delivery`:

- `sent`: the provider accepted the message (2xx); its message id is kept.
- `failed`: the provider refused it (4xx, not retried: the same request would be refused
  again), kept failing (5xx or no answer in time, retried a bounded number of times), could
  not be reached at all, or was found down by the sends before (not tried again).
- `logged`: not sent automatically, because messaging is not connected (all three variables
  are needed) or the rider has no phone number; the training team follows up.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Literal

import aiohttp
import orjson

from app.core.config import Settings

Status = Literal["sent", "failed", "logged"]

TIMEOUT_SECONDS = 10.0
ATTEMPTS = 3
# Waits before the second and third attempts: a provider hiccup, not an outage, is retried.
BACKOFF_SECONDS = (1.0, 3.0)
# The stored error text is for people; a provider's HTML error page is cut short.
ERROR_CHARS = 500
# After this many sends in a row that found the provider down (5xx, no answer, unreachable),
# the rest of the run is failed without trying: a provider outage must not keep a reminders
# run waiting out every timeout of thousands of messages.
OUTAGE_AFTER = 20
# Requests started per second at most. The Cloud API's default throughput is 80 messages a
# second per business phone number; 50 leaves room for other senders on the same number.
REQUESTS_PER_SECOND = 50.0
# A provider's answer is a small JSON object; more is not read (a broken or hostile endpoint
# must not fill the server's memory).
ANSWER_BYTES = 64 * 1024


@dataclass(frozen=True)
class Delivery:
    status: Status
    provider_message_id: str | None = None
    error: str | None = None


NOT_SENT = Delivery("logged")


def _provider_error(status: int, text: str) -> str:
    """`provider answered 400: <the provider's own message>`."""
    try:
        body = orjson.loads(text)
        detail = body["error"]["message"]
    except (orjson.JSONDecodeError, KeyError, TypeError):
        detail = " ".join(text.split()) or "no body"
    return f"provider answered {status}: {detail}"[:ERROR_CHARS]


def _message_id(text: str) -> str | None:
    try:
        return orjson.loads(text)["messages"][0]["id"]
    except (orjson.JSONDecodeError, KeyError, IndexError, TypeError):
        return None


async def _answer_text(response: aiohttp.ClientResponse) -> str:
    """At most ANSWER_BYTES of the answer's body, as text."""
    chunks, size = [], 0
    async for chunk in response.content.iter_chunked(ANSWER_BYTES):
        chunks.append(chunk[: ANSWER_BYTES - size])
        size += len(chunks[-1])
        if size >= ANSWER_BYTES:
            break
    return b"".join(chunks).decode(errors="replace")


class Messenger:
    """Sends text messages for one job run or one request: `async with Messenger(s) as m`.

    Not connected, it opens no session and every send is `logged`.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        timeout: float = TIMEOUT_SECONDS,
        attempts: int = ATTEMPTS,
        backoff: tuple[float, ...] = BACKOFF_SECONDS,
        outage_after: int = OUTAGE_AFTER,
        per_second: float = REQUESTS_PER_SECOND,
    ) -> None:
        self.connected = settings.messaging_connected
        self._settings = settings
        self._timeout = timeout
        self._attempts = attempts
        self._backoff = backoff
        self._outage_after = outage_after
        self._down_in_a_row = 0
        self._interval = 1.0 / per_second
        self._next_start = 0.0
        self._session: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> Messenger:
        if self.connected:
            self._session = aiohttp.ClientSession(
                timeout=aiohttp.ClientTimeout(total=self._timeout),
                headers={"Authorization": f"Bearer {self._settings.messaging_token}"},
            )
        return self

    async def __aexit__(self, *_) -> None:
        if self._session is not None:
            await self._session.close()

    @property
    def _url(self) -> str:
        base = self._settings.messaging_api_url.rstrip("/")
        return f"{base}/{self._settings.messaging_phone_number_id}/messages"

    async def send_text(self, phone: str | None, body: str) -> Delivery:
        if self._session is None or not phone:
            return NOT_SENT
        if self._down_in_a_row >= self._outage_after:
            return Delivery(
                "failed",
                error=f"not tried: the provider was down for the last {self._outage_after} sends",
            )
        delivery, provider_down = await self._post(phone, body)
        self._down_in_a_row = self._down_in_a_row + 1 if provider_down else 0
        return delivery

    async def _pace(self) -> None:
        """Wait for this request's start time: starts are spaced by 1 / per_second."""
        now = asyncio.get_running_loop().time()
        start = max(now, self._next_start)
        # Taken before waiting, so concurrent senders line up one interval apart.
        self._next_start = start + self._interval
        if start > now:
            await asyncio.sleep(start - now)

    async def _post(self, phone: str, body: str) -> tuple[Delivery, bool]:
        """The delivery, and whether the provider looked down (not merely refusing)."""
        payload = {
            "messaging_product": "whatsapp",
            # The Cloud API takes the international number as digits, without the `+`.
            "to": phone.lstrip("+"),
            "type": "text",
            "text": {"body": body, "preview_url": True},
        }
        error = ""
        for attempt in range(self._attempts):
            if attempt:
                await asyncio.sleep(self._backoff[min(attempt, len(self._backoff)) - 1])
            await self._pace()
            try:
                # A redirect is an answer like any other 3xx: the token is never sent on.
                async with self._session.post(
                    self._url, json=payload, allow_redirects=False
                ) as response:
                    text = await _answer_text(response)
            except TimeoutError:
                error = f"no answer from the provider within {self._timeout:g} s"
                continue
            except aiohttp.ClientError as exc:
                error = f"cannot reach the provider: {exc}"[:ERROR_CHARS]
                return Delivery("failed", error=error), True
            if response.status < 300:
                return Delivery("sent", provider_message_id=_message_id(text)), False
            error = _provider_error(response.status, text)
            if response.status < 500:
                return Delivery("failed", error=error), False
        error = f"{error} ({self._attempts} attempts)"[:ERROR_CHARS]
        return Delivery("failed", error=error), True
