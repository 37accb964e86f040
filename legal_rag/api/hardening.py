"""What every response of the API gets, whatever the route: a body limit enforced before anything
reads the body, security headers, error bodies that name nothing of the server's insides, a limit
on guessed keys per client address, and the OpenAPI UI from package assets (``/docs`` offline).

All of it is plain ASGI (no ``BaseHTTPMiddleware``), so it also covers streamed responses, and the
body limit holds before FastAPI parses a body and before a route's key check runs.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import re
import threading
import time
import uuid
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.staticfiles import StaticFiles

from legal_rag.settings import ApiSettings

__all__ = ["FailedKeyLimiter", "install_hardening", "page_policy", "scrub"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

log = logging.getLogger("legal_rag.api")

UPLOAD_PATHS = frozenset({"/v1/ingest"})
"""Routes that take files: their limit is ``api.max_upload_mb``; every other route's is ``api.max_body_kb``."""

DOCS_ASSETS = "/docs/assets"

# -- failed keys -------------------------------------------------------------------------------------


class FailedKeyLimiter:
    """Unknown keys per client address: after ``max_failures`` within ``window_s`` seconds the address
    is refused (429) until the oldest of those failures leaves the window.

    Separate from the per-key :class:`legal_rag.api.security.RateLimiter`: that one meters a key
    that exists; this one stops an address from guessing keys. At most ``max_addresses`` are
    remembered (the least recently failing are forgotten first), so a flood of addresses cannot
    exhaust memory.
    """

    def __init__(self, max_failures: int, window_s: float, *, max_addresses: int = 100_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.max_failures = max_failures
        self.window_s = window_s
        self._max_addresses = max_addresses
        self._clock = clock
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def blocked_for(self, address: str) -> float:
        """Seconds until ``address`` may try a key again; 0 when it may now."""
        with self._lock:
            times = self._recent(address)
            if times is None or len(times) < self.max_failures:
                return 0.0
            return max(0.0, times[-self.max_failures] + self.window_s - self._clock())

    def failed(self, address: str) -> None:
        """Count one unknown or revoked key sent from ``address``."""
        with self._lock:
            times = self._recent(address)
            if times is None:
                times = self._failures[address] = deque(maxlen=self.max_failures)
                while len(self._failures) > self._max_addresses:
                    self._failures.popitem(last=False)
            times.append(self._clock())
            self._failures.move_to_end(address)

    def _recent(self, address: str) -> deque[float] | None:
        times = self._failures.get(address)
        if times is None:
            return None
        horizon = self._clock() - self.window_s
        while times and times[0] <= horizon:
            times.popleft()
        return times


# -- body limit --------------------------------------------------------------------------------------


class BodyLimit:
    """Refuse a request body over the route's limit with 413, before the app reads any of it.

    A declared ``Content-Length`` over the limit is refused at once (the app never runs, so neither
    parsing nor the key check happens). A body without one (chunked) is counted as it streams in;
    the moment it passes the limit the client gets the 413 and the app reads an end of input, so
    nothing past the limit is buffered or parsed.
    """

    def __init__(self, app: ASGIApp, *, limit_for: Callable[[str], int]) -> None:
        self.app = app
        self.limit_for = limit_for

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope["path"])
        declared = _header(scope, b"content-length")
        if declared is not None:
            if not declared.isdigit():
                await _problem(send, 400, "Content-Length must be a whole number of bytes")
                return
            if int(declared) > limit:
                await _problem(send, 413, _too_large(limit))
                return
        state = {"seen": 0, "refused": False, "started": False}

        async def limited_receive() -> Message:
            if state["refused"]:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                state["seen"] += len(message.get("body", b""))
                if state["seen"] > limit:
                    state["refused"] = True
                    if not state["started"]:
                        await _problem(send, 413, _too_large(limit))
                        state["started"] = True
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            if state["refused"]:
                return  # the 413 has been sent; whatever the app answers after an end of input is dropped
            if message["type"] == "http.response.start":
                state["started"] = True
            await send(message)

        await self.app(scope, limited_receive, guarded_send)


def _too_large(limit: int) -> str:
    size = f"{limit // (1024 * 1024)} MB" if limit >= 1024 * 1024 else f"{max(1, limit // 1024)} KB"
    return f"request body too large: this route accepts at most {size}"


# -- headers and error bodies ------------------------------------------------------------------------


API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
"""For everything that is not a page (JSON, events, metrics): nothing may load, nothing may frame it."""

DOCS_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
               "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
"""Swagger UI: its own files only (it writes some style elements itself, hence inline styles here alone)."""


def page_policy(html: str) -> str:
    """A strict Content-Security-Policy for one HTML page: scripts and styles from this server, plus
    exactly the inline ``<script>`` and ``<style>`` elements the page ships (by SHA-256), never
    ``'unsafe-inline'`` for scripts. Style attributes are allowed only if the page uses them."""

    def hashes(tag: str) -> str:
        bodies = re.findall(rf"<{tag}(?![^>]*\bsrc=)[^>]*>(.*?)</{tag}>", html, flags=re.S | re.I)
        return "".join(f" 'sha256-{base64.b64encode(hashlib.sha256(b.encode()).digest()).decode()}'"
                       for b in bodies)

    attrs = "; style-src-attr 'unsafe-inline'" if re.search(r"<[^>]+\sstyle=", html) else ""
    return (f"default-src 'self'; script-src 'self'{hashes('script')}; style-src 'self'{hashes('style')}{attrs}; "
            "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
            "frame-ancestors 'none'")


class SecurityHeaders:
    """Add CSP, ``X-Frame-Options: DENY``, ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy:
    no-referrer`` to every response (and ``Cache-Control: no-store`` to the API's, which carry
    clients' facts); ``policies`` maps exact paths or path prefixes to their CSP."""

    def __init__(self, app: ASGIApp, *, policy_for: Callable[[str], str]) -> None:
        self.app = app
        self.policy_for = policy_for

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", [])
                           if k.lower() not in _SECURITY_HEADER_NAMES]
                headers += [(k.encode(), v.encode()) for k, v in security_headers(self.policy_for(path)).items()]
                if path.startswith("/v1/") and not any(k.lower() == b"cache-control" for k, _ in headers):
                    headers.append((b"cache-control", b"no-store"))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)


def security_headers(policy: str) -> dict[str, str]:
    return {"content-security-policy": policy, "x-frame-options": "DENY", "x-content-type-options": "nosniff",
            "referrer-policy": "no-referrer"}


_SECURITY_HEADER_NAMES = frozenset(k.encode() for k in security_headers(""))

_SERVER_PATH = re.compile(r"(?<![\w.:/-])/(?:tmp|var|home|root|usr|opt|srv|etc|work|mnt|data|proc|run|private)"
                          r"(?:/[^\s'\"(),;:]*)?")


def scrub(text: str, roots: tuple[str, ...] = ()) -> str:
    """``text`` without the server's file paths: each becomes its last part (a file's own name)."""
    for root in sorted(roots, key=len, reverse=True):
        if root and root != "/":
            text = re.sub(re.escape(root) + r"(?:/[^\s'\"(),;:]*)?", lambda m: _last_part(m.group(0)), text)
    return _SERVER_PATH.sub(lambda m: _last_part(m.group(0)), text)


def _last_part(path: str) -> str:
    name = path.rstrip("/").rsplit("/", 1)[-1]
    return name if name and not name.startswith(".") else "(server path)"


class ScrubErrors:
    """Error bodies (status >= 400, JSON) name nothing internal: server file paths are cut to the
    file's own name and a traceback never leaves the process. A net under every route's own
    handling, whichever module raises."""

    def __init__(self, app: ASGIApp, *, roots: tuple[str, ...], max_bytes: int = 256 * 1024) -> None:
        self.app = app
        self.roots = roots
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        held: dict[str, Any] = {"start": None, "body": bytearray(), "passthrough": False}

        async def scrubbing_send(message: Message) -> None:
            if held["passthrough"]:
                await send(message)
                return
            if message["type"] == "http.response.start":
                ctype = dict(message.get("headers", [])).get(b"content-type", b"")
                if message["status"] >= 400 and ctype.startswith(b"application/json"):
                    held["start"] = message
                    return
                held["passthrough"] = True
                await send(message)
                return
            if message["type"] == "http.response.body" and held["start"] is not None:
                held["body"].extend(message.get("body", b""))
                if message.get("more_body", False) and len(held["body"]) <= self.max_bytes:
                    return
                body = self._clean(bytes(held["body"]))
                start = held["start"]
                start["headers"] = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
                if not message.get("more_body", False):
                    start["headers"].append((b"content-length", str(len(body)).encode()))
                await send(start)
                await send({"type": "http.response.body", "body": body,
                            "more_body": message.get("more_body", False)})
                held["passthrough"] = True
                return
            await send(message)

        await self.app(scope, receive, scrubbing_send)

    def _clean(self, body: bytes) -> bytes:
        text = body.decode("utf-8", "replace")
        if "Traceback (most recent call last)" in text:
            return json.dumps({"detail": "internal error; the server log has the details"}).encode()
        return scrub(text, self.roots).encode()


# -- the docs page -----------------------------------------------------------------------------------


_DOCS_HTML = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} - API docs</title>
<link rel="stylesheet" href="{assets}/swagger-ui.css">
<link rel="icon" href="{assets}/favicon.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="{assets}/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
"""

_DOCS_INIT = """window.ui = SwaggerUIBundle({
  url: %s,
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
"""


def _docs_assets() -> Path:
    import fastapi_offline

    return Path(fastapi_offline.__file__).parent / "static"


def _install_docs(api: FastAPI) -> None:
    """``/docs``: Swagger UI from the files of the ``fastapi-offline`` package (no CDN), with its start-up
    script in a file of its own so the page runs under a CSP without inline scripts."""
    openapi_url = api.openapi_url or "/openapi.json"
    page = _DOCS_HTML.format(title=api.title, assets=DOCS_ASSETS)
    init = _DOCS_INIT % json.dumps(openapi_url)
    api.mount(DOCS_ASSETS, StaticFiles(directory=_docs_assets()), name="docs-assets")

    @api.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return HTMLResponse(page)

    @api.get("/docs/init.js", include_in_schema=False)
    def docs_init() -> Response:
        return Response(init, media_type="text/javascript")


# -- wiring ------------------------------------------------------------------------------------------


def install_hardening(api: FastAPI, settings: ApiSettings, *, page_html: str, roots: tuple[str, ...]) -> None:
    """Put the limits, headers, error scrubbing, failed-key limiter and offline docs on ``api``.

    Call after every other middleware is added: these wrap them all (the body limit outermost).

    Args:
        api: The app, built with ``docs_url=None, redoc_url=None``.
        settings: Body limits and the failed-key window.
        page_html: The research page, whose inline script and style elements the page CSP admits by hash.
        roots: Server directories (the state dir) whose paths must never appear in an error body.
    """
    api.state.failed_keys = FailedKeyLimiter(settings.failed_key_limit, settings.failed_key_window_s)
    _install_docs(api)
    page = page_policy(page_html)

    def policy_for(path: str) -> str:
        if path == "/":
            return page
        if path == "/docs" or path.startswith("/docs/"):
            return DOCS_POLICY
        return API_POLICY

    upload_limit = settings.max_upload_mb * 1024 * 1024 + 64 * 1024  # a multipart envelope around the file
    body_limit = settings.max_body_kb * 1024

    def limit_for(path: str) -> int:
        return upload_limit if path in UPLOAD_PATHS else body_limit

    @api.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> JSONResponse:
        ref = uuid.uuid4().hex[:12]
        log.error("internal error %s on %s %s", ref, request.method, request.url.path, exc_info=exc)
        return JSONResponse({"detail": f"internal error (reference {ref}); nothing was stored"}, status_code=500,
                            headers=security_headers(API_POLICY))

    api.add_middleware(ScrubErrors, roots=roots)
    api.add_middleware(SecurityHeaders, policy_for=policy_for)
    api.add_middleware(BodyLimit, limit_for=limit_for)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return str(value.decode("latin-1").strip())
    return None


async def _problem(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
               (b"connection", b"close")]
    headers += [(k.encode(), v.encode()) for k, v in security_headers(API_POLICY).items()]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
