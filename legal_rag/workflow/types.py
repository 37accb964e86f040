"""The seams of the research workflow: value types and small Protocols.

Every node of the LangGraph workflow talks to the outside world through one of these Protocols
(``Classifier``, ``Generator``, ``Aligner``; the claim-alignment types come from ``verification.claims``);
real implementations are injected through
``workflow.context.WorkflowContext`` and no node builds a client.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from pydantic import BaseModel

from verification.claims.documents import Complexity
from verification.claims.types import PUT_FORWARD, Aligner, Alignment, Passage, Pin, Verdict

__all__ = [
    "Aligner", "Alignment", "AnswerSentence", "Classification", "Classifier", "Complexity", "Generation",
    "PUT_FORWARD", "Generator", "Passage", "Pin", "Usage", "Verdict",
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class Classification:
    complexity: Complexity
    method: str
    """"rules" or "claude"."""
    features: dict[str, float] = field(default_factory=dict)
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class AnswerSentence:
    """One sentence of an answer and the chunk ids it rests on (empty: it rests on nothing)."""

    text: str
    chunk_ids: tuple[str, ...] = ()


class Usage(BaseModel, frozen=True):
    """What one model call cost. Zero for the offline generator. A pydantic model: ``AskResult`` carries it."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0
    cost_usd: float = 0.0
    time_to_first_token_ms: float | None = None
    total_ms: float = 0.0
    retries: int = 0


@dataclass(frozen=True, slots=True)
class Generation:
    sentences: tuple[AnswerSentence, ...]
    generator: str
    """ "extractive", "anthropic" or "openai-compatible"."""
    model: str | None = None
    insufficient: bool = False
    """The generator found that the sources do not answer the question (it says so in ``sentences``)."""
    usage: Usage = field(default_factory=Usage)


class Generator(Protocol):
    """Question + retrieved passages -> answer sentences, each carrying the chunk ids it rests on.

    Implementations must only cite chunk ids from ``passages``; anything else is caught downstream
    anyway (claims citing unknown chunks get no evidence and are verified on their own).
    """

    name: str

    def generate(
        self, question: str, passages: Sequence[Passage], *, as_of: str, complexity: Complexity
    ) -> Generation: ...


class Classifier(Protocol):
    def classify(self, question: str) -> Classification: ...
