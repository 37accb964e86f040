"""Stage 1, extraction: the spans of a text that cite something, each linked to what it cites.

Scanners find candidates (``provisions``, ``statutes``, ``precedents`` over ``reporters``, ``notifications``),
``pipeline`` runs them as spaCy components (``tagger`` re-draws PRECEDENT edges with a learned model),
``linking`` ties each provision to its statute and resolves "the said Act", and ``extractor`` is the entry point.
"""

from verification.extract import spacy_without_torch  # noqa: F401  (first: spaCy must not pull torch in)
from verification.extract.extractor import CitationExtractor, citations_to_json
from verification.extract.linking import adjacent_sections
from verification.extract.tagger import PrecedentRetagger, PrecedentTagger, RulesOnly

__all__ = ["CitationExtractor", "PrecedentRetagger", "PrecedentTagger", "RulesOnly", "adjacent_sections",
           "citations_to_json"]
