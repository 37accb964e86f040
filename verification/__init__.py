"""Verification layer: citation extraction, existence and date-aware checks, quote fidelity.

Imports ``graph_schema`` only. Siblings use what ``__all__`` lists.
"""

from verification import spacy_without_torch  # noqa: F401  (first: spaCy must not pull torch in)
from verification.extract import CitationExtractor, citations_to_json
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
