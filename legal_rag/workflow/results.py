"""What the workflow's steps hand each other and what ``ask`` returns, as pydantic models.

Steps pass the verification layer's own ``CitationCheck`` and ``QuoteCheck`` objects, never their
JSON dumps, so a status is compared as an enum member. ``AskResult`` is what ``legal-rag ask
--json`` prints and what the HTTP API returns: ``AskResult.model_dump(mode="json")`` is the wire
shape, and ``AskResult.model_validate`` reads it back.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, Field

from legal_rag.workflow.types import Classification, Complexity, Usage, Verdict
from verification.model import CitationCheck, CitationStatus, QuoteCheck, SuccessorOut

__all__ = [
    "AskResult",
    "CitationOut",
    "Claim",
    "ClaimOut",
    "ClassificationOut",
    "Confidence",
    "ConfidenceFactor",
    "ConfidenceLabel",
    "DraftClaim",
    "Source",
    "SuccessorOut",
    "Usage",
    "VerificationMethod",
    "VerificationSummary",
]


class DraftClaim(BaseModel):
    """One sentence of a draft answer with the checks of the citations and quotes inside it."""

    text: str
    chunk_ids: list[str]
    """The chunks the generator said the sentence rests on."""
    citations: list[CitationCheck] = Field(default_factory=list)
    quotes: list[QuoteCheck] = Field(default_factory=list)


class Claim(DraftClaim):
    """A draft sentence after claim verification: its verdict and the evidence it was judged on."""

    verdict: Verdict
    reasons: list[str] = Field(default_factory=list)
    evidence: list[str] = Field(default_factory=list)
    """Chunk ids of the passages the claim was aligned against."""
    best_chunk_id: str | None = None
    agreement: float = 0.0
    """Did independent re-retrieval land on the cited chunk (1.0), its section (0.8), its Act (0.4)?"""
    relevance: float = 0.0
    insufficient: bool = False
    """The claim only says that the sources do not answer the question."""


class Source(BaseModel):
    """A numbered source of the answer: ``[n]`` in the text."""

    n: int
    chunk_id: str
    act: str
    section: str
    heading: str | None = None
    status: str | None = None
    """The chunk's status in the index ("in_force", "repealed"...); None for a chunk not retrieved."""


class VerificationMethod(StrEnum):
    GROUNDED_REFINEMENT = "grounded-refinement"
    """SIMPLE questions: each claim against the passages it cites."""
    GENGROUND = "genground"
    """Every other route: each claim re-retrieves its own evidence."""
    NONE = "none: the named provisions do not exist"
    NOT_HELD = "none: the graph holds no text of the named provisions"
    """A lookup of provisions the graph records without their text: nothing was quoted, so nothing to verify."""


class VerificationSummary(BaseModel):
    method: VerificationMethod
    aligner: str | None = None
    """The aligner's name; None when no claim was aligned."""
    claims: int = 0
    supported: int = 0
    partial: int = 0
    removed: int = 0
    contradicted: int = 0


class ConfidenceLabel(StrEnum):
    HIGH = "High"
    MEDIUM = "Medium"
    LOW = "Low"


class ConfidenceFactor(BaseModel):
    name: str
    weight: float
    value: float
    """0..1."""


class Confidence(BaseModel):
    score: float
    """The weighted sum of the factors, 0..1."""
    label: ConfidenceLabel
    factors: list[ConfidenceFactor]

    def factor(self, name: str) -> ConfidenceFactor:
        """The factor called ``name``.

        Raises:
            KeyError: no such factor.
        """
        for f in self.factors:
            if f.name == name:
                return f
        raise KeyError(name)


class ClassificationOut(BaseModel):
    method: str
    """ "rules" or "claude"."""
    features: dict[str, float] = Field(default_factory=dict)
    reasons: list[str] = Field(default_factory=list)

    @classmethod
    def of(cls, c: Classification) -> ClassificationOut:
        return cls(method=c.method, features=dict(c.features), reasons=list(c.reasons))


class CitationOut(BaseModel):
    """A provision or precedent cited in the answer or named in the question, checked for the date."""

    text: str
    act: str | None
    act_title: str | None
    section: str | None
    status: CitationStatus
    successors: list[SuccessorOut] = Field(default_factory=list)
    message: str
    where: Literal["answer", "question"]

    @classmethod
    def of(cls, c: CitationCheck, where: Literal["answer", "question"]) -> CitationOut:
        return cls(
            text=c.text, act=c.act, act_title=c.act_title, section=c.section, status=c.status,
            successors=list(c.successors), message=c.message, where=where,
        )  # fmt: skip


class ClaimOut(BaseModel):
    text: str
    verdict: Verdict
    evidence: list[str]
    cited: list[str]
    """The chunk ids the claim cites."""
    reasons: list[str]
    kept: bool


class AskResult(BaseModel):
    question: str
    as_of: str
    answer: str
    complexity: Complexity
    classification: ClassificationOut
    citations: list[CitationOut]
    sources: list[Source]
    claims: list[ClaimOut]
    warnings: list[str]
    confidence: Confidence
    verification_summary: VerificationSummary
    generator: str
    model: str | None = None
    usage: Usage = Field(default_factory=Usage)
    """What the model calls cost (zero offline, and when nothing was generated)."""
    timings_ms: dict[str, float]
