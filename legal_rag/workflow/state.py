"""The workflow's typed state: every value is a typed object (no dicts passed between steps)."""

from __future__ import annotations

import operator
from typing import Annotated, TypedDict

from legal_rag.workflow.facts import QuestionFacts
from legal_rag.workflow.results import Claim, Confidence, DraftClaim, Source, VerificationSummary
from legal_rag.workflow.types import Classification, Generation, Passage
from verification.model import CitationCheck, VerificationReport


def _merge(a: dict[str, float], b: dict[str, float]) -> dict[str, float]:
    return {**a, **b}


class WorkflowState(TypedDict, total=False):
    """The state, and (every key optional) each node's partial update of it."""

    question: str
    as_of: str
    classification: Classification
    facts: QuestionFacts
    """The question read once (``understand``): dates, asks, provisions named, premises."""
    question_checks: list[CitationCheck]
    """The provisions and statutes named in the question, checked for the date."""
    passages: list[Passage]
    retrieval_round: int
    generation: Generation
    generation_round: int
    feedback: str | None
    """Why the last generation failed its checks (fed to the next round)."""
    answer_report: VerificationReport
    drafts: list[DraftClaim]
    """The draft's sentences with their citation and quote checks (verify_citations)."""
    claims: list[Claim]
    """The drafts judged (verify_claims)."""
    kept: list[Claim]
    summary: VerificationSummary
    confidence: Confidence
    answer: str
    sources: list[Source]
    warnings: Annotated[list[str], operator.add]
    timings_ms: Annotated[dict[str, float], _merge]
