"""Fake model servers for tests: real HTTP servers on 127.0.0.1 that the official SDKs talk to.

``ScriptedServer`` is the shared machinery: a ``ThreadingHTTPServer`` on an ephemeral port in a
daemon thread, a queue of reply specs (plain dicts) and an optional responder consulted when the
queue is empty. Each fake (``anthropic_server.FakeAnthropic``, ``openai_server.FakeOpenAI``)
decides how a spec is spoken on the wire. A request the fake cannot answer (wrong path, bad JSON,
a body the real API would reject, nothing scripted) gets the API's own 4xx error, so the client
under test fails loudly instead of receiving a default.

Spec keys common to both fakes:
    ``{"error": status, "type": ..., "message": ..., "retry_after": seconds, "mid_stream": bool}``
    ``{"disconnect": True}`` close the connection without answering (``"mid_stream"``: after the
    first event of a streamed reply), ``"delay_s"`` wait this long before the first content token.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Self

Spec = dict[str, Any]
Responder = Callable[[dict[str, Any]], Spec]


class BadRequest(Exception):
    """The fake refuses a request the way the real API would (status and error type)."""

    def __init__(self, message: str, *, status: int = 400, type_: str = "invalid_request_error") -> None:
        super().__init__(message)
        self.status = status
        self.type_ = type_


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, fake: ScriptedServer) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.fake = fake


class _Handler(BaseHTTPRequestHandler):
    server: _HTTPServer

    def do_POST(self) -> None:
        self.server.fake._dispatch(self)

    def do_GET(self) -> None:
        self.server.fake._refuse(self, BadRequest(f"no route GET {self.path}", status=404, type_="not_found_error"))

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep test output clean


class ScriptedServer:
    """Base of the fakes: subclasses set ``route`` and implement ``_check``, ``_answer``, ``_error``."""

    route: str = "/"
    base_path: str = ""

    def __init__(self) -> None:
        self.base_url = ""
        self.requests: list[dict[str, Any]] = []
        self._replies: deque[Spec] = deque()
        self._responder: Responder | None = None
        self._lock = threading.Lock()
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -------------------------------------------------------------------------------

    def start(self) -> Self:
        self._httpd = _HTTPServer(self)
        host, port = self._httpd.server_address[:2]
        self.base_url = f"http://{host!s}:{port}{self.base_path}"
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, name=type(self).__name__, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    # -- scripting -------------------------------------------------------------------------------

    def reply(self, spec: Spec) -> None:
        """Queue any reply spec (the ``reply_*`` methods are shorthands for this)."""
        with self._lock:
            self._replies.append(dict(spec))

    def reply_text(self, text: str) -> None:
        self.reply({"text": text})

    def reply_error(
        self, status: int, type_: str | None = None, message: str = "fake error", *, retry_after: float | None = None
    ) -> None:
        """Queue an error reply; ``type_`` defaults to the API's type for ``status``."""
        spec: Spec = {"error": status, "message": message}
        if type_ is not None:
            spec["type"] = type_
        if retry_after is not None:
            spec["retry_after"] = retry_after
        self.reply(spec)

    def set_responder(self, fn: Responder | None) -> None:
        """``fn(request_body) -> spec``, consulted when the queue is empty."""
        self._responder = fn

    # -- serving ---------------------------------------------------------------------------------

    def _next_spec(self, body: dict[str, Any]) -> Spec:
        with self._lock:
            if self._replies:
                return self._replies.popleft()
        if self._responder is not None:
            return self._responder(body)
        raise BadRequest(f"{type(self).__name__} has no reply queued and no responder for this request")

    def _dispatch(self, h: _Handler) -> None:
        try:
            if h.path != self.route:
                raise BadRequest(f"no route POST {h.path}", status=404, type_="not_found_error")
            raw = h.rfile.read(int(h.headers.get("content-length") or 0))
            try:
                body = json.loads(raw)
            except ValueError as exc:
                raise BadRequest(f"request body is not JSON: {exc}") from exc
            if not isinstance(body, dict):
                raise BadRequest("request body must be a JSON object")
            with self._lock:
                self.requests.append(body)
            self._check(h, body)
            spec = self._next_spec(body)
            streaming = bool(body.get("stream"))
            if spec.get("disconnect") is True or (spec.get("disconnect") and not streaming):
                h.close_connection = True
                return
            if "error" in spec and not (spec.get("mid_stream") and streaming):
                self._send_error(h, spec)
                return
            self._answer(h, body, spec)
        except BadRequest as exc:
            self._refuse(h, exc)

    def _refuse(self, h: _Handler, exc: BadRequest) -> None:
        self._send_error(h, {"error": exc.status, "type": exc.type_, "message": str(exc)})

    def _send_error(self, h: _Handler, spec: Spec) -> None:
        status = int(spec["error"])
        headers = {}
        if spec.get("retry_after") is not None or status == 429:
            headers["retry-after"] = _seconds(spec.get("retry_after", 0))
        send_json(h, status, self._error_body(status, spec), headers)

    # -- what subclasses speak -------------------------------------------------------------------

    def _check(self, h: _Handler, body: dict[str, Any]) -> None:
        """Raise ``BadRequest`` for a request the real API would refuse."""
        raise NotImplementedError

    def _answer(self, h: _Handler, body: dict[str, Any], spec: Spec) -> None:
        raise NotImplementedError

    def _error_body(self, status: int, spec: Spec) -> dict[str, Any]:
        raise NotImplementedError


def send_json(h: BaseHTTPRequestHandler, status: int, obj: Any, headers: dict[str, str] | None = None) -> None:
    data = json.dumps(obj).encode()
    h.send_response(status)
    h.send_header("content-type", "application/json")
    h.send_header("content-length", str(len(data)))
    for k, v in (headers or {}).items():
        h.send_header(k, v)
    h.end_headers()
    h.wfile.write(data)


def start_sse(h: BaseHTTPRequestHandler) -> None:
    """Headers of a server-sent-events reply; the body ends when the connection closes."""
    h.send_response(200)
    h.send_header("content-type", "text/event-stream")
    h.send_header("cache-control", "no-cache")
    h.send_header("connection", "close")
    h.end_headers()
    h.close_connection = True


def send_sse(h: BaseHTTPRequestHandler, data: Any, *, event: str | None = None) -> None:
    head = f"event: {event}\n" if event else ""
    payload = data if isinstance(data, str) else json.dumps(data)
    h.wfile.write(f"{head}data: {payload}\n\n".encode())
    h.wfile.flush()


def pause(spec: Spec) -> None:
    if spec.get("delay_s"):
        time.sleep(float(spec["delay_s"]))


def pieces(text: str, n: int = 3) -> list[str]:
    """``text`` cut into up to ``n`` consecutive pieces, as a model streams it."""
    if not text:
        return []
    step = max(1, -(-len(text) // n))
    return [text[i : i + step] for i in range(0, len(text), step)]


def rough_tokens(obj: Any) -> int:
    """About four characters a token, at least one."""
    return max(1, len(obj if isinstance(obj, str) else json.dumps(obj)) // 4)


def _seconds(value: Any) -> str:
    f = float(value)
    return str(int(f)) if f.is_integer() else f"{f:g}"
