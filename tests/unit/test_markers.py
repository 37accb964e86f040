"""The one footnote-marker stripper (graph_schema/markers.py), on real India Code rows, and the verification
stages that use it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graph_schema.markers import strip_markers
from verification.check.quotes import normalise
from verification.claims.align import is_verbatim
from verification.claims.types import Passage

FULLTEXT = Path(__file__).resolve().parents[2] / "data" / "corpus" / "indiacode" / "sections_fulltext_subset.jsonl"


def _rows() -> dict[tuple[str, str], str]:
    out: dict[tuple[str, str], str] = {}
    with FULLTEXT.open(encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            out.setdefault((r["act_slug"], r["section_no"]), r.get("text") or "")
    return out


ROWS = _rows()


@pytest.mark.parametrize(
    ("slug", "section", "raw_part", "clean_part"),
    [
        # NI Act s.138, inserted whole: the marker and its closing bracket go.
        ("the-negotiable-instruments-act-1881", "138", "^1[Where any cheque\ndrawn", "Where any cheque\ndrawn"),
        # Dowry Prohibition Act s.6(1)(a): a marker between two words leaves one space.
        ("the-dowry-prohibition-act-1961", "6", "within^1[three months] after", "within three months after"),
        # Arbitration Act s.1(2): an omission mark between two sub-sections.
        ("the-arbitration-and-conciliation-act-1996", "1", "India:\n\n^1* * * * *\n\n(3)", "India:\n\n\n\n(3)"),
        # SC/ST Act s.15A: marker 1 on a section numbered 15A ("^115A.").
        ("the-scheduled-castes-and-the-scheduled-tribes-prevention-of-atrocities-act-1989", "15A",
         "^115A. Rights of victims", "15A. Rights of victims"),
    ],
)  # fmt: skip
def test_markers_are_removed_from_real_rows(slug: str, section: str, raw_part: str, clean_part: str) -> None:
    raw = ROWS[(slug, section)]
    assert raw_part in raw
    assert clean_part in strip_markers(raw)
    assert "^" not in strip_markers(raw)


def test_brackets_the_statute_prints_stay() -> None:
    # Registration Act s.78 ends with a bracketed note that no marker opened.
    raw = ROWS[("the-registration-act-1908", "78")]
    assert raw.rstrip().endswith("[Vide Rajasthan Act 16 of 1976, s. 4]")
    assert strip_markers(raw).rstrip().endswith("[Vide Rajasthan Act 16 of 1976, s. 4]")


def test_text_without_markers_is_returned_unchanged() -> None:
    plain = next(t for t in ROWS.values() if t and "^" not in t and "*" not in t)
    assert strip_markers(plain) is plain


def test_quote_normaliser_agrees_with_the_stripper_on_the_corpus() -> None:
    """``quotes.normalise`` keeps offsets, so it treats markers as gaps itself; on every marked row it reads as
    the stripper does, except two rows where a marker sits inside a word: "subject]matter" (Specific Relief Act
    s.41; the stripper keeps two words) and "^115A." (SC/ST Act s.15A; the normaliser eats the "1" of "15A").
    Stored text is stripped at ingestion, so neither reaches a quote check."""
    differ = {
        section
        for (_, section), raw in ROWS.items()
        if "^" in raw and normalise(raw).strip() != normalise(strip_markers(raw)).strip()
    }
    assert differ == {"41", "15A"}


def test_verbatim_check_reads_a_claim_across_a_marker() -> None:
    raw = ROWS[("the-dowry-prohibition-act-1961", "6")]
    passage = Passage(chunk_id="DPA:6:1/a:0", act="DPA", section="6", heading="DPA s.6", text=raw, status="in_force")
    assert is_verbatim("if the dowry was received before marriage, within three months after the date of", [passage])
