"""The workflow's typed state."""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

from legal_rag.workflow.types import Classification, Generation, Passage


def _merge(a: dict[str, float], b: dict[str, float]) -> dict[str, float]:
    return {**a, **b}


class WorkflowState(TypedDict, total=False):
    question: str
    as_of: str
    classification: Classification
    question_checks: list[dict[str, Any]]
    """The provisions named in the question, checked for the date (CitationCheck dumps)."""
    passages: list[Passage]
    retrieval_round: int
    generation: Generation
    generation_round: int
    feedback: str | None
    """Why the last generation failed its checks (fed to the next round)."""
    answer_report: dict[str, Any]
    claims: list[dict[str, Any]]
    kept: list[dict[str, Any]]
    summary: dict[str, Any]
    confidence: dict[str, Any]
    answer: str
    sources: list[dict[str, Any]]
    warnings: Annotated[list[str], operator.add]
    timings_ms: Annotated[dict[str, float], _merge]
