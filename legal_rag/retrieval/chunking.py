"""Statute text into retrievable chunks: re-exported from :mod:`graph_schema.chunking`.

The chunker lives in ``graph_schema`` so that ``finetune`` cuts chunks exactly as the retrieval index
does without importing the application.
"""

from graph_schema.chunking import (
    MAX_REFERS,
    MAX_WORDS,
    NOT_YET_IN_FORCE,
    Chunk,
    SectionText,
    chunk_section,
    chunk_sections,
    referred_sections,
    split_on_sentences,
)

__all__ = ["MAX_REFERS", "MAX_WORDS", "NOT_YET_IN_FORCE", "Chunk", "SectionText", "chunk_section", "chunk_sections",
           "referred_sections", "split_on_sentences"]
