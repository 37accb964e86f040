"""``legal-rag audit`` on the shipped corpus: it must be clean (this is how CI runs it), and each finding
kind must fire on the real rows it was written for, and stay silent on their real look-alikes."""

from __future__ import annotations

import dataclasses
import json
from functools import cache
from pathlib import Path

import pytest

from graph_schema.errors import IngestError
from ingestion.audit import (
    Corpus,
    FindingKind,
    act_names,
    audit,
    duplicate_texts,
    empty_texts,
    heading_mismatches,
    no_change_links,
    numbering_gaps,
    propose_named_acts,
    read_corpus,
    truncated_titles,
    undated_insertions,
    unknown_acts,
)
from ingestion.sources.curation import read_commencements, read_reviews, read_section_corrections
from ingestion.sources.indiacode import read_catalog, read_fulltext

CORPUS = Path(__file__).resolve().parents[2] / "data" / "corpus"
K = FindingKind


@cache
def corpus() -> Corpus:
    return read_corpus(CORPUS)


def _found(findings: list, act: str, section: str | None = None) -> list:  # type: ignore[type-arg]
    return [f for f in findings if f.act == act and (section is None or f.section == section)]


def test_shipped_corpus_is_clean() -> None:
    report = audit(corpus())
    shown = "\n".join(f.message for f in report.unresolved[:30])
    assert report.clean, f"{len(report.unresolved)} unresolved, stale {report.unused}:\n{shown}"
    assert report.compared > 1000  # BNS, BNSS, BSA in three sources each
    assert all(r.authority.strip() for r in report.resolutions.values())
    kinds = {f.kind for f in report.findings}
    assert {K.DUPLICATE_TEXT, K.HEADING_MISMATCH, K.EMPTY_TEXT, K.TRUNCATED_TITLE, K.NUMBERING_GAP,
            K.NO_CHANGE_DIFFERS, K.UNKNOWN_ACT} <= kinds  # fmt: skip


def test_bnss_58_correction_is_what_resolves_its_findings() -> None:
    """Without the BNSS 58 record the audit fails: India Code gives s.58 the text of s.59."""
    c = corpus()
    kept = [x for x in c.curation.corrections if (x.act, x.section) != ("BNSS", "58")]
    assert len(kept) == len(c.curation.corrections) - 1
    without = dataclasses.replace(c, curation=dataclasses.replace(c.curation, corrections=kept))
    report = audit(without)
    assert not report.clean
    unresolved = {(f.kind, f.act, f.section) for f in report.unresolved}
    assert {(K.DUPLICATE_TEXT, "BNSS", "58"), (K.HEADING_MISMATCH, "BNSS", "58")} <= unresolved
    fix = next(x for x in c.curation.corrections if (x.act, x.section) == ("BNSS", "58"))
    assert fix.text == c.copies[("BNSS", "58")]
    assert "twenty-four hours" in (fix.text or "") and "special order of a Magistrate under section 187" in fix.text


@pytest.mark.parametrize(
    ("act", "section", "with_"),
    [
        ("BNSS", "58", "s.59"),  # India Code: s.59's text under s.58's heading
        ("ACA", "46", "s.55"),  # enacted twice in the same words (New York / Geneva Convention awards)
        ("ACA", "51", "s.60"),
    ],
)
def test_duplicate_text(act: str, section: str, with_: str) -> None:
    hits = _found(duplicate_texts(corpus()), act, section)
    assert hits and with_ in hits[0].message


def test_duplicate_text_ignores_repeal_notes() -> None:
    """IPC 161-165 all read "Rep. by the Prevention of Corruption Act, 1988 ...": not a duplicate."""
    assert not _found(duplicate_texts(corpus()), "IPC", "161")


def test_heading_mismatch() -> None:
    hits = _found(heading_mismatches(corpus()), "BNSS", "58")
    assert [h.detail for h in hits] == ["indiacode"]
    assert "s.59" in hits[0].message
    # BNS 259 and 260 open with the same fifteen words, and are different sections.
    assert not _found(heading_mismatches(corpus()), "BNS", "260")


@pytest.mark.parametrize(
    ("act", "section", "empty"),
    [
        ("IPC", "304B", True),  # legacy/ipc.json: section_desc ""
        ("ISA", "246", True),  # India Code row without its text
        ("BNS", "114", False),  # empty in India Code, filled from new-codes-sections as ingestion does
        ("ICA", "76", False),  # empty, but repealed (by the Sale of Goods Act, 1930): no text expected
    ],
)
def test_empty_text(act: str, section: str, empty: bool) -> None:
    assert bool(_found(empty_texts(corpus()), act, section)) is empty


@pytest.mark.parametrize(
    ("act", "section", "truncated"),
    [
        ("CRPC", "156", True),  # "Police officer" / "Police officer's power to investigate cognizable case."
        ("CRPC", "401", True),  # "High Court" / "High Court's powers of revision."
        ("IPC", "375", False),  # "Rape" beside the table's "Rape definition.": a title, not a cut
        ("IPC", "63", False),  # "Amount of fine" beside "Amount of fine, liability in default ...": the same
    ],
)
def test_truncated_title(act: str, section: str, truncated: bool) -> None:
    assert bool(_found(truncated_titles(corpus()), act, section)) is truncated


@pytest.mark.parametrize(
    ("act", "section", "gap"),
    [
        ("ACA", "12", "(2)"),  # India Code skips from (1) to (3)
        ("GWA", "15", None),  # (2), (3) omitted: the text shows "* * * * *"
        ("BNS", "103", None),
    ],
)
def test_numbering_gap(act: str, section: str, gap: str | None) -> None:
    hits = _found(numbering_gaps(corpus()), act, section)
    assert [h.detail for h in hits] == ([gap] if gap else [])


@pytest.mark.parametrize(
    ("old", "new", "flagged"),
    [
        (("IPC", "139"), "BNS 167", True),  # the service Acts named changed
        (("CRPC", "39"), "BNSS 33", True),  # the list of offences changed
        (("IPC", "302"), "BNS 103(1)", False),
        (("CRPC", "438"), "BNSS 482", False),
    ],
)
def test_no_change_links(old: tuple[str, str], new: str, flagged: bool) -> None:
    hits = [f for f in no_change_links(corpus()) if (f.act, f.section) == old and f.detail == new]
    assert bool(hits) is flagged


@pytest.mark.parametrize(
    ("sentence", "names"),
    [
        ("(1) The Motor Vehicles Act, 1939 (4 of 1939) and any law corresponding to that Act in force in any "
         "State immediately before the commencement of this Act in that State are hereby repealed.",
         ["Motor Vehicles Act, 1939"]),
        ("Explanation.This clause applies whether the marriage was solemnized before or after the commencement "
         "of the Marriage Laws (Amendment) Act, 1976 (68 of 1976).", ["Marriage Laws (Amendment) Act, 1976"]),
        ("under the Scheduled Castes and the Scheduled Tribes (Prevention of Atrocities) Act, 1989",
         ["Scheduled Castes and the Scheduled Tribes (Prevention of Atrocities) Act, 1989"]),
        ("a person subject to this Sanhita and the Air Force Act, 1950", ["Air Force Act, 1950"]),
        ("an offence under Chapter XVII of the Bharatiya Nyaya Sanhita, 2023", ["Bharatiya Nyaya Sanhita, 2023"]),
        ("section 2 of the Dowry Prohibition Act, 1961 (28 of 1961)", ["Dowry Prohibition Act, 1961"]),
    ],
)
def test_act_names(sentence: str, names: list[str]) -> None:
    assert list(act_names(sentence)) == names


def test_unknown_acts() -> None:
    names = {f.detail for f in unknown_acts(corpus())}
    assert {"Motor Vehicles Act, 1939", "Marriage Laws (Amendment) Act, 1976"} <= names
    assert not names & {"Dowry Prohibition Act, 1961", "Indian Penal Code, 1860", "Bharatiya Nyaya Sanhita, 2023"}


def test_named_acts_resolve_the_two_acts() -> None:
    report = audit(corpus())
    for name, how in (("Motor Vehicles Act, 1939", "act_added"), ("Marriage Laws (Amendment) Act, 1976", "act_added")):
        f = next(f for f in report.findings if f.kind is K.UNKNOWN_ACT and f.detail == name)
        assert report.resolutions[f.key].how == how
    acts = {n.act.title: n.act for n in corpus().curation.named_acts}
    assert acts["The Motor Vehicles Act, 1939"].status.value == "repealed"
    assert "MVA s.217" in (acts["The Motor Vehicles Act, 1939"].source or "")
    assert acts["The Marriage Laws (Amendment) Act, 1976"].status.value == "amending"
    assert acts["The Marriage Laws (Amendment) Act, 1976"].number == "68"


def test_propose_drafts_acts_from_the_sentence_that_names_them() -> None:
    """Without named_acts.jsonl and the reviews, --propose-acts drafts the rows back from the statute text."""
    c = corpus()
    bare = dataclasses.replace(c, curation=dataclasses.replace(c.curation, named_acts=[], reviews=[]))
    rows = {str(r.get("title") or r.get("detail")): r for r in propose_named_acts(bare, audit(bare))}
    mva = rows["The Motor Vehicles Act, 1939"]
    assert (mva["status"], mva["number"], mva["year"]) == ("repealed", "4", 1939)
    assert str(mva["authority"]).startswith("MVA s.217 repeals it")
    mla = rows["The Marriage Laws (Amendment) Act, 1976"]
    assert (mla["status"], mla["number"]) == ("amending", "68")
    # "Rep. by the Amending Act, 1934" (IPC 138A): the Act named is the instrument, not the Act repealed.
    assert rows["The Amending Act, 1934"]["status"] == "amending"
    # A misspelling of an Act the graph holds is a review, not a new Act.
    assert rows["Indian Stamps Act, 1899"]["record"] == "review"


def test_undated_insertion(tmp_path: Path) -> None:
    """NI Act s.138, "^1[Where any cheque ...", footnote 1 "Ins. by Act 66 of 1988, s, 4 (w.e.f. 1-4-1989)":
    dated. The same row whose footnote 1 names neither a date nor an Act ("Ins. by s. 4, ibid.") is a finding."""
    rows = [json.loads(line) for line in (CORPUS / "indiacode" / "sections_fulltext_subset.jsonl").open()]
    row = next(r for r in rows if r["act_slug"] == "the-negotiable-instruments-act-1881" and r["section_no"] == "138")
    catalog = read_catalog(CORPUS / "indiacode" / "acts_catalog.jsonl")
    slugs = {a.slug: a.code for a in catalog.acts if a.slug}

    def findings(r: dict[str, object]) -> list:  # type: ignore[type-arg]
        path = tmp_path / "sections_fulltext_subset.jsonl"
        path.write_text(json.dumps(r) + "\n")
        parsed = read_fulltext(path, slugs)
        c = dataclasses.replace(corpus(), fulltext=parsed, raw_fulltext={("NIA", "138"): str(r["text"])})
        return undated_insertions(c)

    assert findings(row) == []
    undated = {**row, "footnotes": str(row["footnotes"]).replace("Ins. by Act 66 of 1988, s, 4 (w.e.f. 1-4-1989)",
                                                                 "Ins. by s. 4, ibid.")}
    assert [f.section for f in findings(undated)] == ["138"]


def test_a_review_must_match_its_finding(tmp_path: Path) -> None:
    """A review of another section resolves nothing, and is reported as stale."""
    c = corpus()
    reviews = [dataclasses.replace(r, section="47") if (r.act, r.section) == ("ACA", "46") else r
               for r in c.curation.reviews]  # fmt: skip
    report = audit(dataclasses.replace(c, curation=dataclasses.replace(c.curation, reviews=reviews)))
    assert [(f.act, f.section) for f in report.unresolved] == [("ACA", "46")]
    assert len(report.unused) == 1 and not report.clean


@pytest.mark.parametrize(
    ("reader", "line", "error"),
    [
        (read_section_corrections, {"act": "BNSS", "section": "58", "text": "..."}, "missing 'authority'"),
        (read_section_corrections, {"act": "BNSS", "section": "58", "authority": "x"}, "needs 'text' or 'title'"),
        (read_commencements, {"act": "NIA", "section": "139", "in_force_from": "1-4-1989x", "authority": "x"},
         "is not a date"),
        (read_commencements, {"act": "BNS", "section": "106", "not_in_force": True, "authority": "x"}, "needs 'sub'"),
        (read_commencements, {"act": "BNS", "section": "106", "sub": ["2"], "authority": "x"}, "not both"),
        (read_commencements, {"act": "IPC", "section": "497", "in_force_to": "27-9-2018x", "authority": "x"},
         "in_force_to '27-9-2018x' is not a date"),
        (read_commencements, {"act": "IPC", "section": "497", "in_force_from": "2019-01-01",
                              "in_force_to": "2018-09-27", "authority": "x"}, "is not after in_force_from"),
        (read_commencements, {"act": "IPC", "section": "497", "in_force_from": "1862-01-01", "struck_down_by": "Joseph "
                              "Shine", "authority": "x"}, "'struck_down_by' needs 'in_force_to'"),
        (read_reviews, {"kind": "empty_text", "act": "ISA", "section": "1"}, "needs 'kind', 'act' and 'authority'"),
    ],
)
def test_curation_rows_without_what_they_need_are_rejected(tmp_path: Path, reader: object, line: dict[str, object],
                                                           error: str) -> None:
    path = tmp_path / "rows.jsonl"
    path.write_text(json.dumps(line) + "\n")
    records, rejects = reader(path)  # type: ignore[operator]
    assert records == [] and len(rejects) == 1 and error in rejects[0].reason


def test_missing_corpus_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match="acts_catalog.jsonl"):
        read_corpus(tmp_path)


def test_a_named_act_may_not_overwrite_an_act_the_graph_holds(tmp_path: Path) -> None:
    """The Economic Offences (Inapplicability of Limitation) Act, 1974 is in the India Code catalogue (EOILA1974):
    a named_acts.jsonl row for it would replace the catalogue's record on ingest, so it is a bad record."""
    for part in CORPUS.iterdir():
        if part.name != "curation":
            (tmp_path / part.name).symlink_to(part)
    (tmp_path / "curation").mkdir()
    for f in (CORPUS / "curation").iterdir():
        (tmp_path / "curation" / f.name).write_bytes(f.read_bytes())
    row = {"record": "act", "code": "EOILA1974", "title": "The Economic Offences (Inapplicability of Limitation) Act, "
           "1974", "year": 1974, "status": "named", "source": "x", "authority": "CRPC s.466 names it"}
    with (tmp_path / "curation" / "named_acts.jsonl").open("a") as fh:
        fh.write(json.dumps(row) + "\n")
    report = audit(read_corpus(tmp_path))
    bad = [f for f in report.unresolved if f.kind is K.BAD_RECORD]
    assert len(bad) == 1 and "EOILA1974 is already in the graph" in bad[0].message


def test_reviews_are_for_the_audit_and_never_loaded() -> None:
    from ingestion.pipeline import Kind, detect, expand

    files = {p.name: k for k, p in expand([CORPUS / "curation"])}
    assert "reviewed.jsonl" not in files
    assert files["section_corrections.jsonl"] is Kind.SECTION_CORRECTIONS
    assert files["commencement.jsonl"] is Kind.COMMENCEMENT
    assert files["named_acts.jsonl"] is Kind.GENERIC
    with pytest.raises(IngestError, match="read by 'legal-rag audit'"):
        detect(CORPUS / "curation" / "reviewed.jsonl")


@pytest.mark.parametrize(
    ("section", "change"),
    [
        ("58", {"text": "copy of s.59"}),  # "corrected" to the words of another section: still a duplicate
        ("156", {"title": "Police officer"}),  # CrPC 156 "corrected" to the same cut title
        ("12", {"text": "without (2)"}),  # ACA 12 "corrected" to India Code's text, still (1), (3), (4), (5)
    ],
)
def test_a_correction_resolves_only_what_it_fixes(section: str, change: dict[str, str]) -> None:
    c = corpus()
    loaded = {(s.act, s.number): s for s in (*c.fulltext.sections, *c.legacy.sections)}
    texts = {"copy of s.59": c.copies[("BNSS", "59")], "without (2)": loaded[("ACA", "12")].text}
    corrections = []
    for x in c.curation.corrections:
        if x.section == section:
            x = dataclasses.replace(x, **{k: texts.get(v, v) for k, v in change.items()})
        corrections.append(x)
    report = audit(dataclasses.replace(c, curation=dataclasses.replace(c.curation, corrections=corrections)))
    assert {f.section for f in report.unresolved} == {section}
