"""``ClaudeClient``: the one place that calls the Anthropic SDK.

One method, ``call_tool``: a forced tool call, streamed so time-to-first-token is measured, retried
with our backoff (the SDK's own retries are off, so the count in ``Usage.retries`` is ours), and
priced from ``LLMSettings.prices_per_mtok``. The generator, the complexity classifier and the claim
judge all go through it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any

import anthropic
import httpx2  # the SDK's transport: a stream cut mid-body surfaces as its TransportError

from graph_schema.errors import ConfigurationError, GenerationError, TransientFault
from legal_rag.settings import LLMSettings
from legal_rag.workflow.generators.llm_common import cost_usd, retry_after_s, with_retries
from legal_rag.workflow.types import Usage

EPHEMERAL = {"type": "ephemeral"}
# Status codes worth retrying: timeout, lock conflict, rate limit, overload and server faults.
_RETRY_STATUS = frozenset({408, 409, 429})
# Error types Anthropic sends in an ``error`` event once a stream has begun.
_RETRY_TYPES = frozenset({"overloaded_error", "rate_limit_error", "api_error", "timeout_error"})


class ClaudeClient:
    """Forced tool calls against the Anthropic Messages API.

    Args:
        settings: model, key, base URL, limits, retry policy and prices.
        client: an SDK client to use instead of building one (its own retries are switched off).

    Raises:
        ConfigurationError: no client is given and no Anthropic API key is configured.
    """

    def __init__(self, settings: LLMSettings, *, client: anthropic.Anthropic | None = None) -> None:
        self.settings = settings
        if client is None:
            key = settings.anthropic_api_key.get_secret_value() if settings.anthropic_api_key else ""
            if not key:
                raise ConfigurationError(
                    "no Anthropic API key: set ANTHROPIC_API_KEY or LEGAL_RAG_LLM__ANTHROPIC_API_KEY"
                )
            client = anthropic.Anthropic(
                api_key=key, base_url=settings.anthropic_base_url, timeout=settings.timeout_s, max_retries=0
            )
        else:
            client = client.with_options(max_retries=0)
        self._client = client

    @property
    def model(self) -> str:
        return self.settings.model

    def call_tool(
        self,
        *,
        system: str | list[dict[str, Any]],
        content: list[dict[str, Any]],
        tool: dict[str, Any],
        cache_system: bool = True,
        max_tokens: int | None = None,
        model: str | None = None,
    ) -> tuple[dict[str, Any], Usage]:
        """Make Claude call ``tool`` once and return its input and what the call cost.

        Args:
            system: the system prompt, a string or Anthropic text blocks.
            content: the user turn's content blocks (they may carry ``cache_control``).
            tool: ``{"name", "description", "input_schema"}``; the call is forced to it.
            cache_system: mark the (last) system block ``cache_control: ephemeral``.
            max_tokens: defaults to ``settings.max_tokens``.
            model: defaults to ``settings.model``.

        Raises:
            ModelOverloadedError: rate-limited, overloaded or unreachable after every retry.
            ConfigurationError: the key was refused (401/403).
            GenerationError: the request was refused, or the reply has no usable call of ``tool``.
        """
        model = model or self.settings.model
        params: dict[str, Any] = {
            "model": model,
            "max_tokens": max_tokens or self.settings.max_tokens,
            "system": _system_blocks(system, cache=cache_system),
            "messages": [{"role": "user", "content": content}],
            "tools": [tool],
            "tool_choice": {"type": "tool", "name": tool["name"]},
        }
        if "temperature" in self.settings.model_fields_set:
            # SDK 1.x dropped sampling arguments and newer Claude models refuse them: send it only
            # when configured explicitly, through extra_body (the wire format is unchanged).
            params["extra_body"] = {"temperature": self.settings.temperature}
        start = time.perf_counter()
        (message, raw_inputs, ttft_ms), retries = with_retries(
            lambda: self._attempt(params),
            max_retries=self.settings.max_retries,
            backoff_base_s=self.settings.backoff_base_s,
            what=f"Anthropic {model}",
        )
        total_ms = (time.perf_counter() - start) * 1000
        tool_input = _tool_input(message, raw_inputs, tool["name"], params["max_tokens"])
        u = message.usage
        tokens = {
            "input_tokens": u.input_tokens or 0,
            "output_tokens": u.output_tokens or 0,
            "cache_creation_input_tokens": u.cache_creation_input_tokens or 0,
            "cache_read_input_tokens": u.cache_read_input_tokens or 0,
        }
        usage = Usage(
            **tokens,
            cost_usd=cost_usd(self.settings.prices_per_mtok, model, **tokens),
            time_to_first_token_ms=ttft_ms,
            total_ms=total_ms,
            retries=retries,
        )
        return tool_input, usage

    def _attempt(self, params: dict[str, Any]) -> tuple[Any, dict[int, str], float | None]:
        """One streamed request: the final message, the raw JSON streamed per block, ttft in ms."""
        start = time.perf_counter()
        ttft_ms: float | None = None
        raw: dict[int, str] = {}
        stopped = False
        try:
            with self._client.messages.stream(**params) as stream:
                for event in stream:
                    if event.type == "content_block_delta":
                        if ttft_ms is None:
                            ttft_ms = (time.perf_counter() - start) * 1000
                        if event.delta.type == "input_json_delta":
                            raw[event.index] = raw.get(event.index, "") + event.delta.partial_json
                    elif event.type == "message_stop":
                        stopped = True
                message = stream.get_final_message()
        except anthropic.APIStatusError as exc:
            raise _translate_status(exc) from exc
        except (anthropic.APIConnectionError, httpx2.TransportError) as exc:
            raise TransientFault(f"connection failed: {exc}") from exc
        except ValueError as exc:  # the SDK could not parse streamed tool JSON
            raise GenerationError(f"Claude's tool input is not valid JSON: {exc}") from exc
        if not stopped:
            raise TransientFault("the stream ended before message_stop (connection dropped)")
        return message, raw, ttft_ms


def _system_blocks(system: str | list[dict[str, Any]], *, cache: bool) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = (
        [{"type": "text", "text": system}] if isinstance(system, str) else [dict(b) for b in system]
    )
    if cache and blocks:
        # One breakpoint on the last block caches the tools and the whole system prompt.
        blocks[-1].setdefault("cache_control", dict(EPHEMERAL))
    return blocks


def _translate_status(exc: anthropic.APIStatusError) -> Exception:
    status = exc.status_code
    error_type = getattr(exc, "type", None)
    detail = f"{status} {error_type or ''}: {getattr(exc, 'api_message', None) or exc.message}"
    if status in _RETRY_STATUS or status >= 500 or error_type in _RETRY_TYPES:
        return TransientFault(detail, retry_after_s=retry_after_s(exc.response.headers))
    if status in (401, 403):
        return ConfigurationError(
            f"the Anthropic API refused the key ({detail}); check ANTHROPIC_API_KEY / LEGAL_RAG_LLM__ANTHROPIC_API_KEY"
        )
    return GenerationError(f"the Anthropic API refused the request: {detail}")


def _tool_input(message: Any, raw_inputs: Mapping[int, str], name: str, max_tokens: int) -> dict[str, Any]:
    """The input of the reply's call of ``name``, parsed strictly from the streamed JSON."""
    if message.stop_reason == "max_tokens":
        raise GenerationError(f"Claude's reply was cut off at max_tokens={max_tokens}; the tool input is incomplete")
    for index, block in enumerate(message.content):
        if block.type != "tool_use" or block.name != name:
            continue
        # The SDK parses streamed JSON leniently (partial mode); a truncated object must not pass.
        raw = raw_inputs.get(index, "")
        try:
            value = json.loads(raw) if raw.strip() else block.input
        except ValueError as exc:
            raise GenerationError(f"Claude's {name!r} tool input is not valid JSON: {exc}: {raw[:200]!r}") from exc
        if not isinstance(value, dict):
            raise GenerationError(f"Claude's {name!r} tool input is not a JSON object: {value!r:.200}")
        return value
    kinds = [b.type for b in message.content]
    raise GenerationError(
        f"Claude's reply has no tool_use block for {name!r} (stop_reason={message.stop_reason}, blocks={kinds})"
    )
