"""Stage 2, checks: each citation against the graph for the date of the facts (``existence``), and each
quotation against the text it is attributed to (``quotes``)."""

from verification.check.existence import CitationChecker, Verdict
from verification.check.quotes import QuoteChecker, find_quotes

__all__ = ["CitationChecker", "QuoteChecker", "Verdict", "find_quotes"]
