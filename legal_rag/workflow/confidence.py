"""Confidence: the estimated probability that the answer is fully right, from eight factors, each returned
with its value (0..1) and its weight, and a label.

``score = 1 / (1 + exp(-(INTERCEPT + sum(weight * value))))``: a logistic model whose weights were fitted on
the development split of ``data/eval/questions.jsonl`` (125 questions; "fully right" as ``legal-rag eval
answers`` defines it), the factors chosen by 5-fold cross-validation on that split alone, then measured
once on the held-out split (see the README for the numbers). The factors:

- question_coverage: share of the question's subject words that the quoted text and its headings contain
  (``coverage.py``): the strongest single signal that the evidence addresses the question.
- retrieval_relevance: mean relevance (0..1, rescaled from the dense cosine) of the passages the kept claims
  rest on.
- provisions_cited: distinct provisions the answer cites, up to 8 (/8).
- names_provision: 1 when the question names a provision (a lookup: usually answered exactly).
- question_complexity: the route taken, SIMPLE 0 .. ANALYTICAL 1 (comparisons and fact patterns miss more).
- question_length: words in the question, up to 60 (/60): long fact patterns raise several issues at once.
- comparison: 1 when the question asks to compare or distinguish (both sides must be found).
- old_code_facts: 1 for facts dated before 2024-07-01 (the repealed codes apply).

Factors that did not separate right from wrong answers on the development set are not in the model:
chunk agreement (1.0 for almost every answer), source recency and citation verification (a flagged
repealed citation is usually a *right* answer to a question that cites it), and source authority (the
index holds only statute text and the generator quotes only operative sentences, so it was constant).
Two rules bound the fitted score: an answer whose evidence misses most of the question's subject scores
at most ``NOT_ADDRESSED_CAP``; one that cites a provision the graph could not find or check at most
``UNVERIFIED_CAP``.

High >= 0.8, Medium >= 0.6, Low below; a Low answer starts with a warning to verify independently.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from graph_schema.model import NEW_CRIMINAL_CODES_IN_FORCE as CUTOVER
from legal_rag.workflow.results import Confidence, ConfidenceFactor, ConfidenceLabel
from legal_rag.workflow.types import Complexity
from verification.model import CitationStatus

WEIGHTS = {
    "question_coverage": 0.882,
    "retrieval_relevance": 0.386,
    "provisions_cited": 0.313,
    "names_provision": 2.148,
    "question_complexity": 0.005,
    "question_length": -1.449,
    "comparison": -0.008,
    "old_code_facts": -0.374,
}
"""Logistic-regression coefficients (L2 1.0) fitted on the development split by ``benchmarks/fit_confidence.py``."""
INTERCEPT = 0.092

ADDRESSED = 0.5
"""Below this share of the question's subject words in the evidence, the answer says it may not answer."""
NOT_ADDRESSED_CAP = 0.55
UNVERIFIED_CAP = 0.59
UNVERIFIABLE = frozenset({
    CitationStatus.NOT_FOUND, CitationStatus.UNKNOWN_ACT, CitationStatus.UNCHECKED, CitationStatus.UNRESOLVED,
})  # fmt: skip
"""Statuses of a cited provision that leave the answer resting on something nobody could confirm."""
LOW_WARNING = (
    "Low confidence: the sources below only partly support this answer. Verify it independently before relying on it."
)
COMPLEXITY = {Complexity.SIMPLE: 0.0, Complexity.STANDARD: 1 / 3, Complexity.COMPLEX: 2 / 3, Complexity.ANALYTICAL: 1.0}
_COMPARISON = re.compile(r"\b(compar\w*|differ\w*|distinguish\w*|vs\.?|versus|between)\b", re.IGNORECASE)


def label_for(score: float) -> ConfidenceLabel:
    return ConfidenceLabel.HIGH if score >= 0.8 else ConfidenceLabel.MEDIUM if score >= 0.6 else ConfidenceLabel.LOW


def rescale_relevance(cosine: float, floor: float = 0.2, ceiling: float = 0.7) -> float:
    """Dense cosine (all-MiniLM: unrelated ~0.1-0.25, on point ~0.6+) to 0..1."""
    return max(0.0, min(1.0, (cosine - floor) / (ceiling - floor)))


def score(
    *,
    question: str,
    as_of: str,
    complexity: Complexity,
    names_provision: bool,
    coverage: float,
    relevances: Sequence[float],
    cited: int,
    citation_statuses: Sequence[CitationStatus] = (),
) -> Confidence:
    """Combine the factors. ``relevances`` are the dense cosines of the passages the kept claims rest on
    (none: nothing supports the answer); ``cited`` the distinct provisions the answer cites;
    ``citation_statuses`` their statuses (only for the cap on unverifiable citations)."""
    values = {
        "question_coverage": max(0.0, min(1.0, coverage)),
        "retrieval_relevance": _mean([rescale_relevance(r) for r in relevances]),
        "provisions_cited": min(cited, 8) / 8,
        "names_provision": 1.0 if names_provision else 0.0,
        "question_complexity": COMPLEXITY[complexity],
        "question_length": min(len(question.split()), 60) / 60,
        "comparison": 1.0 if _COMPARISON.search(question) else 0.0,
        "old_code_facts": 1.0 if as_of < CUTOVER else 0.0,
    }
    values = {k: round(v, 4) for k, v in values.items()}
    z = INTERCEPT + sum(WEIGHTS[k] * v for k, v in values.items())
    total = 1 / (1 + math.exp(-z))
    if values["question_coverage"] < ADDRESSED:
        total = min(total, NOT_ADDRESSED_CAP)
    if any(s in UNVERIFIABLE for s in citation_statuses):
        total = min(total, UNVERIFIED_CAP)
    total = round(total, 4)
    factors = [ConfidenceFactor(name=k, weight=WEIGHTS[k], value=v) for k, v in values.items()]
    return Confidence(score=total, label=label_for(total), factors=factors)


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0
