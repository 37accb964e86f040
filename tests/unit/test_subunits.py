"""Sub-unit parsing on real rows of the India Code subset (text cleaned by ``clean_text`` first)."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

from graph_schema.model import SubUnit
from graph_schema.numbering import canonical_sub
from ingestion.footnotes import clean_text
from ingestion.subunits import parse_subunits

CORPUS = Path(__file__).resolve().parents[2] / "data/corpus/indiacode/sections_fulltext_subset.jsonl"


@cache
def _rows() -> tuple[dict[str, str | None], ...]:
    with CORPUS.open(encoding="utf-8") as f:
        return tuple(json.loads(line) for line in f if line.strip())


def units(act: str, section: str) -> tuple[SubUnit, ...]:
    """Sub-units of the one row whose slug contains ``act`` and whose number is ``section``."""
    found = [r for r in _rows() if act in str(r["act_slug"]) and r["section_no"] == section]
    assert len(found) == 1, f"{act} s.{section}: {len(found)} rows"
    return parse_subunits(clean_text(str(found[0]["text"] or "")))


def paths(act: str, section: str) -> list[str]:
    return ["/".join(u.path) for u in units(act, section)]


def text_of(act: str, section: str, path: str) -> str:
    by_path = {"/".join(u.path): u.text for u in units(act, section)}
    assert path in by_path, f"{act} s.{section} has no {path}; has {sorted(by_path)}"
    return by_path[path]


def _seq(parent: str, labels: str) -> list[str]:
    return [f"{parent}/{x}" if parent else x for x in labels.split()]


# --- the structure of whole sections -------------------------------------------------------------

STRUCTURE = [
    # HMA s.13: clause (i) was substituted by (i), (ia), (ib); (iv) was omitted; (1A) inserted; the
    # Uttar Pradesh amendment after "STATE AMENDMENT" is not part of the section.
    (
        "hindu-marriage",
        "13",
        ["1", *_seq("1", "i ia ib ii iii v vi vii"), "1A", *_seq("1A", "i ii"), "2", *_seq("2", "i ii iii iv")],
    ),
    ("hindu-marriage", "13B", ["1", "2"]),
    ("bharatiya-nyaya", "103", ["1", "2"]),
    # BNSS s.35: letters under a roman numeral under a letter; "(c)" after "(ii)(e)" goes back up to
    # clause level, and "(i)" after "(h)" is the letter i.
    (
        "bharatiya-nagarik",
        "35",
        [
            "1",
            *_seq("1", "a b"),
            *_seq("1/b", "i ii"),
            *_seq("1/b/ii", "a b c d e"),
            *_seq("1", "c d e f g h i j"),
            *_seq("", "2 3 4 5 6 7"),
        ],
    ),
    # NI Act s.138: the proviso's clauses are the section's only sub-units.
    ("negotiable-instruments", "138", ["a", "b", "c"]),
    # BNS s.101: the proviso "(a) sought or voluntarily provoked ..." belongs to Exception 1 and the
    # lettered Illustrations are illustrations, not clauses.
    ("bharatiya-nyaya", "101", ["a", "b", "c", "d"]),
    # ISA s.351: "Exception.-- (1) Where the legacy is bequeathed ... (2) ... (3) ..." numbers the
    # Exception's cases; the section itself is not divided.
    ("indian-succession", "351", []),
    # CPC s.35 runs on into the section as substituted for commercial disputes ("35. Costs.(1) In
    # relation to any commercial dispute ... (a) ..."): only its own two sub-sections count.
    ("code-of-civil-procedure", "35", ["1", "2"]),
    # ... but a heading after the chapter titles, before any unit, is the section's own:
    # "CHAPTER IIIA\n\nPRE-INSTITUTION MEDIATION AND SETTLEMENT\n\n12A. Pre-Institution Mediation
    # and Settlement.--- (1) A suit, ..."
    ("commercial-courts", "12A", ["1", "2", "3", "4", "5"]),
    # Arms Act s.24A: "24A. Prohibition ... disturbed areas, etc.(1) Where the Central Government ..."
    ("arms-act", "24A", ["1", *_seq("1", "a b c d"), *_seq("1/d", "i ii"), "2", "3", "4", *_seq("4", "a b")]),
    # BNS s.100 (culpable homicide) has only Explanations and lettered Illustrations.
    ("bharatiya-nyaya", "100", []),
    # SMA s.2: clause (a) is omitted, and "(d)" after Explanation I's "(a) ... (c)" is the next clause.
    ("special-marriage", "2", ["b", "d", "e", "f", "g"]),
    # NDPS s.41 prints "authorisation.-- (l) A Metropolitan Magistrate ...": OCR for "(1)".
    ("narcotic-drugs", "41", ["1", "2", "3"]),
    # Arms Act s.26: "26. Secret contraventions.―(1) Whoever ..." (a horizontal bar, not a dash).
    ("arms-act", "26", ["1", "2", "3"]),
    # LSA s.1: India Code printed "(1)" in the heading; the text opens with sub-section (1)'s words.
    ("legal-services", "1", ["1", "2", "3"]),
    # Stamp Act s.8G: "(i) by way of strategic sale ..." runs into the sentence; a roman list is not
    # made to start at "(ii)".
    ("indian-stamp", "8G", []),
    ("hindu-marriage", "6", []),  # omitted: "[Guardianship in marriage.Omitted by ..."
    ("indian-contract", "76", []),  # repealed, no text
]


@pytest.mark.parametrize(("act", "section", "expected"), STRUCTURE)
def test_structure(act: str, section: str, expected: list[str]) -> None:
    assert paths(act, section) == expected


def test_bns_2_definitions() -> None:
    got = paths("bharatiya-nyaya", "2")
    assert [p for p in got if "/" not in p] == [str(n) for n in range(1, 40)]
    assert "16/i" in got and "16/ii" in got  # "(16) "Judge" ... includes a person,--- (i) ... (ii) ..."
    assert _seq("28", "a b c d e f g h i j k") == [p for p in got if re.fullmatch(r"28/[a-z]", p)]
    # "(8) "document" ... Explanation 1.---It is immaterial ... (a) A writing expressing the terms of a
    # contract ... is a document." - the Explanation's examples are not clauses of (8).
    assert not [p for p in got if p.startswith("8/")]
    # (8) runs on through its Explanations and Illustration up to "(9)".
    eight = text_of("bharatiya-nyaya", "2", "8")
    assert "(b) A cheque upon a banker is a document." in eight
    assert eight.endswith("had been written over the signature;")


# --- the text of one unit ------------------------------------------------------------------------

TEXTS = [
    ("bharatiya-nyaya", "103", "1", "(1) Whoever commits murder shall be punished with death or imprisonment for life"),
    ("bharatiya-nagarik", "35", "1/b/ii/b", "(b) for proper investigation of the offence; or"),
    # MVA s.10(2): "(e) transport vehicle; (i) road-roller; (j) ..." - (f) to (h) were omitted, and
    # "(i)" before "(j)" is a letter, not a sub-clause of (e).
    ("motor-vehicles", "10", "2/i", "(i) road-roller;"),
    ("motor-vehicles", "10", "2/e", "(e) transport vehicle;"),
    # MVA s.74: "(3) (a) The State Government shall ..." - a clause opening on its sub-section's line.
    ("motor-vehicles", "74", "3/a", "(a) The State Government shall, if so directed by the Central Government,"),
    ("legal-services", "1", "1", "This Act may be called the Legal Services Authorities Act, 1987."),
    ("arms-act", "26", "1", "(1) Whoever does any act in contravention of any of the provisions of section 3, 4, 10"),
]


def test_hma_13_1_ia_is_the_cruelty_ground() -> None:
    assert text_of("hindu-marriage", "13", "1/ia") == (
        "(ia) has, after the solemnization of the marriage, treated the petitioner with cruelty; or"
    )
    assert text_of("bharatiya-nyaya", "103", "2").endswith("and shall also be liable to fine.")


@pytest.mark.parametrize(("act", "section", "path", "start"), TEXTS)
def test_unit_text(act: str, section: str, path: str, start: str) -> None:
    assert text_of(act, section, path).startswith(start)


def test_unit_text_includes_children_and_stops_at_next_sibling() -> None:
    one = text_of("hindu-marriage", "13", "1")
    assert "(ia) has, after the solemnization of the marriage, treated the petitioner with cruelty" in one
    assert "(1A)" not in one
    # The Explanation to clause (iii) stays inside (iii).
    assert "Explanation.--In this clause,--" in text_of("hindu-marriage", "13", "1/iii")
    # The last unit ends where the State amendment begins.
    assert "STATE AMENDMENT" not in text_of("hindu-marriage", "13", "2/iv")


def test_cross_references_do_not_open_units() -> None:
    # "(2) ... Notwithstanding the repeal of the Code referred to in sub-section (1), it shall not
    # affect,--- (a) ..." in BNS s.358, and "under sub-section (5) of section 394" in BNSS s.35(1)(i).
    assert paths("bharatiya-nyaya", "358")[:2] == ["1", "2"]
    assert "sub-section (5) of section 394" in text_of("bharatiya-nagarik", "35", "1/i")
    # JJ Act s.52(2): "... withdraw the recognition granted under subsection\n(1) for reasons ..."
    # - "(1)" starts a line of the raw text but reads on as a cross-reference.
    assert paths("juvenile-justice", "52") == ["1", "2"]
    assert "under subsection (1) for reasons" in text_of("juvenile-justice", "52", "2")


def test_empty_text_has_no_units() -> None:
    assert parse_subunits("") == ()
    assert parse_subunits("   \n\n ") == ()


# --- the whole corpus ----------------------------------------------------------------------------


def test_whole_corpus(capsys: pytest.CaptureFixture[str]) -> None:
    sections = with_units = total = deepest = 0
    for r in _rows():
        act, section = str(r["act_slug"]), str(r["section_no"])
        clean = clean_text(str(r["text"] or ""))
        found = parse_subunits(clean)
        sections += 1
        if not found:
            continue
        with_units += 1
        total += len(found)
        deepest = max(deepest, *(len(u.path) for u in found))
        keys = [u.path for u in found]
        assert len(keys) == len(set(keys)), f"{act} s.{section}: repeated paths"
        by_path = {u.path: u.text for u in found}
        for u in found:
            assert all(p == canonical_sub(p) for p in u.path), f"{act} s.{section}: {u.path}"
            assert u.text and u.text in clean, f"{act} s.{section} {u.path}: text not taken from the section"
            if len(u.path) > 1 and u.path[:-1] in by_path:
                assert u.text in by_path[u.path[:-1]], f"{act} s.{section} {u.path}: not inside its parent"
    with capsys.disabled():
        print(f"\nsub-units: {with_units} of {sections} sections divided, {total} units, deepest path {deepest}")
    assert sections == 4141
    assert with_units >= 1900 and total >= 10_500
