"""Source artefacts are cleaned at ingestion, on the shipped corpus, without changing a statute's words:
the legacy JSON's tab indents, India Code's doubled full stops, and the number and heading India Code
repeats at the start of a section inserted whole ("68C. Prohibition of ...-- (1) As from ...")."""

from __future__ import annotations

import json
import re
from pathlib import Path

from graph_schema.markers import strip_markers
from ingestion.sources.indiacode import act_codes_for_catalog, read_fulltext
from ingestion.sources.legacy import read_legacy
from verification.check.quotes import normalise

CORPUS = Path(__file__).resolve().parents[2] / "data" / "corpus"
_CATALOG = [json.loads(line) for line in (CORPUS / "indiacode" / "acts_catalog.jsonl").open(encoding="utf-8")]
FULLTEXT = read_fulltext(CORPUS / "indiacode" / "sections_fulltext_subset.jsonl", act_codes_for_catalog(_CATALOG))
INDIACODE = {(s.act, s.number): s for s in FULLTEXT.sections}
RAW = {
    (r["act_slug"], r["section_no"]): r
    for r in map(json.loads, (CORPUS / "indiacode" / "sections_fulltext_subset.jsonl").open(encoding="utf-8"))
}
LEGACY = {(s.act, s.number): s for name in ("iea", "crpc", "ipc") for s in read_legacy(CORPUS / "legacy" /
                                                                                        f"{name}.json").sections}


def test_a_doubled_full_stop_is_one() -> None:
    assert "risk of that harm.\n\nIllustration" in (INDIACODE[("BNS", "25")].text or "")
    assert "also be liable to fine.\n\n(2)" in (INDIACODE[("BNS", "103")].text or "")
    doubled = [k for k, s in INDIACODE.items() if s.text and re.search(r"(?<!\.)\.\.(?!\.)", s.text)]
    assert doubled == []


def test_a_section_inserted_whole_does_not_repeat_its_number_and_heading() -> None:
    ndps = INDIACODE[("NDPS", "68C")]
    assert ndps.title == "Prohibition of holding illegally acquired property."
    assert (ndps.text or "").startswith("(1) As from the commencement of this Chapter")
    assert [u.path for u in ndps.subunits] == [("1",), ("2",)]  # sub-section (1) is no longer hidden
    assert (INDIACODE[("STAMP", "73A")].text or "").startswith("(1) The Central Government may")
    # What is left starting with its own number: omitted sections whose text is only "[heading] Omitted by
    # ...", two headings run into the text with no dash (Arms Act s.24A, POCSO s.42A) and NDPS s.25A,
    # whose text India Code gives under the number 25.
    left = sorted(k for k, s in INDIACODE.items() if s.text and s.text.startswith(f"{s.number}. "))
    assert len(left) == 10 and ("ARMS", "24A") in left and ("POCSO", "42A") in left
    assert all(INDIACODE[k].title == "Omitted." for k in left if k[0] == "ITA")


def test_no_statute_word_changes() -> None:
    """A quote of the printed text still matches the stored text verbatim: the stored text, normalised
    as quotes are, is the printed text's (without its repeated number and heading)."""
    by_slug = {r["slug"]: r["code"] for r in _CATALOG if "slug" in r and "code" in r}
    changed = 0
    for (slug, number), r in RAW.items():
        code = by_slug.get(slug) or act_codes_for_catalog(_CATALOG).get(slug)
        stored = INDIACODE.get((code or "", number))
        if stored is None or not stored.text or (r.get("text") or "").count("[") > 40:
            continue
        printed, kept = normalise(strip_markers(r["text"])).strip(), normalise(stored.text).strip()
        assert printed.endswith(kept), (code, number)
        changed += printed != kept
    assert changed > 250  # the inserted sections whose number and heading were cut


def test_legacy_text_has_no_tab_indents_and_the_same_words() -> None:
    assert not [k for k, s in LEGACY.items() if s.text and "\t" in s.text]
    iea3 = LEGACY[("IEA", "3")].text or ""
    assert "Fact: Fact means and includes—" in iea3 and "\nany thing, state of things" in iea3
    raw = {str(r.get("Section") or r.get("section")): r["section_desc"]
           for r in json.loads((CORPUS / "legacy" / "iea.json").read_text(encoding="utf-8")) if r.get("section_desc")}
    assert normalise(raw["3"]) == normalise(iea3)
    table = LEGACY[("CRPC", "320")].text or ""
    assert "Offence\nIPC Section\nCompoundable By" in table  # the table's cells, one a line, rows apart
