"""deploy/Caddyfile in front of a real `serve` (docs/https.md): a real Caddy (Debian's package)
with its internal CA instead of Let's Encrypt, on high localhost ports."""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import signal
import ssl
import subprocess
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from aiohttp.test_utils import unused_port

from tests.served import serving

CADDY = "/usr/bin/caddy"
CADDYFILE = Path(__file__).resolve().parents[2] / "deploy" / "Caddyfile"
# The shipped global options (an ACME account's email) give way to a test's: no admin
# endpoint, high ports, the internal CA for every site, storage in the test's folder.
SHIPPED_GLOBAL_OPTIONS = "{\n\temail {$ACME_EMAIL}\n}\n"
TEST_GLOBAL_OPTIONS = """{{
	admin off
	http_port {http}
	https_port {https}
	local_certs
	skip_install_trust
	storage file_system {{
		root {storage}
	}}
}}
"""
UNKNOWN_PROOF = "/verify/ABCDEFGH"
VERIFY_ALLOWANCE = 5


class Proxied:
    def __init__(self, http_port: int, https_port: int, root_certificate: Path):
        self.http_port = http_port
        self.https_port = https_port
        self.tls = ssl.create_default_context(cafile=str(root_certificate))

    def get(self, path: str, *, source: str = "127.0.0.1", https: bool = True, headers=None):
        """One request on a fresh connection from `source` (a loopback address of its own:
        another client as Caddy sees it)."""
        if https:
            connection = http.client.HTTPSConnection(
                "localhost", self.https_port, context=self.tls, source_address=(source, 0)
            )
        else:
            connection = http.client.HTTPConnection(
                "localhost", self.http_port, source_address=(source, 0)
            )
        try:
            connection.request("GET", path, headers=headers or {})
            response = connection.getresponse()
            response.read()
            return response
        finally:
            connection.close()


@contextlib.contextmanager
def caddy(tmp_path: Path, upstream_port: int):
    assert os.path.exists(CADDY), "Caddy is needed for this test: apt-get install caddy"
    shipped = CADDYFILE.read_text(encoding="utf-8")
    assert SHIPPED_GLOBAL_OPTIONS in shipped
    http_port, https_port = unused_port(), unused_port()
    storage = tmp_path / "caddy"
    config = tmp_path / "Caddyfile"
    config.write_text(
        shipped.replace(
            SHIPPED_GLOBAL_OPTIONS,
            TEST_GLOBAL_OPTIONS.format(http=http_port, https=https_port, storage=storage),
        ),
        encoding="utf-8",
    )
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "RIDER_OPS_DOMAIN": "localhost",
        "RIDER_OPS_UPSTREAM": f"127.0.0.1:{upstream_port}",
    }
    log_path = tmp_path / "caddy.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [CADDY, "run", "--adapter", "caddyfile", "--config", str(config)],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            root = storage / "pki" / "authorities" / "local" / "root.crt"
            deadline = time.monotonic() + 30
            # Caddy makes its CA, then the site's certificate, in the background.
            while not (root.exists() and _answers(Proxied(http_port, https_port, root))):
                assert process.poll() is None, log_path.read_text()
                assert time.monotonic() < deadline, log_path.read_text()
                time.sleep(0.2)
            yield Proxied(http_port, https_port, root)
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _answers(proxied: Proxied) -> bool:
    try:
        return proxied.get("/healthz").status == 200
    except (OSError, http.client.HTTPException):  # ssl.SSLError is an OSError
        return False


@pytest.fixture
def behind_caddy(database_url, tmp_path):
    """`serve` with Caddy in front; yields (the proxied client, the direct base URL)."""
    https_port = unused_port()
    with serving(
        database_url,
        tmp_path / "serve.log",
        TRUSTED_PROXY_HOPS="1",
        PUBLIC_BASE_URL=f"https://localhost:{https_port}",
    ) as server:
        with caddy(tmp_path, urlsplit(server.base).port) as proxied:
            yield proxied, server.base


def test_https_answers_and_http_redirects_to_it(behind_caddy):
    proxied, _ = behind_caddy
    response = proxied.get("/healthz")
    assert response.status == 200
    redirect = proxied.get("/readyz?x=1", https=False)
    assert redirect.status in (301, 308)
    # The same address on https (Caddy 2.6 leaves a non-standard https port out; on a VM the
    # ports are 80 and 443).
    assert redirect.getheader("Location") in (
        f"https://localhost:{proxied.https_port}/readyz?x=1",
        "https://localhost/readyz?x=1",
    )


def test_cookies_are_secure_and_the_apps_security_headers_pass_unchanged(behind_caddy):
    proxied, direct = behind_caddy
    response = proxied.get("/")
    assert response.status == 200
    cookies = response.headers.get_all("Set-Cookie")
    assert cookies and all(re.search(r";\s*Secure", cookie, re.I) for cookie in cookies)
    parts = urlsplit(direct)
    connection = http.client.HTTPConnection(parts.hostname, parts.port)
    connection.request("GET", "/")
    straight = connection.getresponse()
    straight.read()
    connection.close()
    for header in (
        "Content-Security-Policy",
        "X-Frame-Options",
        "X-Content-Type-Options",
        "Referrer-Policy",
        "Cache-Control",
    ):
        assert response.getheader(header) == straight.getheader(header), header
        if header == "Content-Security-Policy":
            assert "script-src 'self'" in response.getheader(header)


def test_two_clients_behind_caddy_have_separate_verify_allowances(behind_caddy):
    proxied, _ = behind_caddy
    first, second = "127.0.0.2", "127.0.0.3"
    for _ in range(VERIFY_ALLOWANCE):
        assert proxied.get(UNKNOWN_PROOF, source=first).status == 404
    assert proxied.get(UNKNOWN_PROOF, source=first).status == 429
    # A forged X-Forwarded-For does not buy the first client a new allowance: Caddy appends
    # the address it saw, the rightmost entry, which is the one the service reads.
    forged = {"X-Forwarded-For": "198.51.100.7"}
    assert proxied.get(UNKNOWN_PROOF, source=first, headers=forged).status == 429
    assert proxied.get(UNKNOWN_PROOF, source=second).status == 404
