"""The legal tokeniser on the phrasings lawyers and statutes actually use."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from legal_rag.retrieval.tokenize import STOPWORDS, TOKENIZER_ID, legal_tokens, light_stem

CORPUS = Path(__file__).resolve().parents[2] / "data" / "corpus"

TABLE = [
    # references
    ("u/s 498A IPC", ["498a", "ipc", "ipc:498a"]),
    ("Section 498-A of the I.P.C.", ["498a", "ipc", "ipc:498a"]),
    ("Section 13(1)(ia) of the Hindu Marriage Act", ["13", "13(1)", "13(1)(ia)", "hma", "hma:13"]),
    ("section 13 (1) (ia) HMA", ["13", "13(1)", "13(1)(ia)", "hma", "hma:13"]),
    ("S. 302 r/w 34 I.P.C.", ["302", "34", "ipc", "ipc:302", "ipc:34"]),
    ("s.302", ["302"]),
    ("ｕ/ｓ ４９８Ａ ＩＰＣ", ["498a", "ipc", "ipc:498a"]),  # full-width forms, NFKC-folded
    ("sec. 302", ["302"]),
    ("u/s 302", ["302"]),
    ("Sections 304B and 65B", ["304b", "65b"]),
    ("section 13B", ["13b"]),
    ("section 171-I", ["171i"]),
    ("BNS s.103(1) Punishment for murder", ["bns", "103", "103(1)", "bns:103", "punishment", "murder"]),
    # an Act is "next to" a number only across a marker, and a year is not a section
    ("IPC and 65B", ["ipc", "65b"]),
    ("section 302 IPC and 65B Evidence Act", ["302", "ipc", "ipc:302", "65b", "iea", "iea:65b"]),
    ("the Code of Criminal Procedure, 1973 (2 of 1974)", ["crpc", "2", "1974"]),
    # Act abbreviations
    ("Cr.P.C.", ["crpc"]),
    ("CrPC", ["crpc"]),
    ("Cr. P.C.", ["crpc"]),
    ("section 438 of the Cr.P.C", ["438", "crpc", "crpc:438"]),
    ("I.P.C.", ["ipc"]),
    ("u/s 138 N.I. Act", ["138", "nia", "nia:138"]),
    ("N.I.Act", ["nia"]),
    ("NI Act", ["nia"]),
    ("B.N.S.S.", ["bnss"]),
    ("B.N.S. and BNSS", ["bns", "bnss"]),
    ("SC/ST Act", ["scsta"]),
    ("Negotiable Instruments Act, 1881", ["nia", "1881"]),
    ("section 103 of the Bharatiya Nyaya Sanhita", ["103", "bns", "bns:103"]),
    ("the Indian Penal Code", ["ipc"]),
    # words: stopwords out, legal words kept, light stemming
    ("shall not be liable", ["shall", "not", "liabl"]),
    ("may be punished", ["may", "punish"]),
    ("no person shall be prosecuted", ["no", "person", "shall", "prosecut"]),
    ("offences against women", ["offenc", "against", "women"]),
    ("he is married, and cheated her", ["marry", "cheat"]),
    # a clause label is structure; "do so. A person" is not an initialism
    ("(ia) has, after the solemnization of the marriage", ["after", "solemnization", "marriag"]),
    ("to do so. A person", ["person"]),
]


@pytest.mark.parametrize(("text", "expected"), TABLE)
def test_table(text: str, expected: list[str]) -> None:
    assert legal_tokens(text) == expected


def test_a_query_reference_meets_the_statute_text() -> None:
    # HMA s.13 as the India Code prints it, headed as the chunker heads a sub-unit.
    text = "HMA s.13(1)(ia) Divorce.\n(ia) has, after the solemnization of the marriage, treated the petitioner"
    doc = set(legal_tokens(text))
    assert {"13(1)(ia)", "13(1)", "13"} <= doc
    assert set(legal_tokens("13(1)(ia)")) <= doc
    assert set(legal_tokens("section 13 of the HMA")) <= doc


def test_spellings_of_one_act_are_one_term() -> None:
    spellings = ["Cr.P.C.", "CrPC", "Cr. P.C.", "Cr.P.C", "CRPC", "Cr PC", "cr.p.c."]
    assert {tuple(legal_tokens(s)) for s in spellings} == {("crpc",)}


def test_codes_are_not_stemmed() -> None:
    assert legal_tokens("BNS") == ["bns"] and legal_tokens("NDPS") == ["ndps"]
    assert light_stem("bns") == "bns"  # three letters: too short to stem anyway


def test_legal_words_are_not_stopwords() -> None:
    assert not {"not", "no", "nor", "shall", "may", "against", "before", "after", "under"} & STOPWORDS


def test_real_statute_text_keeps_every_section_reference() -> None:
    # BNS s.2 refers to other sections throughout; each "section N" must survive as "N".
    row = next(
        json.loads(line)
        for line in (CORPUS / "indiacode" / "sections_fulltext_subset.jsonl").open(encoding="utf-8")
        if '"the-bharatiya-nyaya-sanhita-2023"' in line and '"section_no": "2"' in line
    )
    cited = re.findall(r"\bsections? (\d+[A-Z]?)\b", row["text"])
    terms = legal_tokens(row["text"])
    assert len(cited) > 5
    assert {c.lower() for c in cited} <= set(terms)
    assert "section" not in terms and "the" not in terms


def test_a_word_whose_stem_is_a_stopword_is_dropped_like_the_stopword() -> None:
    # Hypothesis once drew "SSES" (stem "ss"); the statutes hold "others", "beings", "wills".
    for word in ("SSES", "others", "beings"):
        assert legal_tokens(word) == [], word
    assert legal_tokens("other persons") == legal_tokens("others persons") == ["person"]


def test_tokenizer_id_is_stable() -> None:
    assert TOKENIZER_ID.startswith("legal-tokens/1:")
    assert TOKENIZER_ID.strip() == TOKENIZER_ID and len(TOKENIZER_ID.split(":")[1]) == 12


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_unicode_gives_lower_case_terms_deterministically(text: str) -> None:
    first = legal_tokens(text)
    assert first == legal_tokens(text)
    assert all(isinstance(t, str) and t and t == t.lower() for t in first)
    assert not set(first) & STOPWORDS


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["s.", "u/s", "498A", "(1)", "(ia)", "Cr.", "P.C.", "N.I.", "Act", "a.", " ", "."])))
def test_legal_punctuation_soup_never_crashes(parts: list[str]) -> None:
    legal_tokens("".join(parts))


def test_pathological_input_is_linear() -> None:
    # No catastrophic backtracking: these finish (in well under a second) and count what they should.
    assert len(legal_tokens("a." * 50_000 + "b")) == 1  # one (absurd) initialism
    assert legal_tokens("(1)" * 50_000) == []
    # Sub-unit levels stop at four, so the output cannot grow quadratically with the input.
    assert legal_tokens("13" + "(1)" * 2000) == ["13", "13(1)", "13(1)(1)", "13(1)(1)(1)", "13(1)(1)(1)(1)"]
