"""Footnotes, section status and clean text, on real rows of the India Code subset.

Every case names the row it reads (``act slug fragment``, ``section``) and states what the statute
book says, so a failing case points at the rule that broke.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from graph_schema.model import AmendmentKind, SectionStatus
from ingestion.footnotes import clean_text, parse_footnotes, section_status

CORPUS = Path(__file__).resolve().parents[2] / "data/corpus/indiacode/sections_fulltext_subset.jsonl"

INS, SUBS, OMIT, REP = AmendmentKind.INSERTED, AmendmentKind.SUBSTITUTED, AmendmentKind.OMITTED, AmendmentKind.REPEALED
ADDED, RENUM, AMENDED = AmendmentKind.ADDED, AmendmentKind.RENUMBERED, AmendmentKind.AMENDED
IN_FORCE, OMITTED, REPEALED = SectionStatus.IN_FORCE, SectionStatus.OMITTED, SectionStatus.REPEALED
JK_ORDER = "Jammu and Kashmir Reorganization (Adaptation of Central Laws) Order, 2020"


@cache
def _rows() -> tuple[dict[str, str | None], ...]:
    with CORPUS.open(encoding="utf-8") as f:
        return tuple(json.loads(line) for line in f if line.strip())


def row(act: str, section: str) -> dict[str, str | None]:
    """The one row whose slug contains ``act`` and whose section number is ``section``."""
    found = [r for r in _rows() if act in str(r["act_slug"]) and r["section_no"] == section]
    assert len(found) == 1, f"{act} s.{section}: {len(found)} rows"
    return found[0]


def amendments(act: str, section: str):  # type: ignore[no-untyped-def]
    r = row(act, section)
    return parse_footnotes(act, section, r["footnotes"])


# --- parse_footnotes: one footnote per case ------------------------------------------------------

FOOTNOTES = [
    # (act, section, footnote, kind, amending instrument, effective)
    # NI Act s.138 (dishonour of cheque): inserted in 1988, in force from 1 April 1989.
    ("negotiable-instruments", "138", "1", INS, "Act 66 of 1988", "1989-04-01"),
    ("negotiable-instruments", "138", "2", SUBS, "Act 55 of 2002", "2003-02-06"),
    # "3. Subs. by s. 7, ibid., ..." - ibid is the previous footnote's Act.
    ("negotiable-instruments", "138", "3", SUBS, "Act 55 of 2002", "2003-02-06"),
    # HMA s.13: "Clause (iv) omitted by Act 6 of 2019" (leprosy ground).
    ("hindu-marriage", "13", "3", OMIT, "Act 6 of 2019", "2019-03-01"),
    # "4. The word or omitted by Act 44 of 1964, s. 2, ibid." names its Act before the stray ibid.
    ("hindu-marriage", "13", "4", OMIT, "Act 44 of 1964", "1964-12-20"),
    ("hindu-marriage", "13", "5", OMIT, "Act 44 of 1964", "1964-12-20"),
    # "10. Ins. by s. 7, ibid. (w.e.f. 27-5-2976)": a typo for 1976 is not a date we may guess.
    ("hindu-marriage", "13", "10", INS, "Act 68 of 1976", None),
    # HMA s.5: the Child Marriage Restraint (Amendment) Act is Act 2 of 1978.
    ("hindu-marriage", "5", "3", SUBS, "Act 2 of 1978", "1978-10-01"),
    ("hindu-marriage", "5", "5", OMIT, "Act 2 of 1978", "1978-10-01"),
    # TPA s.58: "2 . I n s . b y s . 1 9 , i b i d ." is letter-spaced OCR of "Ins. by s. 19, ibid.".
    ("transfer-of-property", "58", "1", ADDED, "Act 20 of 1920", None),
    ("transfer-of-property", "58", "2", INS, "Act 20 of 1920", None),
    # "Subs. by the A.O. 1948, ... The word and had been ins. by the A.O. 1937": the history
    # clause does not displace the footnote's own event.
    ("transfer-of-property", "58", "6", SUBS, "A.O. 1948", None),
    # "... ins. by Act 38 of 1925, s. 2, omitted by Act 20 of 1929": the last event is the current one.
    ("transfer-of-property", "130", "3", OMIT, "Act 20 of 1929", None),
    # CPC s.1: "(w.e.f. 31-10- 2019)" with a stray space.
    ("code-of-civil-procedure", "1", "2", OMIT, "Act 34 of 2019", "2019-10-31"),
    # CPC s.2: "1. ... omitted by s. 3, ibid." has no previous footnote in this section: unknown.
    ("code-of-civil-procedure", "2", "1", OMIT, None, "1977-02-01"),
    # "Clause (21) omitted by Act 2 of 1951, s. 4 earlier Clause (21) ins. by the A.O. 1950."
    ("code-of-civil-procedure", "2", "9", OMIT, "Act 2 of 1951", None),
    ("code-of-civil-procedure", "2", "7", SUBS, "A.O. 1950", None),
    ("code-of-civil-procedure", "7", "4", SUBS, "Adaptation of Laws (No. 2) Order, 1956", None),
    # Stamp Act s.57: "Subs. by the A.O. (No. 2) 1956" is the same Order, abbreviated.
    ("indian-stamp", "57", "1", SUBS, "Adaptation of Laws (No. 2) Order, 1956", None),
    # "Clause (bb) ins. by s. 3 and Sch. ibid. And omitted by the State of Himachal Pradesh ... 1973".
    (
        "indian-stamp",
        "57",
        "3",
        OMIT,
        "State of Himachal Pradesh (Adaptation of Law on Union Subjects) Order, 1973",
        "1971-01-25",
    ),
    # Stamp Act s.2: "(w.e.f. 1-7-2020). [Earlier notified w.e.f. 9-1-2020 followed by 1-4-2020]".
    ("indian-stamp", "2", "1", SUBS, "Act 7 of 2019", "2020-07-01"),
    ("special-marriage", "2", "4", SUBS, "Adaptation of Laws (No. 3) Order, 1956", None),
    # Contract Act s.21: "Paragraph 2, ins. by the A.O. 1937, and as amended by the A. O. 1948 was
    # Rep. by the A. O. 1950."
    ("indian-contract", "21", "2", REP, "A.O. 1950", None),
    ("indian-contract", "21", "1", AMENDED, "A.O. 1948", None),
    # NI Act s.1: "The words ..., which were subs. by Act 3 of 1951, ..., omitted by Act 62 of 1956".
    ("negotiable-instruments", "1", "1", OMIT, "Act 62 of 1956", None),
    ("negotiable-instruments", "1", "2", REP, "Act 10 of 1923", None),
    ("arms-act", "25", "10", RENUM, "Act 42 of 1988", "1988-05-27"),
    # ISA s.57: the date belongs to the 1929 renumbering, not the "earlier" 1926 one.
    ("indian-succession", "57", "1", RENUM, "Act 18 of 1929", "1929-10-01"),
    # Family Courts Act s.19: "Sub-section (6) by the Jammu and Kashmir ... Order, 2020" lost its verb.
    ("family-courts", "19", "4", AMENDED, JK_ORDER, None),
    ("arbitration", "1", "1", OMIT, JK_ORDER, None),
    # IT Act s.1 is laid out one word per line: "2\nSubs. by ... (w.e.f. 27\n-\n10\n-\n2009)."
    ("information-technology", "1", "2", SUBS, "Act 10 of 2009", "2009-10-27"),
    ("information-technology", "25", "1", SUBS, "S.O. 1015(E)", "2002-09-19"),
    # MVA s.8: "(1-9-2019)" without "w.e.f." is not read as an effective date.
    ("motor-vehicles", "8", "7", INS, "Act 32 of 2019", None),
    # CPC s.26: "* Shall be applicable to commercial disputes ... by Act 4 of 2016, s. 16 and the Schedule".
    ("code-of-civil-procedure", "26", "*", AMENDED, "Act 4 of 2016", "2015-10-23"),
    # "Ins. by Act 27 of 1926, s. 2, as amended by Act 10 of 1927": a footnote opening on its verb
    # is that event, whatever it mentions later.
    ("transfer-of-property", "3", "1", INS, "Act 27 of 1926", None),
    # "Subs. by the Adaptation of Laws (No. 2) Order, 1956, ... The words in italics were ins. by
    # Act 2 of 1951, s. 15 (w.e.f. 1-4-1951)": that date is the insertion's.
    ("code-of-civil-procedure", "122", "2", SUBS, "Adaptation of Laws (No. 2) Order, 1956", None),
    # JJ Act s.2: 'The words "the person in-charge of which is willing" omitted by, s. 2 ibid.' -
    # words inside quotes ("which") are old text, not a history clause.
    ("juvenile-justice", "2", "8", OMIT, "Act 23 of 2021", "2022-09-01"),
    # NDPS s.18: "Subs. by s. 8, ibid., ... (w.e.f. 1-5-2014)" after a footnote on Act 9 of 2001: the
    # ibid points outside this section (s.8 of Act 16 of 2014), so the instrument is unknown.
    ("narcotic-drugs", "18", "2", SUBS, None, "2014-05-01"),
    ("motor-vehicles", "192A", "2", INS, None, "2019-09-01"),
    # CPC s.20: "Subs. by Act 2 of 1951, s. 3 for "the States" (w.e.f. 1-2-1977)" - a named Act
    # cannot take effect 26 years on; the Act stands, the date does not.
    ("code-of-civil-procedure", "20", "3", SUBS, "Act 2 of 1951", None),
    # TPA s.53A prints footnote "1" twice; the second gets its own key.
    ("transfer-of-property", "53A", "1-2", OMIT, "Act 48 of 2001", "2001-09-24"),
]


@pytest.mark.parametrize(("act", "section", "footnote", "kind", "instrument", "effective"), FOOTNOTES)
def test_footnote(
    act: str, section: str, footnote: str, kind: AmendmentKind, instrument: str | None, effective: str | None
) -> None:
    found = {a.footnote: a for a in amendments(act, section)}
    assert footnote in found, f"{act} s.{section}: footnote {footnote} not parsed; got {sorted(found)}"
    a = found[footnote]
    assert (a.kind, a.amending_act, a.effective) == (kind, instrument, effective)
    assert (a.act, a.section) == (act, section)


# --- which footnotes are amendments at all -------------------------------------------------------

KEYS = [
    # Commencement notes are the Act's in-force date, not amendments.
    ("bharatiya-nyaya", "1", []),
    ("arbitration", "1", ["1"]),  # "2. 22nd August, 1996, vide notification No. G.S.R 375(E) ..."
    ("information-technology", "1", ["2"]),  # "1 17\nth\nOctober, 2000, vide ..."
    ("indian-succession", "273", ["1", "2", "3", "4", "6", "7"]),  # "5. 1st April, 1937." "8. 15th August, 1947."
    # A judgment is not an amendment, but India Code records it in the same list: "Section 66A has been struck down
    # by Supreme Court's Order dated 24th March, 2015 ..." is kept as a STRUCK_DOWN event (test below).
    ("information-technology", "66A", ["1"]),
    # Cross-references are notes: "1. Cf. s. 238, infra." "2. See s. 143, infra."
    ("indian-contract", "17", []),
    # Extent notes: "The application of this Act was barred ..." "The Act has been extended to ...".
    ("transfer-of-property", "1", ["1", "3", "4", "6", "7", "8", "9", "10"]),
    ("bankers-books", "1", ["2", "3", "4"]),  # "1. The Act has been extended in its application to ..."
    ("code-of-civil-procedure", "60", [str(n) for n in range(2, 36) if n != 4]),  # "1. For amendments to s. 60 ..."
    ("dissolution-of-muslim", "1", ["1", "2"]),  # "3. In its application to Pondicherry, ... shall be inserted"
    ("limitation-act", "1", ["1"]),  # "2. 1st January, 1964, vide ... Amended in West Bengal by W.B. Act 18"
    ("indian-contract", "70", []),  # "1. As to suits by minors under s. 70 ..., see the ... Act, 1882"
    ("hindu-marriage", "6", []),  # no footnotes at all
    ("negotiable-instruments", "138", ["1", "2", "3"]),
]


@pytest.mark.parametrize(("act", "section", "keys"), KEYS)
def test_which_footnotes_are_amendments(act: str, section: str, keys: list[str]) -> None:
    assert [a.footnote for a in amendments(act, section)] == keys


def test_amendment_text_is_the_footnote_on_one_line() -> None:
    (_, _, third) = amendments("negotiable-instruments", "138")
    assert third.text == "Subs. by s. 7, ibid., for within fifteen days (w.e.f. 6-2-2003)."
    (letter_spaced,) = [a for a in amendments("transfer-of-property", "58") if a.footnote == "2"]
    assert letter_spaced.text == "Ins. by s. 19, ibid."
    # ISA s.273: "5. 1st April, 1937." is a note of its own, not the tail of footnote 4.
    (fourth,) = [a for a in amendments("indian-succession", "273") if a.footnote == "4"]
    assert fourth.text == 'Subs. by Act 3 of 1951, s. 3 and Sch., for "the States".'


# --- section_status ------------------------------------------------------------------------------

STATUS = [
    # "[Guardianship in marriage.Omitted by the Child Marriage Restraint (Amendment) Act, 1978, (2 of
    # 1978), s. 6 and Schedule (w.e.f. 1-10-1978)."
    ("hindu-marriage", "6", OMITTED, "1978-10-01"),
    ("hindu-marriage", "30", REPEALED, "1960-12-26"),
    ("hindu-adoptions", "29", REPEALED, "1960-11-26"),
    # "(w.e.f.1-1-\n1964)" wrapped inside the date; the State amendment after it changes nothing.
    ("code-of-civil-procedure", "48", REPEALED, "1964-01-01"),
    # "Rep. by the Repealing and Amending Act, 1952 (48 of 1952), s. 2 and the First Schedule." - no date.
    ("code-of-civil-procedure", "154", REPEALED, None),
    ("guardians-and-wards", "5", OMITTED, None),
    ("information-technology", "20", OMITTED, "2009-10-27"),  # "20. [Controller ...]Omitted by"
    ("information-technology", "49", OMITTED, "2017-05-26"),  # the whole note wrapped in ^1[ ... ]
    ("motor-vehicles", "143", OMITTED, "2019-09-01"),
    # The heading was kept but the text is an omission note.
    ("commercial-courts", "9", OMITTED, "2018-05-03"),
    # Headed "[Repealed.]" but the note says "Omitted by the Refugee Relief Taxes (Abolition) Act, 1973".
    ("indian-stamp", "3A", OMITTED, "1973-04-01"),
    # Heading only, no text.
    ("indian-contract", "76", REPEALED, None),
    ("hindu-succession", "23", OMITTED, None),
    # Headed "Omitted." with its old text and a footnote on Shreya Singhal: no w.e.f. date.
    ("information-technology", "66A", OMITTED, None),
    # In force: repealing sections and sections that mention repeal or omission.
    ("bharatiya-nyaya", "358", IN_FORCE, None),  # "The Indian Penal Code (45 of 1860) is hereby repealed."
    ("right-to-information", "31", IN_FORCE, None),  # headed "Repeal."
    ("guardians-and-wards", "51", IN_FORCE, None),  # "under any enactment repealed by this Act"
    ("indian-partnership", "3", IN_FORCE, None),  # "The unrepealed provisions of the Indian Contract Act"
    ("narcotic-drugs", "3", IN_FORCE, None),  # "Power to add to or omit from the list ..."
    ("indian-succession", "77", IN_FORCE, None),  # "Where any word ... has been omitted"
    # Footnotes that repeal or omit words *within* the section do not end it.
    ("indian-contract", "21", IN_FORCE, None),  # "The second Illustration to s. 21 rep. by Act 24 of 1917"
    ("transfer-of-property", "1", IN_FORCE, None),  # "The Act has been repealed as to Government Grants"
]


@pytest.mark.parametrize(("act", "section", "status", "ceased"), STATUS)
def test_section_status(act: str, section: str, status: SectionStatus, ceased: str | None) -> None:
    r = row(act, section)
    assert section_status(r["title"], r["text"], r["footnotes"]) == (status, ceased)


def test_status_from_heading_alone() -> None:
    """The section index has headings only (``section_status(title, None, None)``)."""
    assert section_status("[Omitted.].", None, None) == (OMITTED, None)
    assert section_status("Repealed..", None, None) == (REPEALED, None)
    assert section_status("Repeal and savings.", None, None) == (IN_FORCE, None)
    assert section_status(None, None, None) == (IN_FORCE, None)


# --- clean_text ----------------------------------------------------------------------------------


def test_clean_text_removes_markers_and_joins_wraps() -> None:
    text = clean_text(str(row("negotiable-instruments", "138")["text"]))
    # "^1[Where any cheque\ndrawn by a person ..." - the marker and its closing bracket go.
    assert text.startswith("Where any cheque drawn by a person on an account maintained by him with a banker")
    assert "imprisonment for a term which may be extended to two years, or with fine" in text
    assert text.endswith("means a legally enforceable debt or other liability.")
    assert "^" not in text and "[" not in text and "]" not in text
    # Paragraphs survive: the proviso and each clause stand alone.
    assert "\n\nProvided that nothing contained in this section shall apply unless--\n\n(a) the cheque" in text


def test_clean_text_drops_omission_marks() -> None:
    text = clean_text(str(row("hindu-marriage", "13")["text"]))  # "(v) has ^3* * * been suffering ..."
    assert "(v) has been suffering from venereal disease in a communicable form; or" in text
    assert "*" not in text


def test_clean_text_keeps_words_apart() -> None:
    # Dowry Act s.6: "within^1[three months]" - removing the marker must not glue two words.
    assert "within three months after the date of marriage" in clean_text(str(row("dowry", "6")["text"]))


def test_clean_text_joins_a_line_broken_at_a_hyphen() -> None:
    # CPC s.48: "Rep. by the Limitation Act, 1963 (36 of 1963), s. 28 (w.e.f.1-1-\n1964)."
    assert "s. 28 (w.e.f.1-1-1964)." in clean_text(str(row("code-of-civil-procedure", "48")["text"]))


def test_clean_text_splits_a_clause_missing_its_blank_line() -> None:
    # IT Act s.37 has "...from–\n(i) the subscriber" with a single newline before the sub-clause.
    assert "\n\n(i) the subscriber" in clean_text(str(row("information-technology", "37")["text"]))


# --- the whole corpus ----------------------------------------------------------------------------

_INSTRUMENT = re.compile(
    r"^(?:(?:Pun\.|Bom\.|Madras|Bihar) )?Act \d+ of \d{4}$|^A\.O\. \d{4}$|^Adaptation of Laws \(No\. \d\) Order, \d{4}$"
    r"|^[A-Z][\w ,.()\-]+ Order, \d{4}$|^Reg\. \d+ of \d{4}$|^Ord\. \d+ of \d{4}$|^(?:S\.O\.|G\.S\.R\.) \d+\(E\)$"
)


def _letters_and_digits(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9]", "", s)


def test_whole_corpus(capsys: pytest.CaptureFixture[str]) -> None:
    rows = _rows()
    assert len(rows) == 4141
    counts: Counter[str] = Counter()
    for r in rows:
        act, section = str(r["act_slug"]), str(r["section_no"])
        found = parse_footnotes(act, section, r["footnotes"])
        keys = [a.footnote for a in found]
        assert len(keys) == len(set(keys)), f"{act} s.{section}: repeated footnote keys {keys}"
        for a in found:
            counts["amendments"] += 1
            counts[f"kind:{a.kind.value}"] += 1
            if a.effective:
                counts["with date"] += 1
                assert re.fullmatch(r"(18|19|20)\d\d-\d\d-\d\d", a.effective), a
            if a.amending_act:
                counts["with instrument"] += 1
                judgment = a.kind is AmendmentKind.STRUCK_DOWN and " vs. " in a.amending_act  # the case
                assert _INSTRUMENT.match(a.amending_act) or judgment, f"{act} s.{section}: {a.amending_act!r}"
        status, ceased = section_status(r["title"], r["text"], r["footnotes"])
        counts[status.value] += 1
        counts[f"{status.value} dated"] += ceased is not None
        heading = re.sub(r"[^a-z]", "", str(r["title"] or "").lower())
        if heading in {"omitted", "repealed"}:
            assert status is not IN_FORCE, f"{act} s.{section} is headed {r['title']!r}"
        raw = str(r["text"] or "")
        clean = clean_text(raw)
        assert "^" not in clean and "* * *" not in clean and "***" not in clean, f"{act} s.{section}"
        # Not a word changed: letters and digits are those of the raw text less the marker numbers.
        assert _letters_and_digits(clean) == _letters_and_digits(re.sub(r"\^\s*(?:\d{1,2}(?!\d)|\d(?=\d))", "", raw))
    with capsys.disabled():
        print("\nfootnotes/status over the corpus:", dict(sorted(counts.items())))
    # Every heading that says Omitted or Repealed (161) plus Commercial Courts Act s.9, whose text is
    # an omission note under its old heading.
    assert counts["omitted"] + counts["repealed"] == 162
    assert counts["omitted"] == 41 and counts["repealed"] == 121
    assert counts["amendments"] >= 1350 and counts["with date"] >= 900


def test_a_judgment_striking_a_section_down_is_kept_with_its_case_and_date() -> None:
    """IT Act s.66A: India Code prints "Omitted." as its heading and a footnote naming the judgment; the checker and
    the answer say why it is not law from this record (Shreya Singhal v. Union of India, 24 March 2015)."""
    (a,) = amendments("information-technology", "66A")
    assert (a.kind, a.amending_act, a.effective) == (
        AmendmentKind.STRUCK_DOWN, "Shreya Singhal vs. Union of India, AIR 2015 SC. 1523", "2015-03-24")
    assert a.text.startswith("Section 66A has been struck down by Supreme Court's Order dated 24th March, 2015")
    # the same words with an impossible date, or a section merely mentioning a strike-down, are no such event
    assert parse_footnotes("ITA", "66A", "1. Section 66A has been struck down by Supreme Court's Order dated 31st "
                                         "February, 2015 in the X vs. Y.") == ()
    assert [x.kind for x in parse_footnotes("ITA", "1", "1. Subs. by Act 10 of 2009, s. 2 (w.e.f. 27-10-2009).")] \
        == [AmendmentKind.SUBSTITUTED]
    # every other footnote of the corpus is unchanged by the rule: no other row is read as a judgment
    struck = [(str(r["act_slug"]), r["section_no"]) for r in _rows()
              for x in parse_footnotes("X", str(r["section_no"]), r.get("footnotes"))
              if x.kind is AmendmentKind.STRUCK_DOWN]
    assert struck == [("the-information-technology-act-2000", "66A")]
