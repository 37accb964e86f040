"""Verification layer, as stages: ``extract/`` (citation spans and what they cite) -> ``check/`` (existence and
date-aware checks against the graph, quote fidelity) -> ``claims/`` (per-claim alignment and contradictions).
``verify`` runs the first two over a text; the workflow runs the third on each claim.

Imports ``graph_schema`` only. Siblings use what ``__all__`` lists.
"""

from verification.extract import CitationExtractor, citations_to_json  # first: it keeps torch out of spaCy
from verification.model import CitationStatus, Label, QuoteStatus, VerificationReport
from verification.verify import Verifier, verify

__all__ = [
    "CitationExtractor",
    "CitationStatus",
    "Label",
    "QuoteStatus",
    "VerificationReport",
    "Verifier",
    "citations_to_json",
    "verify",
]
