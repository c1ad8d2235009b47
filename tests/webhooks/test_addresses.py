"""Where webhooks may go: the URL rules with a name table standing in for DNS (the lookup is
a parameter), the checking resolver aiohttp is given, and the client built on it, with a real
receiver on this machine (TLS included)."""

import asyncio
import socket
import ssl

import aiohttp
import pytest
import trustme
from aiohttp import web

from app.webhooks.addresses import CheckedResolver, Refused
from app.webhooks.client import Client
from app.webhooks.endpoints import problem

PUBLIC_ONLY = "webhooks go only to public addresses."
LOOPBACK = f"a loopback address (this machine): {PUBLIC_ONLY}"
PRIVATE = f"a private network address: {PUBLIC_ONLY}"
SHARED = f"a carrier-grade NAT address (100.64.0.0/10): {PUBLIC_ONLY}"
UNIQUE_LOCAL = f"a unique-local IPv6 address (fc00::/7): {PUBLIC_ONLY}"
LINK_LOCAL = f"a link-local address (where cloud metadata services answer): {PUBLIC_ONLY}"
MULTICAST = f"a multicast address: {PUBLIC_ONLY}"
UNSPECIFIED = f"an unspecified address: {PUBLIC_ONLY}"
RESERVED = (
    f"a reserved address (documentation, benchmarking, broadcast or unassigned): {PUBLIC_ONLY}"
)
NOT_AN_IP = "Write an IP address as four numbers from 0 to 255, like 203.0.113.7."
CREDENTIALS = "The URL must not hold a user name or password: the secret signs each request."

# The name table the lookups read instead of DNS.
NAMES = {
    "hooks.example": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
    "metadata.google.internal": ["169.254.169.254"],
    "intranet.example": ["10.0.0.5"],
    "intranet.example.": ["10.0.0.5"],
    # One public address and one private: the private one refuses the name.
    "split.example": ["93.184.215.14", "192.168.1.20"],
    "mapped.example": ["::ffff:10.0.0.5"],
    "receiver.test": ["127.0.0.1"],
}


async def table(host: str) -> list[str]:
    if host not in NAMES:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    return NAMES[host]


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("https://10.0.0.5/", f"10.0.0.5 is {PRIVATE}"),
        ("https://10.255.255.255/", f"10.255.255.255 is {PRIVATE}"),
        ("https://172.16.0.1/", f"172.16.0.1 is {PRIVATE}"),
        ("https://172.31.255.254/", f"172.31.255.254 is {PRIVATE}"),
        ("https://192.168.1.1/", f"192.168.1.1 is {PRIVATE}"),
        ("https://127.0.0.1:8443/", f"127.0.0.1 is {LOOPBACK}"),
        ("https://127.255.0.1/", f"127.255.0.1 is {LOOPBACK}"),
        ("https://[::1]/", f"::1 is {LOOPBACK}"),
        ("https://169.254.169.254/latest/meta-data/", f"169.254.169.254 is {LINK_LOCAL}"),
        ("https://[fe80::1]/", f"fe80::1 is {LINK_LOCAL}"),
        ("https://[fe80::1%25eth0]/", f"fe80::1%25eth0 is {LINK_LOCAL}"),
        ("https://100.64.0.1/", f"100.64.0.1 is {SHARED}"),
        ("https://100.127.255.254/", f"100.127.255.254 is {SHARED}"),
        ("https://[fd00::1]/", f"fd00::1 is {UNIQUE_LOCAL}"),
        ("https://[fc00::1]/", f"fc00::1 is {UNIQUE_LOCAL}"),
        ("https://224.0.0.1/", f"224.0.0.1 is {MULTICAST}"),
        ("https://239.255.255.250/", f"239.255.255.250 is {MULTICAST}"),
        ("https://[ff02::1]/", f"ff02::1 is {MULTICAST}"),
        ("https://0.0.0.0/", f"0.0.0.0 is {UNSPECIFIED}"),
        ("https://[::]/", f":: is {UNSPECIFIED}"),
        ("https://255.255.255.255/", f"255.255.255.255 is {RESERVED}"),
        ("https://240.0.0.1/", f"240.0.0.1 is {RESERVED}"),
        ("https://192.0.2.10/", f"192.0.2.10 is {RESERVED}"),
        ("https://198.18.0.1/", f"198.18.0.1 is {RESERVED}"),
        ("https://[2001:db8::1]/", f"2001:db8::1 is {RESERVED}"),
        ("https://[fec0::1]/", f"fec0::1 is {RESERVED}"),
        # IPv6 forms that lead to an IPv4 address are judged by it.
        ("https://[::ffff:10.0.0.5]/", f"(which leads to 10.0.0.5) is {PRIVATE}"),
        ("https://[::ffff:127.0.0.1]/", f"(which leads to 127.0.0.1) is {LOOPBACK}"),
        ("https://[::ffff:169.254.169.254]/", f"(which leads to 169.254.169.254) is {LINK_LOCAL}"),
        ("https://[64:ff9b::10.0.0.5]/", f"(which leads to 10.0.0.5) is {PRIVATE}"),
        ("https://[2002:a00:5::1]/", f"(which leads to 10.0.0.5) is {PRIVATE}"),
        ("https://[64:ff9b:1::1]/", f"64:ff9b:1::1 is {PRIVATE}"),
        # The old numeric forms of 127.0.0.1, and others that are no address as written.
        ("https://0x7f.1/", NOT_AN_IP),
        ("https://0x7f000001/", NOT_AN_IP),
        ("https://2130706433/", NOT_AN_IP),
        ("https://017700000001/", NOT_AN_IP),
        ("https://127.1/", NOT_AN_IP),
        ("https://127.0.0.01/", NOT_AN_IP),
        ("https://127.0.0.1./", NOT_AN_IP),
        ("https://8.8.8.8.8/", NOT_AN_IP),
        ("https://%31%32%37.0.0.1/", NOT_AN_IP),
        ("https://hooks%2Eexample/", "Enter a host name (letters, digits, hyphens and dots)"),
        # Names: every address they resolve to is checked.
        ("https://metadata.google.internal/", f"metadata.google.internal resolves to {LINK_LOCAL}"),
        ("https://intranet.example/hook", f"intranet.example resolves to {PRIVATE}"),
        ("https://INTRANET.example./hook", f"intranet.example. resolves to {PRIVATE}"),
        ("https://split.example/", f"split.example resolves to {PRIVATE}"),
        ("https://mapped.example/", f"mapped.example resolves to {PRIVATE}"),
        ("https://nowhere.example/", "No address was found for nowhere.example"),
        # User information, whatever the host.
        ("https://user:pw@hooks.example/x", CREDENTIALS),
        ("https://token@hooks.example/x", CREDENTIALS),
        ("https://admin@10.0.0.5/", CREDENTIALS),
        # Plain http, or no URL at all.
        ("http://hooks.example/x", "Enter an https:// URL."),
        ("http://127.0.0.1:8000/", "Enter an https:// URL."),
        ("ftp://hooks.example/x", "Enter an https:// URL."),
        ("https://", "Enter an https:// URL."),
        ("//hooks.example/x", "Enter an https:// URL."),
        ("https://hooks.example:port/", "Enter an https:// URL."),
        ("https://hooks.example/\x00", "Enter an https:// URL."),
        ("https://hooks.example/" + "a" * 1980, "At most 2,000 characters."),
    ],
)
async def test_refused(url, message):
    found = await problem(url, False, table)
    assert found is not None and message in found, found


@pytest.mark.parametrize(
    "url",
    [
        "https://hooks.example/rider-ops",
        "https://hooks.example:8443/x?token=abc#frag",
        "https://93.184.215.14/",
        "https://[2606:4700:4700::1111]/",
        "https://[::ffff:93.184.215.14]/",
        "https://[2002:5db8:d70e::1]/",
    ],
)
async def test_public_https_is_accepted(url):
    assert await problem(url, False, table) is None


@pytest.mark.parametrize(
    "url",
    [
        "http://receiver.test:8000/hook",
        "http://127.0.0.1:8000/hook",
        "http://[::1]:9000/",
        "https://10.0.0.5/",
        "http://intranet.example/",
        "https://100.64.0.1/",
        "http://[fd00::1]/",
        "https://hooks.example/",
    ],
)
async def test_allowing_private_addresses_takes_private_and_loopback_over_http_too(url):
    assert await problem(url, True, table) is None


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://hooks.example/", "hooks.example resolves to a public address: enter an https://"),
        ("http://split.example/", "split.example resolves to a public address: enter an https://"),
        ("http://93.184.215.14/", "93.184.215.14 is a public address: enter an https:// URL."),
        ("https://169.254.169.254/", f"169.254.169.254 is {LINK_LOCAL}"),
        ("http://metadata.google.internal/", f"metadata.google.internal resolves to {LINK_LOCAL}"),
        ("https://224.0.0.1/", f"224.0.0.1 is {MULTICAST}"),
        ("https://0.0.0.0/", f"0.0.0.0 is {UNSPECIFIED}"),
        ("ftp://receiver.test/", "Enter an https:// URL (http:// only to a private or loopback"),
    ],
)
async def test_allowing_private_addresses_still_refuses(url, message):
    found = await problem(url, True, table)
    assert found is not None and found.startswith(message), found


async def test_a_lookup_that_does_not_answer_in_time_finds_nothing(monkeypatch):
    from app.webhooks import addresses

    monkeypatch.setattr(addresses, "LOOKUP_SECONDS", 0.05)

    async def silent(host: str) -> list[str]:
        await asyncio.sleep(10)
        return ["93.184.215.14"]

    assert await problem("https://slow.example/", False, silent) == (
        "No address was found for slow.example: check the host name."
    )


async def test_the_resolver_gives_aiohttp_exactly_the_checked_addresses():
    resolver = CheckedResolver("https", False, table)
    found = await resolver.resolve("hooks.example", 443, socket.AF_UNSPEC)
    assert [(r["host"], r["port"], r["family"]) for r in found] == [
        ("93.184.215.14", 443, socket.AF_INET),
        ("2606:2800:21f:cb07:6820:80da:af6b:8b2c", 443, socket.AF_INET6),
    ]
    assert {r["hostname"] for r in found} == {"hooks.example"}
    only_v4 = await resolver.resolve("hooks.example", 443, socket.AF_INET)
    assert [r["host"] for r in only_v4] == ["93.184.215.14"]


@pytest.mark.parametrize("host", ["split.example", "intranet.example", "nowhere.example"])
async def test_the_resolver_refuses_a_name_with_one_address_not_allowed(host):
    with pytest.raises(Refused):
        await CheckedResolver("https", False, table).resolve(host, 443, socket.AF_UNSPEC)


@pytest.fixture
async def receiver(aiohttp_server):
    """A receiver on 127.0.0.1 answering 204; `.requests` counts what reached it."""
    received = []

    async def hook(request: web.Request) -> web.Response:
        received.append(request.host)
        return web.Response(status=204)

    app = web.Application()
    app.router.add_post("/hook", hook)
    server = await aiohttp_server(app)
    server.requests = received
    return server


class CountingTable:
    """The name table, counting the lookups; `answers` may change what a name gives."""

    def __init__(self):
        self.lookups = 0
        self.answers = dict(NAMES)

    async def __call__(self, host: str) -> list[str]:
        self.lookups += 1
        return self.answers[host]


TIMEOUT = aiohttp.ClientTimeout(total=5)


async def test_the_client_connects_where_the_one_lookup_said(receiver):
    names = CountingTable()
    async with Client(True, TIMEOUT, names) as client:
        async with client.post(f"http://receiver.test:{receiver.port}/hook") as response:
            assert response.status == 204
        assert (names.lookups, receiver.requests) == (1, [f"receiver.test:{receiver.port}"])


async def test_the_client_sends_nothing_to_a_name_that_resolves_to_a_private_address(receiver):
    names = CountingTable()
    names.answers["receiver.test"] = ["93.184.215.14", "127.0.0.1"]
    async with Client(False, TIMEOUT, names) as client:
        with pytest.raises(Refused, match="receiver.test resolves to a loopback address"):
            await client.post(f"https://receiver.test:{receiver.port}/hook")
    assert receiver.requests == []


async def test_the_client_refuses_an_ip_address_without_a_lookup(receiver):
    names = CountingTable()
    async with Client(False, TIMEOUT, names) as client:
        with pytest.raises(Refused, match="127.0.0.1 is a loopback address"):
            client.post(f"https://127.0.0.1:{receiver.port}/hook")
    assert (names.lookups, receiver.requests) == (0, [])


@pytest.fixture
async def tls_receiver(aiohttp_server):
    """A receiver on 127.0.0.1 over TLS, with a certificate for `localhost` only from a test
    authority; `.trust` is a client context that trusts that authority."""
    authority = trustme.CA()
    served = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert("localhost").configure_cert(served)

    async def hook(request: web.Request) -> web.Response:
        return web.Response(status=204)

    app = web.Application()
    app.router.add_post("/hook", hook)
    server = await aiohttp_server(app, ssl=served)
    server.trust = ssl.create_default_context()
    authority.configure_trust(server.trust)
    return server


async def test_tls_verifies_the_name_not_the_address_connected_to(tls_receiver):
    names = CountingTable()
    names.answers["localhost"] = ["127.0.0.1"]
    names.answers["other.test"] = ["127.0.0.1"]
    async with Client(True, TIMEOUT, names, tls=tls_receiver.trust) as client:
        async with client.post(f"https://localhost:{tls_receiver.port}/hook") as response:
            assert response.status == 204
        # The same address under a name the certificate does not hold.
        with pytest.raises(aiohttp.ClientConnectorCertificateError):
            await client.post(f"https://other.test:{tls_receiver.port}/hook")
