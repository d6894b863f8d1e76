"""deploy/nginx.conf as it ships, run by Debian's nginx in front of two app processes
(PostgreSQL, Redis), with a certificate made by deploy/make-local-cert.sh: real TLS handshakes
trusting that certificate alone; and nginx with no app process up, whose own answers carry the
security headers too.

The shipped file is changed only where this machine differs from the compose network: the
upstream servers are the test's processes, nginx listens on free loopback ports rather than 80
and 443, the certificate is in a temporary folder, and the redirect names the HTTPS port. Each
change must find its text, so a file that changes shape fails here rather than going untested.

nginx is installed by scripts/ensure-nginx.sh (./test); without it the test skips with the
reason, and fails with CI=true.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import time
import types
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
import websockets
from cardroom_client import Client

from tests.conftest import free_port
from tests.scale.conftest import ROOT, missing
from tests.scale.players import GAME, OPTIONS, SEATS, Player

pytestmark = pytest.mark.timeout(150)
CONF = Path(ROOT) / "deploy" / "nginx.conf"
MAKE_CERT = Path(ROOT) / "deploy" / "make-local-cert.sh"


def render(conf: str, apps, http_port: int, https_port: int, certs: Path) -> str:
    """The shipped file for this machine (see the module's docstring)."""
    servers = re.findall(r"server (app\d+):8000", conf)
    assert len(servers) == len(apps), servers
    for name, app in zip(servers, apps):
        conf = conf.replace(f"server {name}:8000", f"server 127.0.0.1:{app.port}")
    for old, new, count in [
            ("listen 80;", f"listen 127.0.0.1:{http_port};", 1),
            ("listen 443 ssl;", f"listen 127.0.0.1:{https_port} ssl;", 1),
            ("ssl_certificate /etc/nginx/certs/", f"ssl_certificate {certs}/", 1),
            ("ssl_certificate_key /etc/nginx/certs/", f"ssl_certificate_key {certs}/", 1),
            ("https://$host$request_uri", f"https://$host:{https_port}$request_uri", 1)]:
        assert conf.count(old) == count, f"deploy/nginx.conf no longer has {old!r} {count}x"
        conf = conf.replace(old, new)
    return conf


class Nginx:
    """nginx in the foreground on a folder of its own: the rendered file inside an http block,
    as the nginx image includes conf.d files."""

    def __init__(self, binary: str, home: Path, site: str):
        self.binary, self.home = binary, home
        (home / "cardroom.conf").write_text(site)
        user = "user root;" if os.geteuid() == 0 else ""  # workers reach the temporary folder
        temp = " ".join(f"{kind}_temp_path {home}/{kind};"
                        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        (home / "nginx.conf").write_text(f"""{user}
daemon off;
worker_processes 1;
pid {home}/nginx.pid;
events {{ worker_connections 256; }}
http {{
    access_log {home}/access.log;
    {temp}
    include {home}/cardroom.conf;
}}
""")
        self.args = [binary, "-p", str(home), "-c", str(home / "nginx.conf"),
                     "-e", str(home / "error.log")]
        self.proc: subprocess.Popen | None = None

    def start(self, port: int) -> None:
        checked = subprocess.run([*self.args, "-t"], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        self.proc = subprocess.Popen(self.args, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20  # only so that an nginx that never listens fails
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"nginx did not start: {self.log()}") from None
                time.sleep(0.05)

    def log(self) -> str:
        path = self.home / "error.log"
        return path.read_text() if path.exists() else ""

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)  # graceful: workers finish, then exit
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


@pytest.fixture
def nginx_binary():
    binary = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)
    if binary is None:
        missing("nginx", "not installed (scripts/ensure-nginx.sh installs Debian's)")
    if shutil.which("openssl") is None:
        missing("openssl", "deploy/make-local-cert.sh needs it")
    return binary


@contextmanager
def serve(nginx_binary: str, apps, tmp_path: Path):
    """The shipped nginx.conf in front of ``apps`` (anything with a ``port``), on a certificate
    of deploy/make-local-cert.sh: yields (https base, http base, a context trusting it)."""
    certs = tmp_path / "certs"
    made = subprocess.run([str(MAKE_CERT)], env={**os.environ, "CERT_DIR": str(certs)},
                          capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    http_port, https_port = free_port(), free_port()
    home = tmp_path / "nginx"
    home.mkdir()
    nginx = Nginx(nginx_binary, home, render(CONF.read_text(), apps, http_port, https_port,
                                             certs))
    nginx.start(https_port)
    trust = ssl.create_default_context(cafile=str(certs / "fullchain.pem"))
    try:
        yield f"https://127.0.0.1:{https_port}", f"http://127.0.0.1:{http_port}", trust
    finally:
        nginx.stop()


@pytest.fixture
def proxy(pg_url, redis_url, processes, nginx_binary, tmp_path):
    """Two app processes behind the shipped nginx.conf: (https base, http base, CA context,
    the processes)."""
    apps = processes(2, pg_url, redis_url)
    with serve(nginx_binary, apps, tmp_path) as bases:
        yield (*bases, apps)


def rooms_held(apps) -> list[int]:
    """How many rooms each process holds in memory (asked of each directly)."""
    return [httpx.get(f"{app.http}/api/health").json()["rooms"] for app in apps]


async def one_holds_the_room(apps) -> list[int]:
    """Wait until one process alone holds the room (the other's notices travel through
    Redis), and say how many each holds."""
    deadline = time.monotonic() + 20  # only so that a room held twice fails
    while sorted(held := rooms_held(apps)) != [0, 1] and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    assert sorted(held) == [0, 1], f"rooms held by each process: {held}"
    return held


def one(r: httpx.Response, header: str) -> str | None:
    """The header's value; nginx's fallback never doubles the app's own."""
    values = r.headers.get_list(header)
    assert len(values) <= 1, f"{r.request.url.path}: {header} {values}"
    return values[0] if values else None


def assert_headers(r: httpx.Response, host: str | None, referrer: str = "same-origin") -> None:
    """The app's headers as it set them (``host`` None: nginx's own answer, its fallbacks)."""
    where = f"{r.request.url.path} ({r.status_code})"
    https = r.request.url.scheme == "https"
    assert one(r, "strict-transport-security") == ("max-age=31536000" if https else None), where
    csp = one(r, "content-security-policy")
    assert "frame-ancestors 'none'" in csp and "unsafe" not in csp, where
    if host is None:
        assert csp.startswith("default-src 'none';"), where
    else:
        assert "script-src 'self';" in csp, where
        # the Host the browser asked for reached the app, port and all
        assert f"connect-src 'self' ws://{host} wss://{host}" in csp, where
    assert one(r, "x-content-type-options") == "nosniff", where
    assert one(r, "x-frame-options") == "DENY", where
    assert one(r, "referrer-policy") == referrer, where


@pytest.mark.services
async def test_https_through_the_shipped_nginx(proxy):
    https, http, trust, _ = proxy
    host = https.removeprefix("https://")
    async with httpx.AsyncClient(base_url=https, verify=trust) as client:
        lobby = await client.get("/")
        assert lobby.status_code == 200 and "/static/js/lobby.js" in lobby.text
        tls = lobby.extensions["network_stream"].get_extra_info("ssl_object")
        assert tls.version() in ("TLSv1.2", "TLSv1.3")
        assert ("IP Address", "127.0.0.1") in tls.getpeercert()["subjectAltName"]
        assert_headers(lobby, host)
        for path, status in (("/api/games", 200), ("/api/health", 200),
                             ("/static/js/common.js", 200), ("/nowhere", 404)):
            r = await client.get(path)
            assert r.status_code == status, path
            assert_headers(r, host)
        assert (await client.get("/api/health")).json()["ok"] is True
        assert_headers(await client.get("/me/continue"), host, referrer="no-referrer")
        assert_headers(await client.get("/nginx-health"), None)  # nginx's own answer
        created = await client.post("/api/rooms", json={"game": "marjolet",
                                                        "seats": ["open", "open"]})
        assert created.status_code == 201, created.text
        assert (await client.get(f"/api/rooms/{created.json()['code']}")).status_code == 200
        # the app believes the proxy: links it builds are https, at the address asked for
        me = await client.post("/api/me", json={"name": "Tereza"})
        assert me.status_code == 201, me.text
        device = await client.post("/api/me/device",
                                   headers={"X-Player-Key": me.json()["key"]})
        assert device.json()["link"].startswith(f"{https}/me/continue#key=")

    async with httpx.AsyncClient() as plain:
        r = await plain.get(f"{http}/history?player=Anna")
        assert r.status_code == 301
        assert r.headers["location"] == f"{https}/history?player=Anna"
        assert_headers(r, None)
        health = await plain.get(f"{http}/nginx-health")
        assert health.text == "ok\n"
        assert_headers(health, None)
    # a client that does not trust the local certificate gets no connection at all
    async with httpx.AsyncClient() as stranger:
        with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
            await stranger.get(https)


@pytest.mark.services
async def test_a_match_played_over_wss_through_nginx(proxy):
    """Two people on wss:// through nginx play a whole match, on the one process nginx picks
    for the room (the other, which may have made it, let it go); a page of another site gets
    no socket through the proxy either."""
    https, _, trust, apps = proxy
    wss = https.replace("https://", "wss://")
    async with httpx.AsyncClient(base_url=https, verify=trust) as client:
        r = await client.post("/api/rooms", json={"game": "black_maria", "options": {
            "target": 15}, "seats": ["open", "open", "bot:rules"]})
        code = r.json()["code"]
        tokens = []
        for seat, name in enumerate(("Vilma", "Oskar")):
            joined = await client.post(f"/api/rooms/{code}/join",
                                       json={"name": name, "seat": seat})
            assert joined.status_code == 200, joined.text
            tokens.append(joined.json()["token"])
    people = [Client(wss, code, token, name=f"p{seat}", ssl=trust, origin=https)
              for seat, token in enumerate(tokens)]
    for seat, person in enumerate(people):
        welcome = await person.connect()
        assert welcome["state"]["you"]["seat"] == seat
        assert person.ws.transport.get_extra_info("ssl_object").version() in ("TLSv1.2",
                                                                              "TLSv1.3")
    await asyncio.gather(*(p.play(timeout=90) for p in people))
    assert all(p.state["match"]["finished"] for p in people)
    assert people[0].state["match"]["totals"] == people[1].state["match"]["totals"]
    await one_holds_the_room(apps)
    for person in people:
        await person.close()
    with pytest.raises(websockets.InvalidStatus) as refused:
        async with websockets.connect(f"{wss}/ws/{code}", ssl=trust,
                                      origin="https://evil.example"):
            pass
    assert refused.value.response.status_code == 403


@pytest.mark.services
async def test_the_process_of_a_room_killed_nginx_sends_its_people_to_the_other(proxy):
    """The process nginx sends a room to is killed mid-match: its people reconnect through
    nginx (``since``, their unanswered action resent) to the other process, which finishes it."""
    https, _, trust, apps = proxy
    wss = https.replace("https://", "wss://")
    async with httpx.AsyncClient(base_url=https, verify=trust) as client:
        r = await client.post("/api/rooms", json={"game": GAME, "options": OPTIONS,
                                                  "seats": SEATS})
        code = r.json()["code"]
        tokens = [(await client.post(f"/api/rooms/{code}/join", json={
            "name": name, "seat": seat})).json()["token"] for seat, name in enumerate("AB")]
    people = [Player([wss], code, token, f"p{seat}", ssl=trust, origin=https)
              for seat, token in enumerate(tokens)]
    for person in people:
        await person.connect()
    held = await one_holds_the_room(apps)  # the joins told the room's maker to let it go
    home, other = apps if held[0] else apps[::-1]
    plays = [asyncio.create_task(p.play(timeout=120)) for p in people]
    while min(p.client.seq for p in people) < 12 and not any(t.done() for t in plays):
        await asyncio.sleep(0.02)
    home.kill()
    await asyncio.gather(*plays)
    assert all(p.reconnects for p in people)
    assert all(p.state["match"]["finished"] for p in people)
    assert rooms_held([other]) == [1]
    for person in people:
        await person.close()


async def test_nginx_alone_answers_with_the_headers(nginx_binary, tmp_path):
    """No app process answers (none listens on the upstream's ports): nginx's own 502 carries
    the security headers and HSTS all the same, as its redirect does."""
    nobody = [types.SimpleNamespace(port=free_port()) for _ in range(2)]
    with serve(nginx_binary, nobody, tmp_path) as (https, http, trust):
        async with httpx.AsyncClient(verify=trust) as client:
            r = await client.get(f"{https}/r/ABCDEF")
            assert r.status_code == 502
            assert_headers(r, None)
            r = await client.get(f"{http}/r/ABCDEF")
            assert r.status_code == 301
            assert_headers(r, None)
