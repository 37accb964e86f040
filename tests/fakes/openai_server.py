"""``FakeOpenAI``: an OpenAI-compatible ``POST /v1/chat/completions`` on 127.0.0.1 for the real SDK.

Answers plain JSON or, for ``"stream": true``, ``data:`` chunks ending ``data: [DONE]`` (with a final
usage chunk when ``stream_options.include_usage`` is set), as llama.cpp, vLLM and Ollama do.
``base_url`` ends in ``/v1``, as the SDK expects.

Reply specs:
    ``{"tool": name, "arguments": {...}}`` (``"input"`` is accepted too) a function tool call;
    ``"raw_arguments"`` sends that exact string. When the request has no ``tools`` (for instance it
    asks for ``response_format``), a tool spec is answered as JSON message content instead, the way
    a server constrained to a JSON schema answers. ``{"text": "..."}`` plain content.
    ``"usage"`` overrides the usage, ``"finish_reason"`` the finish reason; plus the common keys in
    ``tests.fakes``. ``{"error": 503, "mid_stream": True}`` sends ``data: {"error": ...}`` after the
    first chunk of a streamed reply.
"""

from __future__ import annotations

import itertools
import json
import time
from typing import Any

from tests.fakes import BadRequest, ScriptedServer, Spec, pause, pieces, rough_tokens, send_json, send_sse, start_sse

ERROR_TYPES = {
    400: "invalid_request_error", 401: "invalid_request_error", 404: "invalid_request_error",
    429: "requests", 500: "server_error", 503: "server_error",
}  # fmt: skip


class FakeOpenAI(ScriptedServer):
    route = "/v1/chat/completions"
    base_path = "/v1"

    def __init__(self) -> None:
        super().__init__()
        self._ids = itertools.count(1)

    def reply_tool(self, name: str, arguments: dict[str, Any], *, usage: dict[str, Any] | None = None) -> None:
        spec: Spec = {"tool": name, "arguments": arguments}
        if usage is not None:
            spec["usage"] = usage
        self.reply(spec)

    def _check(self, h: Any, body: dict[str, Any]) -> None:
        if not (h.headers.get("authorization") or "").startswith("Bearer "):
            raise BadRequest("You didn't provide an API key.", status=401)
        if not isinstance(body.get("model"), str) or not body["model"]:
            raise BadRequest("you must provide a model parameter")
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            raise BadRequest("messages: at least one message is required")
        for m in messages:
            if not isinstance(m, dict) or m.get("role") not in ("system", "user", "assistant", "tool", "developer"):
                raise BadRequest("messages: each message needs a valid role")
        tools = body.get("tools") or []
        names = set()
        for t in tools:
            fn = t.get("function") if isinstance(t, dict) else None
            if t.get("type") != "function" or not isinstance(fn, dict) or not fn.get("name"):
                raise BadRequest("tools: each tool must be {'type': 'function', 'function': {'name': ...}}")
            names.add(fn["name"])
        choice = body.get("tool_choice")
        if isinstance(choice, dict) and choice.get("function", {}).get("name") not in names:
            raise BadRequest("tool_choice names a function that is not in tools")
        fmt = body.get("response_format")
        if fmt is not None and fmt.get("type") not in ("text", "json_object", "json_schema"):
            raise BadRequest("response_format.type must be text, json_object or json_schema")

    def _error_body(self, status: int, spec: Spec) -> dict[str, Any]:
        type_ = spec.get("type") or ERROR_TYPES.get(status, "server_error")
        code = "rate_limit_exceeded" if status == 429 else None
        return {"error": {"message": spec.get("message", "fake error"), "type": type_, "param": None, "code": code}}

    def _answer(self, h: Any, body: dict[str, Any], spec: Spec) -> None:
        message, raw = _message(spec, tools=bool(body.get("tools")))
        finish = spec.get("finish_reason") or ("tool_calls" if "tool_calls" in message else "stop")
        usage = _usage(body, spec, raw)
        head = {"id": f"chatcmpl-fake-{next(self._ids)}", "created": int(time.time()), "model": body["model"]}
        if not body.get("stream"):
            pause(spec)
            choice = {"index": 0, "message": message, "finish_reason": finish, "logprobs": None}
            send_json(h, 200, {**head, "object": "chat.completion", "choices": [choice], "usage": usage})
            return
        start_sse(h)

        def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> None:
            choice = {"index": 0, "delta": delta, "finish_reason": finish_reason, "logprobs": None}
            send_sse(h, {**head, "object": "chat.completion.chunk", "choices": [choice]})

        chunk({"role": "assistant", "content": ""})
        if spec.get("disconnect") == "mid_stream":
            return
        if "error" in spec:  # vLLM and llama.cpp report a failure after the stream began this way
            send_sse(h, self._error_body(int(spec["error"]), spec))
            return
        pause(spec)
        if "tool_calls" in message:
            call = message["tool_calls"][0]
            chunk({"tool_calls": [{"index": 0, "id": call["id"], "type": "function",
                                   "function": {"name": call["function"]["name"], "arguments": ""}}]})  # fmt: skip
            for piece in pieces(raw):
                chunk({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]})
        else:
            for piece in pieces(raw):
                chunk({"content": piece})
        chunk({}, finish)
        if (body.get("stream_options") or {}).get("include_usage"):
            send_sse(h, {**head, "object": "chat.completion.chunk", "choices": [], "usage": usage})
        send_sse(h, "[DONE]")


def _message(spec: Spec, *, tools: bool) -> tuple[dict[str, Any], str]:
    """The assistant message a spec describes and the raw text streamed for it."""
    if "tool" in spec:
        args = spec.get("arguments", spec.get("input", {}))
        raw = spec["raw_arguments"] if "raw_arguments" in spec else json.dumps(args)
        if not tools:
            return {"role": "assistant", "content": raw}, raw
        call = {"id": "call_fake_1", "type": "function", "function": {"name": spec["tool"], "arguments": raw}}
        return {"role": "assistant", "content": None, "tool_calls": [call]}, raw
    if "text" in spec:
        return {"role": "assistant", "content": spec["text"]}, spec["text"]
    if spec.get("disconnect") or "error" in spec:
        return {"role": "assistant", "content": ""}, ""
    raise BadRequest(f"FakeOpenAI cannot speak reply spec {sorted(spec)}")


def _usage(body: dict[str, Any], spec: Spec, raw: str) -> dict[str, Any]:
    given = spec.get("usage") or {}
    prompt = given.get("prompt_tokens", rough_tokens(body.get("messages")) + rough_tokens(body.get("tools") or ""))
    completion = given.get("completion_tokens", rough_tokens(raw))
    cached = given.get("cached_tokens", 0)
    return {
        "prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion,
        "prompt_tokens_details": {"cached_tokens": cached},
    }  # fmt: skip
