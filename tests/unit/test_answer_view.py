"""The answer view the research page and the exports read: direct answer first, merged citation rows, sources
and evidence named by provision, confidence in words; and the section neighbours the panel's buttons open."""

from __future__ import annotations

import io
from typing import Any

import pytest

from legal_rag.answer_view import build_view, to_docx, to_markdown
from legal_rag.lookup import neighbours

S308_2 = ("Section 308(2) of the Bharatiya Nyaya Sanhita, 2023 provides: \"(2) Whoever commits extortion shall be "
          "punished with imprisonment of either description for a term which may extend to seven years, or with fine, "
          "or with both.\"")
S308_3 = ("Section 308(3) of the Bharatiya Nyaya Sanhita, 2023 provides: \"(3) Whoever, in order to the committing of "
          "extortion, puts any person in fear, or attempts to put any person in fear, of any injury, shall be punished "
          "with imprisonment of either description for a term which may extend to two years, or with fine, or with "
          "both.\"")
DIRECT = ("Section 308(2) of the Bharatiya Nyaya Sanhita, 2023 provides: \"Whoever commits extortion shall be punished "
          "with imprisonment of either description for a term which may extend to seven years, or with fine, or with "
          "both\"")


def _citation(section: str, where: str = "answer", status: str = "verified") -> dict[str, Any]:
    return {"text": f"Section {section}", "act": "BNS", "act_title": "The Bharatiya Nyaya Sanhita, 2023",
            "section": section, "status": status, "successors": [], "where": where,
            "message": f"BNS s.{section} exists and was in force on 2025-01-01"}


def _doc(answer: str, *, coverage: float = 1.0, label: str = "High", parts: float = 0.0) -> dict[str, Any]:
    return {
        "id": "01a2-answer", "question": "What is the punishment for extortion?", "as_of": "2025-01-01",
        "created_at": "2026-11-26T14:00:00+00:00", "key_name": "asha", "answer": answer,
        "citations": [_citation("308(2)"), _citation("308(3)"), _citation("308(2)"), _citation("308(2)", "question")],
        "sources": [
            {"n": 1, "chunk_id": "BNS:308:2:0", "act": "BNS", "section": "308", "heading": "BNS s.308(2) Extortion",
             "status": "in_force"},
            {"n": 2, "chunk_id": "BNS:308:3:0", "act": "BNS", "section": "308", "heading": "BNS s.308(3) Extortion",
             "status": "in_force"}],
        "claims": [{"text": S308_2, "verdict": "SUPPORTED", "evidence": ["BNS:308:2:0", "BNS:135:-:0"],
                    "cited": ["BNS:308:2:0"], "reasons": [], "kept": True}],
        "warnings": [],
        "confidence": {"score": 0.5, "label": label, "factors": [
            {"name": "question_coverage", "weight": 0.285, "value": coverage},
            {"name": "names_provision", "weight": 1.554, "value": 0.0},
            {"name": "question_parts", "weight": -1.108, "value": parts}]},
    }


def test_the_answer_opening_with_its_clause_is_the_direct_answer_and_the_rest_decide_it() -> None:
    text = f"{S308_2} [1]\n{S308_3} [2]"
    view = build_view(_doc(text))
    assert [ln.part for ln in view.lines] == ["answer", "provision"]
    assert [ln.sources for ln in view.lines] == [[1], [2]]
    for ln in view.lines:  # offsets index the stored text, as flags do
        assert text[ln.start:ln.end] == ln.text


def test_a_direct_answer_put_before_its_provision_and_a_premise_line_are_the_answer() -> None:
    premise = "The question's offence date was read as 2023-05-01."
    second = S308_3.replace(" provides: \"(3) ", " provides: \"")[:-2] + '"'  # the answer to a second ask
    text = f"{premise}\n{DIRECT} [1]\n{second} [2]\n{S308_2} [1]\n{S308_3} [2]"
    view = build_view(_doc(text))
    assert [ln.part for ln in view.lines] == ["answer", "answer", "answer", "provision", "provision"]
    assert view.lines[0].sources == [] and view.lines[4].start == text.index(S308_3)


def test_duplicate_citation_rows_are_merged_and_name_the_act_status_and_date() -> None:
    rows = build_view(_doc(f"{S308_2} [1]")).citations
    assert [r.label for r in rows] == ["BNS s.308(2)", "BNS s.308(3)"]
    assert rows[0].where == ["answer", "question"]
    assert rows[0].act_title == "The Bharatiya Nyaya Sanhita, 2023"
    assert rows[0].status_words == "in force on the date" and rows[0].date == "2025-01-01"


def test_sources_and_evidence_are_named_by_provision_never_by_chunk_id() -> None:
    view = build_view(_doc(f"{S308_2} [1]"))
    assert [s.label for s in view.sources] == ["BNS s.308(2)", "BNS s.308(3)"]
    assert view.claims[0].evidence == ["[1] BNS s.308(2) Extortion", "BNS s.135"]
    assert "[1]" not in view.claims[0].text


@pytest.mark.parametrize(("label", "coverage", "parts", "expected"), [
    ("High", 1.0, 0.0, "High: the quoted provisions answer the question"),
    ("Low", 0.2, 0.0, "Low: the quoted provisions may not answer the question about “What is the punishment for "
                      "extortion”"),
    ("Medium", 0.9, 0.5, "Medium: the question has several asks"),
])
def test_confidence_is_said_in_words_with_the_factors_behind_it(label: str, coverage: float, parts: float,
                                                                expected: str) -> None:
    c = build_view(_doc(f"{S308_2} [1]", coverage=coverage, label=label, parts=parts)).confidence
    assert c.words.startswith(expected), c.words
    assert {f.name: f.effect for f in c.factors}["question_parts"] == ("lowers" if parts else "none")


def test_markdown_and_docx_carry_the_answer_its_citations_and_sources() -> None:
    from docx import Document

    view = build_view(_doc(f"{S308_2} [1]\n{S308_3} [2]"))
    md = to_markdown(view)
    assert md.startswith("# What is the punishment for extortion?")
    assert "## Answer" in md and "## Deciding provisions" in md
    assert "| BNS s.308(2) | The Bharatiya Nyaya Sanhita, 2023 | in force on the date | 2025-01-01 |" in md
    assert "1. BNS s.308(2): BNS s.308(2) Extortion" in md
    doc = Document(io.BytesIO(to_docx(view)))
    paragraphs = [p.text for p in doc.paragraphs]
    assert paragraphs[0] == "What is the punishment for extortion?" and f"{S308_2} [1]" in paragraphs
    assert [c.text for c in doc.tables[0].rows[1].cells] == ["BNS s.308(2)", "The Bharatiya Nyaya Sanhita, 2023",
                                                              "in force on the date", "2025-01-01"]


@pytest.mark.parametrize(("number", "expected"), [
    ("498A", ("498", "498B")), ("498", ("497", "498A")), ("1", (None, "2")), ("511", ("510", None)),
    ("100", ("99", "101")),
])
def test_section_neighbours_follow_the_acts_numbering(number: str, expected: tuple[str | None, str | None]) -> None:
    numbers = {"1", "2", "99", "100", "101", "497", "498", "498A", "498B", "510", "511"}
    assert neighbours(number, numbers) == expected
