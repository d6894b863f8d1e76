"""What every response carries and which WebSockets are let in (docs/security.md).

``install(app)`` wraps the whole application, outside Starlette's own error handling, so that
pages, the API, static files, 404s and even a 500 carry the same headers:

- a Content-Security-Policy: scripts, styles, images and connections from this server only
  (no inline script, no inline style: the pages' data travels in ``<script
  type="application/json">`` blocks that the modules read), never in a frame of another site.
  The same policy holds for the API's reference, ``/docs``, whose Swagger UI is served from
  this server rather than a CDN (:mod:`app.web.apidocs`);
- ``X-Content-Type-Options: nosniff``, ``X-Frame-Options: DENY`` (for browsers older than
  ``frame-ancestors``), ``Referrer-Policy: same-origin`` (a route may set its own:
  ``/me/continue`` sets ``no-referrer``).

A request's body is at most :data:`MAX_BODY` bytes (nginx's ``client_max_body_size`` in
production; a server reached without it, through a tunnel, had taken in 31 MB and its memory
300 MB more): a longer one is answered 413 before the application reads it.

A WebSocket whose ``Origin`` is another site's is closed before it is accepted (the client sees
HTTP 403): a page elsewhere cannot open a socket to a table on its visitor's behalf. Its own
origin is the address the request was made to (its ``Host``), or ``PUBLIC_URL``'s. A request
without ``Origin`` (scripts, bots, the load bench) is let in: browsers always send one.
"""

from __future__ import annotations

import logging
import re
from urllib.parse import urlsplit

import orjson
from fastapi import FastAPI
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..protocol import Refusal

log = logging.getLogger("cardroom.security")

#: Sources of everything but images and connections (which also name the host's ws:// and
#: wss://).
POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; "
          "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
          "frame-ancestors 'none'")
#: Swagger UI's stylesheet draws its arrows and icons as data: images; an image runs nothing.
DATA_IMAGES = "/docs"
FIXED = {"x-content-type-options": "nosniff", "x-frame-options": "DENY"}
#: What may stand in a Host header that goes into the policy (anything else: 'self' alone).
_HOST = re.compile(r"[A-Za-z0-9.\-]+(:\d+)?|\[[0-9A-Fa-f:.]+\](:\d+)?")


def policy(host: str | None, path: str = "/") -> str:
    """The Content-Security-Policy of a response to a request for ``path`` made to ``host``.
    Images from this server (and data: images on the API's reference, ``/docs``); connections
    to this server only, its WebSocket named as well as ``'self'`` (browsers that predate CSP 3
    do not count ws:// and wss:// as ``'self'``)."""
    images = "img-src 'self' data:" if path == DATA_IMAGES else "img-src 'self'"
    connect = "connect-src 'self'"
    if host and _HOST.fullmatch(host):
        connect += f" ws://{host} wss://{host}"
    return f"{POLICY}; {images}; {connect}"


#: The longest request body taken in, in bytes (deploy/nginx.conf's ``client_max_body_size``).
MAX_BODY = 64 * 1024

#: The port a scheme implies, which an origin leaves out (``PUBLIC_URL`` may spell it).
_DEFAULT_PORT = {"http": ":80", "https": ":443", "ws": ":80", "wss": ":443"}


def _origin(url: str) -> str:
    """``scheme://host[:port]`` in lower case, without the scheme's own port; "" if none."""
    parts = urlsplit(url.strip())
    if not (parts.scheme and parts.netloc) or "@" in parts.netloc:
        return ""
    scheme, netloc = parts.scheme.lower(), parts.netloc.lower()
    return f"{scheme}://{netloc.removesuffix(_DEFAULT_PORT.get(scheme, '//'))}"


def origin_allowed(origin: str | None, host: str | None, public_url: str | None) -> bool:
    """Whether a WebSocket from a page of ``origin`` may open: no Origin (not a browser), the
    host it was asked of (the scheme aside: behind a proxy the server may not know it), or
    ``PUBLIC_URL``'s origin. ``null`` (a sandboxed frame, a file) is no origin of ours."""
    if origin is None:
        return True
    theirs = _origin(origin)
    if not theirs:
        return False
    if host and theirs.split("://", 1)[1] == host.strip().lower():
        return True
    return bool(public_url) and theirs == _origin(public_url)


class Guard:
    """The ASGI wrapper that adds the headers and checks the WebSocket's Origin."""

    def __init__(self, app: ASGIApp, public_url: str | None):
        self.app, self.public_url = app, public_url

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            send = self._headed(scope, send)
            body = await _body_within(scope, receive)
            if body is None:
                await _too_large(send)
                return
            await self.app(scope, _replaying(body, receive), send)
        elif scope["type"] == "websocket":
            headers = dict(scope["headers"])
            origin, host = headers.get(b"origin"), headers.get(b"host")
            if origin_allowed(origin and origin.decode("latin-1"),
                              host and host.decode("latin-1"), self.public_url):
                await self.app(scope, receive, send)
            else:
                log.info("websocket refused: origin %r is not %r", origin, host)
                await send({"type": "websocket.close", "code": 1008})  # before accept: 403
        else:
            await self.app(scope, receive, send)

    @staticmethod
    def _headed(scope: Scope, send: Send) -> Send:
        host = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), None)

        async def send_headed(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = raw = list(message.get("headers", []))
                headers = MutableHeaders(raw=raw)
                headers["content-security-policy"] = policy(host, scope["path"])
                for name, value in FIXED.items():
                    headers[name] = value
                if "referrer-policy" not in headers:
                    headers["referrer-policy"] = "same-origin"
            await send(message)

        return send_headed


async def _body_within(scope: Scope, receive: Receive) -> bytes | None:
    """The request's whole body, read here; None once it is longer than MAX_BODY (said by its
    Content-Length, or counted as it comes)."""
    length = next((v for k, v in scope["headers"] if k == b"content-length"), b"0")
    if not length.isdigit() or int(length) > MAX_BODY:
        return None
    chunks, size, more = [], 0, True
    while more:
        message = await receive()
        if message["type"] != "http.request":  # the client left: the application sees it
            break
        chunks.append(message.get("body", b""))
        size += len(chunks[-1])
        if size > MAX_BODY:
            return None
        more = message.get("more_body", False)
    return b"".join(chunks)


def _replaying(body: bytes, receive: Receive) -> Receive:
    """``receive`` for the application: the body read, in one message, then the client's."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


async def _too_large(send: Send) -> None:
    refusal = Refusal("too_large", "body_too_large", count=MAX_BODY)
    await send({"type": "http.response.start", "status": refusal.http_status,
                "headers": [(b"content-type", b"application/json"), (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": orjson.dumps(refusal.body())})


def install(app: FastAPI) -> None:
    """Wrap ``app``'s whole middleware stack (Starlette builds it on the first request), so
    that the error responses Starlette makes outside the routes carry the headers too."""
    build = app.build_middleware_stack
    public_url = app.state.settings.public_url
    app.build_middleware_stack = lambda: Guard(build(), public_url)  # type: ignore[method-assign]
