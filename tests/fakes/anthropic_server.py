"""``FakeAnthropic``: the Anthropic Messages API (``POST /v1/messages``) on 127.0.0.1 for the real SDK.

Speaks plain JSON and, for ``"stream": true``, the SSE event sequence of the real API
(``message_start``, ``ping``, ``content_block_start``, ``content_block_delta`` with ``text_delta`` or
``input_json_delta``, ``content_block_stop``, ``message_delta`` with usage, ``message_stop``).
Errors use Anthropic's body (``{"type": "error", "error": {"type", "message"}}``); 429 carries
``retry-after``.

Reply specs (queued with ``reply_*``/``reply`` or returned by the responder):
    ``{"tool": name, "input": {...}}`` a ``tool_use`` block; ``"raw_input"`` streams that exact
    string as the tool's JSON instead; ``{"text": "..."}`` a text block; ``"usage"`` overrides the
    usage; ``"stop_reason"`` overrides ``tool_use``/``end_turn``; plus the common keys in
    ``tests.fakes``. ``{"error": 529, "mid_stream": True}`` sends an ``error`` event after
    ``message_start`` on a streamed request.

Default usage emulates prompt caching: the prefix up to the last ``cache_control`` breakpoint
(tools, then system, then message blocks) is written to the cache the first time it is seen
(``cache_creation_input_tokens``) and read from it afterwards (``cache_read_input_tokens``).
"""

from __future__ import annotations

import hashlib
import itertools
import json
from typing import Any

from tests.fakes import BadRequest, ScriptedServer, Spec, pause, pieces, rough_tokens, send_json, send_sse, start_sse

ERROR_TYPES = {
    400: "invalid_request_error", 401: "authentication_error", 403: "permission_error", 404: "not_found_error",
    413: "request_too_large", 429: "rate_limit_error", 500: "api_error", 529: "overloaded_error",
}  # fmt: skip
MAX_CACHE_BREAKPOINTS = 4


class FakeAnthropic(ScriptedServer):
    route = "/v1/messages"

    def __init__(self) -> None:
        super().__init__()
        self._cached: set[str] = set()
        self._ids = itertools.count(1)

    def reply_tool(self, name: str, input: dict[str, Any], *, usage: dict[str, int] | None = None) -> None:
        spec: Spec = {"tool": name, "input": input}
        if usage is not None:
            spec["usage"] = usage
        self.reply(spec)

    # -- request checks the real API makes -------------------------------------------------------

    def _check(self, h: Any, body: dict[str, Any]) -> None:
        if not h.headers.get("x-api-key") and not h.headers.get("authorization"):
            raise BadRequest("x-api-key header is required", status=401, type_="authentication_error")
        if not isinstance(body.get("model"), str) or not body["model"]:
            raise BadRequest("model: Field required")
        if not isinstance(body.get("max_tokens"), int) or body["max_tokens"] < 1:
            raise BadRequest("max_tokens: Field required")
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            raise BadRequest("messages: at least one message is required")
        for m in messages:
            if not isinstance(m, dict) or m.get("role") not in ("user", "assistant") or "content" not in m:
                raise BadRequest("messages: each message needs a role (user|assistant) and content")
        if "temperature" in body and not 0 <= body["temperature"] <= 1:
            raise BadRequest("temperature: must be between 0 and 1")
        tools = body.get("tools") or []
        if not all(isinstance(t, dict) and t.get("name") and isinstance(t.get("input_schema"), dict) for t in tools):
            raise BadRequest("tools: each tool needs a name and an input_schema")
        choice = body.get("tool_choice")
        if choice and choice.get("type") == "tool" and choice.get("name") not in {t["name"] for t in tools}:
            raise BadRequest(f"tool_choice names {choice.get('name')!r}, which is not in tools")
        marks = [b["cache_control"] for b in _segments(body) if isinstance(b, dict) and "cache_control" in b]
        if any(not isinstance(m, dict) or m.get("type") != "ephemeral" for m in marks):
            raise BadRequest("cache_control: type must be 'ephemeral'")
        if len(marks) > MAX_CACHE_BREAKPOINTS:
            raise BadRequest(f"A maximum of {MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided")

    # -- answering -------------------------------------------------------------------------------

    def _error_body(self, status: int, spec: Spec) -> dict[str, Any]:
        type_ = spec.get("type") or ERROR_TYPES.get(status, "api_error")
        return {"type": "error", "error": {"type": type_, "message": spec.get("message", "fake error")}}

    def _answer(self, h: Any, body: dict[str, Any], spec: Spec) -> None:
        block, raw = _block(spec)
        usage = self._usage(body, spec, raw)
        stop = spec.get("stop_reason") or ("tool_use" if block["type"] == "tool_use" else "end_turn")
        message = {
            "id": f"msg_fake_{next(self._ids)}", "type": "message", "role": "assistant", "model": body["model"],
            "content": [block], "stop_reason": stop, "stop_sequence": None, "usage": usage,
        }  # fmt: skip
        if body.get("stream"):
            self._stream(h, message, spec, raw)
        else:
            pause(spec)
            send_json(h, 200, message, {"request-id": message["id"]})

    def _stream(self, h: Any, message: dict[str, Any], spec: Spec, raw: str) -> None:
        start_sse(h)
        block = message["content"][0]
        usage = message["usage"]
        head = {**message, "content": [], "stop_reason": None, "usage": {**usage, "output_tokens": 1}}
        send_sse(h, {"type": "message_start", "message": head}, event="message_start")
        if spec.get("disconnect") == "mid_stream":
            return
        if "error" in spec:
            send_sse(h, self._error_body(int(spec["error"]), spec), event="error")
            return
        send_sse(h, {"type": "ping"}, event="ping")
        empty = {**block, "input": {}} if block["type"] == "tool_use" else {**block, "text": ""}
        send_sse(h, {"type": "content_block_start", "index": 0, "content_block": empty}, event="content_block_start")
        pause(spec)
        for piece in pieces(raw):
            delta = (
                {"type": "input_json_delta", "partial_json": piece}
                if block["type"] == "tool_use"
                else {"type": "text_delta", "text": piece}
            )
            send_sse(h, {"type": "content_block_delta", "index": 0, "delta": delta}, event="content_block_delta")
        send_sse(h, {"type": "content_block_stop", "index": 0}, event="content_block_stop")
        end = {"stop_reason": message["stop_reason"], "stop_sequence": None}
        send_sse(h, {"type": "message_delta", "delta": end, "usage": usage}, event="message_delta")
        send_sse(h, {"type": "message_stop"}, event="message_stop")

    def _usage(self, body: dict[str, Any], spec: Spec, raw: str) -> dict[str, int]:
        if spec.get("usage") is not None:
            zero = dict.fromkeys(("input_tokens", "output_tokens", "cache_creation_input_tokens"), 0)
            return {**zero, "cache_read_input_tokens": 0, **spec["usage"]}
        segments = _segments(body)
        total = rough_tokens(segments)
        marked = [i for i, s in enumerate(segments) if isinstance(s, dict) and "cache_control" in s]
        created = read = 0
        if marked:
            prefix = segments[: marked[-1] + 1]
            key = hashlib.sha256(json.dumps(prefix, sort_keys=True).encode()).hexdigest()
            cached = min(total, rough_tokens(prefix))
            with self._lock:
                if key in self._cached:
                    read = cached
                else:
                    self._cached.add(key)
                    created = cached
        return {
            "input_tokens": max(1, total - created - read), "output_tokens": rough_tokens(raw),
            "cache_creation_input_tokens": created, "cache_read_input_tokens": read,
        }  # fmt: skip


def _block(spec: Spec) -> tuple[dict[str, Any], str]:
    """The content block a spec describes and the raw text streamed for it."""
    if "tool" in spec:
        raw = spec["raw_input"] if "raw_input" in spec else json.dumps(spec.get("input", {}))
        try:
            value = json.loads(raw)
        except ValueError:
            value = {}
        block = {"type": "tool_use", "id": "toolu_fake_01", "name": spec["tool"], "input": value}
        return block, raw
    if "text" in spec:
        return {"type": "text", "text": spec["text"]}, spec["text"]
    if "error" in spec or spec.get("disconnect"):
        return {"type": "text", "text": ""}, ""
    raise BadRequest(f"FakeAnthropic cannot speak reply spec {sorted(spec)}")


def _segments(body: dict[str, Any]) -> list[Any]:
    """What the prompt cache sees, in its order: tools, system blocks, message content blocks."""
    out: list[Any] = list(body.get("tools") or [])
    system = body.get("system")
    if isinstance(system, str):
        out.append({"type": "text", "text": system})
    elif isinstance(system, list):
        out.extend(system)
    for m in body.get("messages") or []:
        content = m.get("content") if isinstance(m, dict) else None
        out.extend([{"type": "text", "text": content}] if isinstance(content, str) else list(content or []))
    return out
