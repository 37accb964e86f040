"""``AnthropicGenerator``: the ``Generator`` on Claude, with structured output through a forced tool.

The request is laid out for the prompt cache: tools, then the system prompt (breakpoint), then the
documents as one user text block (breakpoint), then the question. Asking several questions over
the same retrieved documents therefore reads the documents from the cache instead of paying for
them again. The tool's ``enum`` of chunk ids is part of the cached prefix, so the cache is shared
by exactly the calls that retrieved the same set.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from legal_rag.settings import LLMSettings
from legal_rag.workflow.generators.claude import EPHEMERAL, ClaudeClient
from legal_rag.workflow.generators.llm_common import (
    SYSTEM_PROMPT,
    answer_tool,
    parse_answer,
    question_text,
    render_documents,
)
from legal_rag.workflow.types import Complexity, Generation, Passage


class AnthropicGenerator:
    """Claude answers from the passages, each sentence citing the chunk ids it rests on.

    Raises (from ``generate``):
        ModelOverloadedError: rate-limited or overloaded after every retry (worth retrying later).
        GenerationError: the reply was refused, cut off or not of the answer's shape.
    """

    name = "anthropic"

    def __init__(self, settings: LLMSettings, client: ClaudeClient | None = None) -> None:
        self._claude = client or ClaudeClient(settings)

    def generate(self, question: str, passages: Sequence[Passage], *, as_of: str, complexity: Complexity) -> Generation:
        content: list[dict[str, Any]] = [
            {"type": "text", "text": render_documents(passages), "cache_control": dict(EPHEMERAL)},
            {"type": "text", "text": question_text(question, as_of=as_of, complexity=complexity)},
        ]
        data, usage = self._claude.call_tool(system=SYSTEM_PROMPT, content=content, tool=answer_tool(passages))
        return parse_answer(data, passages, generator=self.name, model=self._claude.model, usage=usage)
