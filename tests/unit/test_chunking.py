"""Chunking by legal structure on real rows of the shipped corpus: no statute text is left out of the index."""

from __future__ import annotations

import json

import pytest

from ingestion.sources.indiacode import act_codes_for_catalog, read_fulltext
from legal_rag.retrieval.chunking import SectionText, chunk_section
from legal_rag.retrieval.types import Chunk
from legal_rag.settings import PROJECT_ROOT

CORPUS = PROJECT_ROOT / "data" / "corpus" / "indiacode"


@pytest.fixture(scope="module")
def chunks() -> dict[tuple[str, str], list[Chunk]]:
    rows = [json.loads(line) for line in (CORPUS / "acts_catalog.jsonl").open(encoding="utf-8")]
    parsed = read_fulltext(CORPUS / "sections_fulltext_subset.jsonl", act_codes_for_catalog(rows))
    wanted = {("BSA", "58"), ("ITA", "30"), ("BNS", "64"), ("BNS", "2")}
    return {(s.act, s.number): chunk_section(SectionText.of(s)) for s in parsed.sections if (s.act, s.number) in wanted}


@pytest.mark.parametrize(("act", "section", "chunk_id", "text"), [
    # Lead-ins of three and four words, and a sub-section's two: each is the start of every clause after it.
    ("BSA", "58", "BSA:58:-:0", "Secondary evidence includes--"),
    ("ITA", "30", "ITA:30:-:0", "Every Certifying Authority shall,--"),
    ("BNS", "64", "BNS:64:2:0", "(2) Whoever,---"),
    ("BNS", "2", "BNS:2:-:0", "In this Sanhita, unless the context otherwise requires,---"),
])  # fmt: skip
def test_a_lead_in_is_a_chunk_however_short(
    chunks: dict[tuple[str, str], list[Chunk]], act: str, section: str, chunk_id: str, text: str
) -> None:
    by_id = {c.id: c for c in chunks[(act, section)]}
    assert by_id[chunk_id].text == text


def test_the_chunks_of_a_clause_list_hold_every_word_of_the_section() -> None:
    rows = [json.loads(line) for line in (CORPUS / "acts_catalog.jsonl").open(encoding="utf-8")]
    parsed = read_fulltext(CORPUS / "sections_fulltext_subset.jsonl", act_codes_for_catalog(rows))
    for s in parsed.sections:
        if (s.act, s.number) in {("BSA", "58"), ("ITA", "30"), ("BNS", "64")}:
            words = " ".join(c.text for c in chunk_section(SectionText.of(s))).split()
            assert words == s.text.split(), f"{s.act} s.{s.number}"
