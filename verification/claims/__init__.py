"""Stage 3, claims: does the retrieved evidence support each claim of an answer (``align``), and does it
contradict one (``contradictions``)? The types it works on are in ``types``; ``terms`` holds the stop words
and stemmer it shares with the retrieval tokeniser."""

from verification.claims.align import OfflineAligner, is_verbatim
from verification.claims.types import Aligner, Alignment, Embedder, Passage, Pin, Verdict

__all__ = ["Aligner", "Alignment", "Embedder", "OfflineAligner", "Passage", "Pin", "Verdict", "is_verbatim"]
