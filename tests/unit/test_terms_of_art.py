"""Terms of art in queries get the statute's wording appended (data/retrieval/terms_of_art.jsonl)."""

from __future__ import annotations

from pathlib import Path

import pytest

from graph_schema.errors import IngestError
from legal_rag.retrieval.expand import TermsOfArt
from legal_rag.settings import Settings

TERMS = TermsOfArt.load(Settings().retrieval.terms_of_art)


@pytest.mark.parametrize(
    ("query", "wording"),
    [
        ("Is a dying declaration admissible?", "cause of his death"),
        ("my cheque bounced last week", "dishonour of cheque for insufficiency of funds"),
        ("Can the High Court quash the FIR?", "inherent powers of High Court"),
        ("hit-and-run case on the highway", "escaping without reporting"),
        ("ANTICIPATORY BAIL in a dowry case", "person apprehending arrest"),
    ],
)
def test_terms_of_art_bring_the_statutory_wording(query: str, wording: str) -> None:
    out = TERMS.expand(query)
    assert out.startswith(query.rstrip(".?")) and wording in out


def test_words_inside_other_words_do_not_match_and_plain_queries_are_untouched() -> None:
    assert TERMS.expand("the firm's directors") == "the firm's directors"  # "fir" inside "firm"
    assert TERMS.expand("punishment for murder") == "punishment for murder"


def test_a_malformed_line_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "terms.jsonl"
    bad.write_text('{"terms": ["x"], "expansion": "y"}\n{"terms": "x"}\n', encoding="utf-8")
    with pytest.raises(IngestError, match="terms.jsonl:2"):
        TermsOfArt.load(bad)
