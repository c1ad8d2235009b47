"""The README's quick start as a newcomer follows it, on a fresh data folder: the run command
(embedded database, no SESSION_SECRET), the setup link from its output, the first admin signed
in and signed in again, demo data with its riders' PINs, and a rider signed in with one."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from aiohttp.test_utils import unused_port

from tests.web import PHONE, sign_in_page

SETUP_LINE = re.compile(r"^Open (http://\S+/admin/setup\?token=\S+) to create the first admin$")
DEMO_RIDER = re.compile(r"^demo rider (R-\d+) \(.*\): PIN (\d{6}), sign in at (\S+)$", re.M)


def _fresh_environment(data_dir: Path, port: int) -> dict[str, str]:
    """The newcomer's shell: nothing of the tests' own settings."""
    environment = {
        name: value
        for name, value in os.environ.items()
        if not name.endswith("_API_KEY")
        and name not in ("DATABASE_URL", "SESSION_SECRET", "DATABASE_POOL_MODE")
    }
    return {**environment, "DATA_DIR": str(data_dir), "PORT": str(port), "HOST": "127.0.0.1"}


@contextlib.contextmanager
def _served(environment: dict[str, str], errors: Path):
    with open(errors, "wb") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "app", "serve"],
            env=environment,
            stdout=subprocess.DEVNULL,
            stderr=err,
            start_new_session=True,
        )
    try:
        yield process
    except BaseException:
        # What the server said is the first thing to read when this fails on another machine.
        print(errors.read_text(errors="replace")[-20_000:])
        raise
    finally:
        _stop(process)


def _stop(process: subprocess.Popen) -> None:
    """SIGTERM to the server's process group (its web processes, worker and database), then
    SIGKILL to whatever still runs a minute later."""
    for stop_signal in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, stop_signal)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=60)
            return


async def _setup_link(process: subprocess.Popen, errors: Path) -> str:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        for line in errors.read_text(errors="replace").splitlines():
            if found := SETUP_LINE.match(line):
                return found.group(1)
        assert process.poll() is None, errors.read_text(errors="replace")
        await asyncio.sleep(0.2)
    raise AssertionError(f"no setup link in the output:\n{errors.read_text(errors='replace')}")


async def _demo_data(environment: dict[str, str]) -> str:
    """`python -m app demo-data --riders 20`, as the README's second terminal runs it; the
    event loop (and the browser it drives) keeps running meanwhile."""
    demo = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "app",
        "demo-data",
        "--riders",
        "20",
        env=environment,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    stdout, stderr = await asyncio.wait_for(demo.communicate(), timeout=300)
    assert demo.returncode == 0, stderr.decode(errors="replace")
    return stdout.decode()


async def _wait_until_served(page, base: str) -> None:
    deadline = time.monotonic() + 60
    while True:
        with contextlib.suppress(Exception):
            if (await page.goto(f"{base}/readyz")).status == 200:
                return
        assert time.monotonic() < deadline, "the server did not become ready"
        await page.wait_for_timeout(200)


async def test_the_quick_start_gives_a_working_panel_and_rider_app(browser):
    data_dir = Path(tempfile.mkdtemp(prefix="rider-ops-first-minute-"))
    data_dir.chmod(0o755)  # the embedded server's own user reaches its data under it
    port = unused_port()
    base = f"http://localhost:{port}"
    environment = _fresh_environment(data_dir / "var", port)
    errors = data_dir / "serve.err"
    with _served(environment, errors) as process:
        link = await _setup_link(process, errors)
        assert link.startswith(f"{base}/admin/setup?token=")
        output = errors.read_text()
        assert f"SESSION_SECRET is not set: generated one, kept in {data_dir}/var" in output
        secret = data_dir / "var" / "session-secret"
        assert stat.S_IMODE(secret.stat().st_mode) == 0o600

        context = await browser.new_context(viewport=PHONE)
        page = await context.new_page()
        await _wait_until_served(page, base)
        await page.goto(link)
        await page.fill("#email", "first@example.com")
        await page.fill("#name", "First Admin")
        await page.fill("#password", "a long enough password")
        await page.click("button[type=submit]")
        assert page.url == f"{base}/admin"
        # Signed out, the same admin signs in again: the kept secret serves every sign-in.
        await page.click("text=Sign out")
        await sign_in_page(page, base, "first@example.com", "a long enough password")

        demo_output = await _demo_data(environment)
        riders = DEMO_RIDER.findall(demo_output)
        assert len(riders) == 3, demo_output
        rider_id, pin, sign_in_at = riders[0]
        assert sign_in_at == f"{base}/"

        await page.goto(f"{base}/admin/riders")
        assert rider_id in await page.content()

        rider_phone = await browser.new_context(viewport=PHONE)
        rider_page = await rider_phone.new_page()
        await rider_page.goto(sign_in_at)
        await rider_page.fill("#rider_id", rider_id)
        await rider_page.fill("#pin", pin)
        await rider_page.click("button[type=submit]")
        assert rider_page.url == f"{base}/training"
