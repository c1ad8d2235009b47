"""The messaging client against a fake provider on localhost."""

import time

import pytest
from aiohttp import web

from app.core.config import ConfigError
from app.messaging.outbox import Draft, deliver
from app.messaging.provider import ANSWER_BYTES, Delivery, Messenger
from tests.conftest import make_settings
from tests.messaging.fake_provider import HANG, PHONE_NUMBER_ID, TOKEN, FakeProvider

FAST = {"timeout": 0.2, "backoff": (0.01, 0.01)}


async def _send(provider, phone="+971501234567", body="Hello", **env):
    settings = make_settings(**{**provider.env, **env})
    async with Messenger(settings, **FAST) as messenger:
        return await messenger.send_text(phone, body)


async def test_sent_in_the_cloud_api_shape(fake_provider):
    delivery = await _send(fake_provider, body="Your training: https://x/t/abc")
    assert delivery == Delivery("sent", provider_message_id="wamid.fake1")
    (request,) = fake_provider.requests
    assert request["path"] == f"/v21.0/{PHONE_NUMBER_ID}/messages"
    assert request["authorization"] == f"Bearer {TOKEN}"
    assert request["json"] == {
        "messaging_product": "whatsapp",
        "to": "971501234567",
        "type": "text",
        "text": {"body": "Your training: https://x/t/abc", "preview_url": True},
    }


async def test_provider_4xx_fails_at_once_with_its_message(fake_provider):
    refusal = {
        "message": "(#131030) Recipient phone number not in allowed list",
        "type": "OAuthException",
        "code": 131030,
    }
    fake_provider.answers = [(400, {"error": refusal})]
    delivery = await _send(fake_provider)
    assert delivery == Delivery(
        "failed",
        error="provider answered 400: (#131030) Recipient phone number not in allowed list",
    )
    assert len(fake_provider.requests) == 1


async def test_provider_5xx_is_retried_then_fails(fake_provider):
    fake_provider.answers = [(503, {"error": {"message": "Service unavailable"}})] * 3
    delivery = await _send(fake_provider)
    assert delivery == Delivery(
        "failed", error="provider answered 503: Service unavailable (3 attempts)"
    )
    assert len(fake_provider.requests) == 3


async def test_provider_5xx_then_success_is_sent(fake_provider):
    fake_provider.answers = [(500, {"error": {"message": "oops"}})]
    delivery = await _send(fake_provider)
    assert delivery.status == "sent"
    assert len(fake_provider.requests) == 2


async def test_provider_timeout_fails_after_bounded_retries(fake_provider):
    fake_provider.answers = [HANG] * 3
    delivery = await _send(fake_provider)
    assert delivery == Delivery(
        "failed", error="no answer from the provider within 0.2 s (3 attempts)"
    )
    assert len(fake_provider.requests) == 3


async def test_the_defaults_retry_a_5xx_twice_after_1_s_then_3_s(fake_provider):
    # docs/messaging.md: 3 attempts in all, waits of 1 s and 3 s (the others' figures are
    # shortened in these tests).
    fake_provider.answers = [(503, {"error": {"message": "Service unavailable"}})] * 3
    async with Messenger(make_settings(**fake_provider.env)) as messenger:
        delivery = await messenger.send_text("+971501234567", "Hi")
    assert delivery == Delivery(
        "failed", error="provider answered 503: Service unavailable (3 attempts)"
    )
    first, second, third = (request["at"] for request in fake_provider.requests)
    assert second - first >= 1.0 and third - second >= 3.0


async def test_the_default_pace_is_50_requests_a_second(fake_provider):
    started = time.monotonic()
    async with Messenger(make_settings(**fake_provider.env)) as messenger:
        drafts = [Draft(f"R-{n}", "+971501234567", "Hi", None) for n in range(6)]
        deliveries = await deliver(messenger, drafts, concurrency=6)
    # Six starts 1/50 s apart: the last one 0.1 s after the first, though 6 may fly at once.
    assert time.monotonic() - started >= 5 / 50
    assert [d.status for d in deliveries] == ["sent"] * 6


async def test_unreachable_provider_fails(fake_provider):
    delivery = await _send(fake_provider, MESSAGING_API_URL="http://127.0.0.1:9/v21.0")
    assert delivery.status == "failed"
    assert delivery.error.startswith("cannot reach the provider:")


async def test_not_connected_is_logged_without_a_request(fake_provider):
    delivery = await _send(fake_provider, MESSAGING_TOKEN=None)
    assert delivery == Delivery("logged")
    assert fake_provider.requests == []


async def test_no_phone_is_logged_without_a_request(fake_provider):
    assert await _send(fake_provider, phone=None) == Delivery("logged")
    assert fake_provider.requests == []


async def test_provider_down_for_many_sends_in_a_row_stops_trying(fake_provider):
    # A refusal (4xx) shows the provider is up: only the last two 503s are in a row.
    fake_provider.answers = [(503, {}), (400, {}), (503, {}), (503, {})]
    settings = make_settings(**fake_provider.env)
    async with Messenger(settings, **FAST, attempts=1, outage_after=2) as messenger:
        deliveries = [await messenger.send_text("+971501234567", "Hi") for _ in range(5)]
    assert [d.status for d in deliveries] == ["failed"] * 5
    assert deliveries[4].error == "not tried: the provider was down for the last 2 sends"
    assert len(fake_provider.requests) == 4


async def test_a_success_resets_the_outage_count(fake_provider):
    fake_provider.answers = [(503, {}), (200, {"messages": [{"id": "wamid.x"}]}), (503, {})]
    settings = make_settings(**fake_provider.env)
    async with Messenger(settings, **FAST, attempts=1, outage_after=2) as messenger:
        deliveries = [await messenger.send_text("+971501234567", "Hi") for _ in range(4)]
    assert [d.status for d in deliveries] == ["failed", "sent", "failed", "sent"]
    assert len(fake_provider.requests) == 4


async def test_requests_are_paced_to_the_rate(fake_provider):
    settings = make_settings(**fake_provider.env)
    started = time.monotonic()
    async with Messenger(settings, **FAST, per_second=20) as messenger:
        drafts = [Draft(f"R-{n}", "+971501234567", "Hi", None) for n in range(5)]
        deliveries = await deliver(messenger, drafts, concurrency=5)
    # Five starts 1/20 s apart: the last one 0.2 s after the first, though 5 may fly at once.
    assert time.monotonic() - started >= 0.2
    assert [d.status for d in deliveries] == ["sent"] * 5
    assert len(fake_provider.requests) == 5


async def test_a_redirect_is_not_followed(aiohttp_server):
    # The token must not travel on to wherever a redirect points.
    followed = []

    async def moved(_request):
        raise web.HTTPTemporaryRedirect("/elsewhere")

    async def elsewhere(request):
        followed.append(request.headers.get("Authorization"))
        return web.json_response({"messages": [{"id": "wamid.stolen"}]})

    app = web.Application()
    app.router.add_post(f"/v21.0/{PHONE_NUMBER_ID}/messages", moved)
    app.router.add_post("/elsewhere", elsewhere)
    server = await aiohttp_server(app, host="127.0.0.1")
    provider = FakeProvider(url=str(server.make_url("/v21.0")))
    delivery = await _send(provider)
    assert delivery.status == "failed" and delivery.error.startswith("provider answered 307")
    assert followed == []


async def test_a_huge_answer_is_read_only_up_to_its_cap(aiohttp_server):
    async def huge(_request):
        return web.Response(body=b"x" * (ANSWER_BYTES * 50), status=400)

    app = web.Application()
    app.router.add_post(f"/v21.0/{PHONE_NUMBER_ID}/messages", huge)
    server = await aiohttp_server(app, host="127.0.0.1")
    delivery = await _send(FakeProvider(url=str(server.make_url("/v21.0"))))
    assert delivery.status == "failed" and delivery.error.startswith("provider answered 400: xxx")


@pytest.mark.parametrize(
    "url",
    [
        "http://graph.facebook.com/v21.0",
        "ftp://graph.facebook.com",
        "graph.facebook.com/v21.0",
        "https:///v21.0",
    ],
)
def test_a_messaging_url_that_is_not_https_is_a_configuration_error(url):
    with pytest.raises(ConfigError, match="MESSAGING_API_URL must be an https:// URL"):
        make_settings(MESSAGING_API_URL=url)


@pytest.mark.parametrize(
    "url",
    [
        "https://graph.facebook.com/v21.0",
        "http://127.0.0.1:8081/v21.0",
        "http://localhost/v1",
        "http://[::1]:9/v1",
    ],
)
def test_https_or_a_local_http_messaging_url_is_taken(url):
    assert make_settings(MESSAGING_API_URL=url).messaging_api_url == url
