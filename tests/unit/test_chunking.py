"""Chunking by legal structure on real rows of the shipped corpus: no statute text is left out of the index."""

from __future__ import annotations

import json

import pytest

from graph_schema.chunking import referred_titles
from ingestion.sources.indiacode import act_codes_for_catalog, read_fulltext
from legal_rag.retrieval.chunking import MAX_REFERS, SectionText, chunk_section, chunk_sections, referred_sections
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


@pytest.fixture(scope="module")
def every_chunk() -> dict[str, Chunk]:
    rows = [json.loads(line) for line in (CORPUS / "acts_catalog.jsonl").open(encoding="utf-8")]
    parsed = read_fulltext(CORPUS / "sections_fulltext_subset.jsonl", act_codes_for_catalog(rows))
    return {c.id: c for c in chunk_sections(SectionText.of(s) for s in parsed.sections)}


@pytest.mark.parametrize(("chunk_id", "refers"), [
    # A penalty for contravening the rules of other sections: the rules' headings say what it punishes.
    ("MVA:181:-:0", "Necessity for driving licence; Age limit in connection with driving of motor vehicles"),
    # A time limit for the complaint about the offence of another section.
    ("NIA:142:1:0", "Dishonour of cheque for insufficiency, etc., of funds in the account"),
    ("RTI:20:1:0", "Disposal of request"),
])  # fmt: skip
def test_a_chunk_carries_the_headings_of_the_sections_of_its_act_it_refers_to(
    every_chunk: dict[str, Chunk], chunk_id: str, refers: str
) -> None:
    chunk = every_chunk[chunk_id]
    assert chunk.refers == refers
    assert chunk.lexical_text == f"{chunk.indexed_text}\n{refers}"


def test_a_reference_to_another_law_or_to_a_definition_carries_nothing(every_chunk: dict[str, Chunk]) -> None:
    # "has the same meaning as in section 21 of the Indian Penal Code": not the Arms Act's section 21
    arms = every_chunk["ARMS:2:1/j:0"]
    assert "section 21 of the Indian Penal Code" in arms.text
    assert referred_sections(arms.text) == [] and arms.refers == ""
    # "under clause (17) of section 2": a definitions section names no subject
    jja = every_chunk["JJA:110:2/ii:0"]
    assert referred_sections(jja.text) == ["2"] and jja.refers == ""
    assert jja.lexical_text == jja.indexed_text


def test_a_chunk_that_lists_many_sections_carries_none(every_chunk: dict[str, Chunk]) -> None:
    listing = [c for c in every_chunk.values()
               if len({n for n in referred_sections(c.text) if n != c.section}) > MAX_REFERS + 2]
    assert len(listing) > 20, "the corpus has chunks that apply a list of sections"
    assert all(c.refers == "" for c in listing)


def test_referred_sections_reads_joined_and_lettered_numbers() -> None:
    assert referred_sections("in contravention of section 3 or section 4") == ["3", "4"]
    assert referred_sections("under sections 498A, 304B and 306 of this Sanhita") == ["498A", "304B", "306"]
    assert referred_sections("under sub-section (2) of section 7 of this Act") == ["7"]
    assert referred_sections("under sub-section (2)") == []
    assert referred_sections("section 138 of the Negotiable Instruments Act, 1881") == []
    # "the said Sanhita" is another law named before (BNSS 242(2): "section 305 of the said Sanhita", the BNS's);
    # an Act by its number; a number run into the next word as India Code prints it (SCSTA 2(1)(bg))
    assert referred_sections("under section 305 of the said Sanhita") == []
    assert referred_sections("referred to in section 3 of Act 26 of 1937") == []
    assert referred_sections("as defined in section 21of the Indian Penal Code") == []


def test_a_run_of_sections_is_a_list_and_headings_that_name_nothing_are_left_out() -> None:
    titles = {("X", "206"): "Trial of summons-cases", ("X", "223"): "Examination of complainant",
              ("X", "9"): "Repealed", ("X", "10"): "Power of State Government to make rules",
              ("X", "11"): "Omitted", ("X", "12"): "Necessity for driving licence"}
    assert referred_titles("the procedure of sections 206 to 223 shall apply", "X", "1", titles) == ""
    assert referred_titles("in contravention of section 9, section 10 or section 12", "X", "1", titles) == (
        "Necessity for driving licence")
    assert referred_titles("under section 11", "X", "1", titles) == ""
