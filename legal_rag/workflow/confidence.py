"""Confidence: six weighted factors, each returned with its value, and a label.

- retrieval_relevance (0.25): mean relevance (0..1) of the passages the kept claims rest on,
  rescaled from the dense cosine.
- citation_verification (0.20): share of the answer's provision citations the graph verified for the date.
- source_authority (0.20): statute text 1.0; case law: Supreme Court 1.0, High Court 0.7, lower courts 0.4.
- chunk_agreement (0.15): share of kept claims whose independently re-retrieved best evidence is the
  chunk they cited (1.0), its section (0.8) or its Act (0.4).
- source_recency (0.10): share of cited provisions that are current law on the date (verified 1.0;
  unchecked 0.5; repealed, omitted, not yet in force 0).
- query_specificity (0.10): 1.0 when the question names a provision; otherwise its distinct legal
  content words, up to 10.

High >= 0.8, Medium >= 0.6, Low below; a Low answer starts with a warning to verify independently.
"""

from __future__ import annotations

from collections.abc import Sequence

from legal_rag.workflow.results import Confidence, ConfidenceFactor, ConfidenceLabel
from verification.model import CitationStatus

WEIGHTS = {
    "retrieval_relevance": 0.25,
    "citation_verification": 0.20,
    "source_authority": 0.20,
    "chunk_agreement": 0.15,
    "source_recency": 0.10,
    "query_specificity": 0.10,
}
AUTHORITY = {"statute": 1.0, "supreme_court": 1.0, "high_court": 0.7, "lower_court": 0.4}
LOW_WARNING = (
    "Low confidence: the sources below only partly support this answer. Verify it independently before relying on it."
)


def label_for(score: float) -> ConfidenceLabel:
    return ConfidenceLabel.HIGH if score >= 0.8 else ConfidenceLabel.MEDIUM if score >= 0.6 else ConfidenceLabel.LOW


def rescale_relevance(cosine: float, floor: float = 0.2, ceiling: float = 0.7) -> float:
    """Dense cosine (all-MiniLM: unrelated ~0.1-0.25, on point ~0.6+) to 0..1."""
    return max(0.0, min(1.0, (cosine - floor) / (ceiling - floor)))


def score(
    *,
    relevances: Sequence[float],
    citation_statuses: Sequence[CitationStatus],
    authorities: Sequence[str],
    agreements: Sequence[float],
    recencies: Sequence[float],
    specificity: float,
) -> Confidence:
    """Combine the factors. Empty inputs score 0 (nothing supports the answer), except citations:
    an answer that cites nothing gets no credit for verifying nothing."""
    values = {
        "retrieval_relevance": _mean([rescale_relevance(r) for r in relevances]),
        "citation_verification": _mean([1.0 if s is CitationStatus.VERIFIED else 0.0 for s in citation_statuses]),
        "source_authority": _mean([AUTHORITY.get(a, 0.4) for a in authorities]),
        "chunk_agreement": _mean(agreements),
        "source_recency": _mean(recencies),
        "query_specificity": max(0.0, min(1.0, specificity)),
    }
    values = {k: round(v, 4) for k, v in values.items()}
    total = round(sum(WEIGHTS[k] * v for k, v in values.items()), 4)
    factors = [ConfidenceFactor(name=k, weight=WEIGHTS[k], value=v) for k, v in values.items()]
    return Confidence(score=total, label=label_for(total), factors=factors)


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0
