"""``OpenAICompatibleGenerator``: the ``Generator`` on any OpenAI-style chat endpoint.

For local and self-hosted models (llama.cpp, vLLM, Ollama, LM Studio) as much as OpenAI itself.
The answer comes through a forced function call with the same schema as the Anthropic path; a
server that answers with plain content instead (no tool support, or a model that ignores
``tool_choice``) is read as JSON from the content, fenced or bare. Streamed so time-to-first-token
is measured; the retry policy and ``Usage`` are those of ``ClaudeClient``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx2  # the SDK's transport: a stream cut mid-body surfaces as its TransportError
import openai

from graph_schema.errors import ConfigurationError, GenerationError, TransientFault
from legal_rag.settings import LLMSettings
from legal_rag.workflow.generators.llm_common import (
    ANSWER_DESCRIPTION,
    ANSWER_TOOL,
    SYSTEM_PROMPT,
    answer_schema,
    cost_usd,
    parse_answer,
    question_text,
    render_documents,
    retry_after_s,
    with_retries,
)
from legal_rag.workflow.types import Complexity, Generation, Passage, Usage

_RETRY_STATUS = frozenset({408, 409, 429})
# Error types servers put in a ``data: {"error": ...}`` event once a stream has begun.
_RETRY_TYPES = frozenset({"server_error", "rate_limit_error", "requests", "tokens", "overloaded_error"})
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL | re.IGNORECASE)
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
# Local servers need no key, but the SDK sends one; this placeholder is what they conventionally accept.
_NO_KEY = "sk-no-key-required"


@dataclass
class _Reply:
    """What one streamed completion said."""

    content: str = ""
    calls: dict[int, dict[str, str]] = field(default_factory=dict)
    finish_reason: str | None = None
    usage: Any = None
    ttft_ms: float | None = None


class OpenAICompatibleGenerator:
    """The answer from an OpenAI-compatible server at ``settings.openai_base_url``.

    Raises (from the constructor):
        ConfigurationError: no ``openai_base_url`` is configured.
    Raises (from ``generate``):
        ModelOverloadedError: rate-limited, overloaded or unreachable after every retry.
        GenerationError: the reply was refused, cut off or not of the answer's shape.
    """

    name = "openai-compatible"

    def __init__(self, settings: LLMSettings) -> None:
        if not settings.openai_base_url:
            raise ConfigurationError(
                "no OpenAI-compatible endpoint: set LEGAL_RAG_LLM__OPENAI_BASE_URL (e.g. http://localhost:8080/v1)"
            )
        self.settings = settings
        key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else ""
        self._client = openai.OpenAI(
            api_key=key or _NO_KEY, base_url=settings.openai_base_url, timeout=settings.timeout_s, max_retries=0
        )

    def generate(self, question: str, passages: Sequence[Passage], *, as_of: str, complexity: Complexity) -> Generation:
        model = self.settings.openai_model
        params: dict[str, Any] = {
            "model": model,
            "messages": [
                {"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": render_documents(passages) + "\n\n"
                 + question_text(question, as_of=as_of, complexity=complexity)},
            ],
            "tools": [{"type": "function", "function": {
                "name": ANSWER_TOOL, "description": ANSWER_DESCRIPTION, "parameters": answer_schema(passages)}}],
            "tool_choice": {"type": "function", "function": {"name": ANSWER_TOOL}},
            "max_tokens": self.settings.max_tokens,
            "temperature": self.settings.temperature,
            "stream": True,
            "stream_options": {"include_usage": True},
        }  # fmt: skip
        start = time.perf_counter()
        reply, retries = with_retries(
            lambda: self._attempt(params),
            max_retries=self.settings.max_retries,
            backoff_base_s=self.settings.backoff_base_s,
            what=f"OpenAI-compatible {model}",
        )
        usage = self._usage(reply, model, retries=retries, total_ms=(time.perf_counter() - start) * 1000)
        return parse_answer(_answer_of(reply), passages, generator=self.name, model=model, usage=usage)

    def _attempt(self, params: dict[str, Any]) -> _Reply:
        start = time.perf_counter()
        reply = _Reply()
        try:
            for chunk in self._client.chat.completions.create(**params):
                if chunk.usage is not None:
                    reply.usage = chunk.usage
                for choice in chunk.choices:
                    _accumulate(reply, choice, start)
        except openai.APIStatusError as exc:
            raise _translate_status(exc) from exc
        except (openai.APIConnectionError, httpx2.TransportError) as exc:
            raise TransientFault(f"connection failed: {exc}") from exc
        except openai.APIError as exc:  # an error event after the stream began
            kind = exc.body.get("type") if isinstance(exc.body, dict) else None
            if kind in _RETRY_TYPES:
                raise TransientFault(f"error in stream: {kind}: {exc.message}") from exc
            raise GenerationError(f"the server reported an error mid-stream: {kind}: {exc.message}") from exc
        if reply.finish_reason is None:
            raise TransientFault("the stream ended without a finish_reason (connection dropped)")
        return reply

    def _usage(self, reply: _Reply, model: str, *, retries: int, total_ms: float) -> Usage:
        u = reply.usage
        prompt = (u.prompt_tokens or 0) if u else 0
        details = getattr(u, "prompt_tokens_details", None)
        cached = (getattr(details, "cached_tokens", None) or 0) if details else 0
        written = (getattr(details, "cache_write_tokens", None) or 0) if details else 0
        tokens = {
            "input_tokens": max(0, prompt - cached - written),
            "output_tokens": (u.completion_tokens or 0) if u else 0,
            "cache_creation_input_tokens": written,
            "cache_read_input_tokens": cached,
        }
        return Usage(
            **tokens,
            cost_usd=cost_usd(self.settings.prices_per_mtok, model, **tokens),
            time_to_first_token_ms=reply.ttft_ms,
            total_ms=total_ms,
            retries=retries,
        )


def _accumulate(reply: _Reply, choice: Any, start: float) -> None:
    delta = choice.delta
    if delta is not None:
        if delta.content:
            reply.content += delta.content
        for call in delta.tool_calls or []:
            acc = reply.calls.setdefault(call.index, {"name": "", "arguments": ""})
            if call.function is not None:
                acc["name"] = call.function.name or acc["name"]  # sent once; some servers repeat it
                acc["arguments"] += call.function.arguments or ""
        if reply.ttft_ms is None and (
            delta.content or any(c.function and c.function.arguments for c in delta.tool_calls or [])
        ):
            reply.ttft_ms = (time.perf_counter() - start) * 1000
    if choice.finish_reason is not None:
        reply.finish_reason = choice.finish_reason


def _translate_status(exc: openai.APIStatusError) -> Exception:
    status = exc.status_code
    detail = f"{status}: {exc.message}"
    if status in _RETRY_STATUS or status >= 500:
        return TransientFault(detail, retry_after_s=retry_after_s(exc.response.headers))
    if status in (401, 403):
        return ConfigurationError(f"the server refused the key ({detail}); check LEGAL_RAG_LLM__OPENAI_API_KEY")
    return GenerationError(f"the server refused the request: {detail}")


def _answer_of(reply: _Reply) -> object:
    """The answer's JSON: the ``answer`` call's arguments, else JSON in the message content."""
    if reply.finish_reason == "length":
        raise GenerationError("the reply was cut off at max_tokens; the answer is incomplete")
    for call in reply.calls.values():
        if call["name"] == ANSWER_TOOL:
            try:
                return json.loads(call["arguments"] or "{}")
            except ValueError as exc:
                raise GenerationError(f"the answer call's arguments are not valid JSON: {exc}") from exc
    if reply.calls:
        names = [c["name"] for c in reply.calls.values()]
        raise GenerationError(f"the model called {names}, not the {ANSWER_TOOL!r} tool")
    return json_from_content(reply.content)


def json_from_content(content: str) -> object:
    """The JSON object in a plain reply: fenced in ```json```, or bare (reasoning in <think> removed).

    Raises:
        GenerationError: no JSON object in ``content``.
    """
    text = _THINK.sub("", content).strip()
    fenced = _FENCE.search(text)
    candidates = [fenced.group(1).strip()] if fenced else []
    if "{" in text and "}" in text:
        candidates.append(text[text.index("{") : text.rindex("}") + 1])
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except ValueError:
            continue
    raise GenerationError(f"the reply has no answer call and no JSON answer in its content: {content[:200]!r}")
