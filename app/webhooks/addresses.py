"""Which addresses webhooks may reach (docs/webhooks.md#addresses), after OWASP's advice on
server-side request forgery: an endpoint is added by a person, and without these rules the
service would post to the machines of its own network, the cloud metadata service or itself.

Every address a host name resolves to is checked, and the connection goes to exactly those
addresses: `CheckedResolver` resolves once and hands aiohttp what it checked, so a name that
answers one address to a check and another to the connection (DNS rebinding) gains nothing.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Awaitable, Callable, Sequence

from aiohttp.abc import AbstractResolver, ResolveResult

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class Refused(Exception):
    """Webhooks may not go there; the message says why, for the admin."""


# The kinds of address no webhook goes to, as the messages name them.
LOOPBACK = "a loopback address (this machine)"
PRIVATE = "a private network address"
SHARED = "a carrier-grade NAT address (100.64.0.0/10)"
UNIQUE_LOCAL = "a unique-local IPv6 address (fc00::/7)"
LINK_LOCAL = "a link-local address (where cloud metadata services answer)"
MULTICAST = "a multicast address"
UNSPECIFIED = "an unspecified address"
RESERVED = "a reserved address (documentation, benchmarking, broadcast or unassigned)"
# What WEBHOOKS_ALLOW_PRIVATE lets through: the networks of one's own machines. Link-local
# addresses (the metadata service), multicast, unspecified and reserved ones never receive.
PRIVATE_KINDS = frozenset((LOOPBACK, PRIVATE, SHARED, UNIQUE_LOCAL))

_net = ipaddress.ip_network
RANGES = (
    (_net("0.0.0.0/8"), UNSPECIFIED),
    (_net("127.0.0.0/8"), LOOPBACK),
    (_net("10.0.0.0/8"), PRIVATE),
    (_net("172.16.0.0/12"), PRIVATE),
    (_net("192.168.0.0/16"), PRIVATE),
    (_net("100.64.0.0/10"), SHARED),
    (_net("169.254.0.0/16"), LINK_LOCAL),
    (_net("224.0.0.0/4"), MULTICAST),
    (_net("240.0.0.0/4"), RESERVED),
    (_net("::/128"), UNSPECIFIED),
    (_net("::1/128"), LOOPBACK),
    (_net("fe80::/10"), LINK_LOCAL),
    (_net("fc00::/7"), UNIQUE_LOCAL),
    (_net("ff00::/8"), MULTICAST),
    # NAT64 for a network's own use (RFC 8215): it translates to that network's addresses.
    (_net("64:ff9b:1::/48"), PRIVATE),
)
# IPv6 on the internet is 2000::/3; outside it only special ranges (::/96, fec0::/10, …).
GLOBAL_UNICAST = _net("2000::/3")
# The well-known NAT64 prefix: its last 32 bits are the IPv4 address the packets go to.
NAT64 = _net("64:ff9b::/96")

PUBLIC_ONLY = "webhooks go only to public addresses"
NEEDS_HTTPS = "enter an https:// URL"
# A name that does not resolve within this many seconds counts as not found.
LOOKUP_SECONDS = 10.0


def kind(address: IPAddress) -> str | None:
    """The kind of `address` when no webhook may go to it, None for a public one."""
    if isinstance(address, ipaddress.IPv6Address) and (inner := carried(address)) is not None:
        return kind(inner)
    for network, name in RANGES:
        if address in network:
            return name
    if address.version == 6 and address not in GLOBAL_UNICAST:
        return RESERVED
    # Python's list covers the remaining special ranges (192.0.2.0/24, 198.18.0.0/15, …).
    return None if address.is_global else RESERVED


def carried(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one leads to (IPv4-mapped, NAT64, 6to4): where packets go."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address in NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFF_FFFF)
    return None


def check(subject: str, addresses: Sequence[IPAddress], scheme: str, allow_private: bool) -> None:
    """Refused unless a request of `scheme` may go to every one of `addresses`; `subject`
    begins the message ("10.0.0.5 is", "intranet.example resolves to")."""
    kinds = [kind(address) for address in addresses]
    for found in kinds:
        if found is not None and not (allow_private and found in PRIVATE_KINDS):
            raise Refused(f"{subject} {found}: {PUBLIC_ONLY}.")
    # Plain http is only for the private addresses WEBHOOKS_ALLOW_PRIVATE allows.
    if scheme != "https" and None in kinds:
        raise Refused(f"{subject} a public address: {NEEDS_HTTPS}.")


# Name → every address it has: the system's resolver, or a table in the tests.
Lookup = Callable[[str], Awaitable[Sequence[str]]]


async def system_lookup(host: str) -> list[str]:
    infos = await asyncio.get_running_loop().getaddrinfo(host, None, type=socket.SOCK_STREAM)
    return [info[4][0] for info in infos]


async def resolve(host: str, scheme: str, allow_private: bool, lookup: Lookup) -> list[IPAddress]:
    """Every address of the name `host`, each allowed (`check`); Refused when one is not, or
    when there is none."""
    try:
        async with asyncio.timeout(LOOKUP_SECONDS):
            found = await lookup(host)
    except (OSError, TimeoutError):  # socket.gaierror is an OSError
        found = []
    addresses = list(dict.fromkeys(ipaddress.ip_address(address) for address in found))
    if not addresses:
        raise Refused(f"No address was found for {host}: check the host name.")
    check(f"{host} resolves to", addresses, scheme, allow_private)
    return addresses


_FAMILIES = {4: socket.AF_INET, 6: socket.AF_INET6}


class CheckedResolver(AbstractResolver):
    """aiohttp's resolver for the requests of one scheme: it looks the name up once, refuses
    (Refused) unless every address it found is allowed, and gives aiohttp exactly those to
    connect to; TLS still verifies the certificate against the name. aiohttp asks no resolver
    for a URL whose host is an IP address: check those before the request."""

    def __init__(self, scheme: str, allow_private: bool, lookup: Lookup = system_lookup):
        self._scheme = scheme
        self._allow_private = allow_private
        self._lookup = lookup

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        addresses = await resolve(host, self._scheme, self._allow_private, self._lookup)
        return [
            ResolveResult(
                hostname=host,
                host=str(address),
                port=port,
                family=_FAMILIES[address.version],
                proto=0,
                flags=socket.AI_NUMERICHOST | socket.AI_NUMERICSERV,
            )
            for address in addresses
            if family in (socket.AF_UNSPEC, _FAMILIES[address.version])
        ]

    async def close(self) -> None:
        """Nothing to release: lookups go through the event loop's executor."""
