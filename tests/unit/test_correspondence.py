"""Correspondence tables: cell normalisation, loading, relations and the curated completions.

Every case quotes a real cell and names the real row it comes from; ``test_cases_quote_real_cells`` checks that
the quoted cell really is in that row, so the tables below cannot drift away from the data.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from graph_schema.errors import IngestError, InvalidSectionNumberError
from graph_schema.model import CitationKey, Relation, Replacement
from graph_schema.numbering import canonical_section
from ingestion.normalise import parse_new_cell, parse_old_cell
from ingestion.sources.correspondence import (
    TABLES,
    CorrespondenceResult,
    NoSuccessor,
    coverage,
    load_corrections,
    load_no_successor,
    load_table,
)

CORPUS = Path(__file__).resolve().parents[2] / "data" / "corpus"
CORR = CORPUS / "correspondence"
CURATION = CORPUS / "curation"
IPC_BNS, CRPC_BNSS, BSA_IEA = "IPC_BNS_mapping.json", "CrPC_BNSS_mapping.json", "BSA_IEA_mapping.json"
SPEC = {t.old_act: t for t in TABLES}
_LEGACY = {"IPC": "ipc.json", "CRPC": "crpc.json", "IEA": "iea.json"}
_SLUG = {
    "BNS": "the-bharatiya-nyaya-sanhita-2023",
    "BNSS": "the-bharatiya-nagarik-suraksha-sanhita-2023",
    "BSA": "the-bharatiya-sakshya-adhiniyam-2023",
}


@cache
def old_sections(act: str) -> frozenset[str]:
    rows = json.loads((CORPUS / "legacy" / _LEGACY[act]).read_text(encoding="utf-8"))
    return frozenset(canonical_section(r.get("Section", r.get("section"))) for r in rows)


@cache
def new_sections(act: str) -> frozenset[str]:
    out = set()
    with (CORPUS / "indiacode" / "sections_fulltext_subset.jsonl").open(encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r["act_slug"] == _SLUG[act]:
                out.add(canonical_section(r["section_no"]))
    return frozenset(out)


@cache
def loaded(old_act: str) -> CorrespondenceResult:
    t = SPEC[old_act]
    return load_table(CORR / t.file, t.old_act, t.new_act, set(old_sections(t.old_act)), set(new_sections(t.new_act)))


@cache
def raw_rows(file: str) -> list[dict[str, str]]:
    return json.loads((CORR / file).read_text(encoding="utf-8"))


def key(act: str, section: str, *sub: str) -> CitationKey:
    return CitationKey(act, section, tuple(sub))


def labels(keys: tuple[CitationKey, ...]) -> list[str]:
    return [k.label for k in keys]


def edge(old_act: str, old_label: str, new_label: str) -> Replacement:
    found = [r for r in loaded(old_act).replacements if r.old.label == old_label and r.new.label == new_label]
    assert len(found) == 1, f"{old_act} {old_label} -> {new_label}: {found}"
    return found[0]


def successors(old_act: str, old_section: str) -> set[str]:
    return {r.new.label for r in loaded(old_act).replacements if r.old.section == old_section}


# --- cell normalisation ---------------------------------------------------------------------------------------

# (file, row, raw new-side cell, act, expected labels)
NEW_CELLS = [
    (IPC_BNS, 164, "103 (1)", "BNS", ["103(1)"]),
    (IPC_BNS, 518, "351 (2)/ (3)", "BNS", ["351(2)", "351(3)"]),
    (IPC_BNS, 284, "189 (8)/ (9)", "BNS", ["189(8)", "189(9)"]),
    (IPC_BNS, 417, "309 (1), (2), (3)", "BNS", ["309(1)", "309(2)", "309(3)"]),
    (BSA_IEA, 152, "132(1) &(2)", "BSA", ["132(1)", "132(2)"]),
    (BSA_IEA, 168, "146(2) &(3)", "BSA", ["146(2)", "146(3)"]),
    (CRPC_BNSS, 15, "2(1)(m )", "BNSS", ["2(1)(m)"]),
    (BSA_IEA, 5, "2(1) (c)", "BSA", ["2(1)(c)"]),
    (IPC_BNS, 298, "197 (1)d", "BNS", ["197(1)(d)"]),
    (IPC_BNS, 198, "125 (a)", "BNS", ["125(a)"]),
    (IPC_BNS, 220, "137 (1) (a)", "BNS", ["137(1)(a)"]),
    (IPC_BNS, 472, "329  (4)", "BNS", ["329(4)"]),
    (IPC_BNS, 56, "Explanation to section 5", "BNS", ["5(expl)"]),
    (BSA_IEA, 36, "First provision to section 22", "BSA", ["22(proviso1)"]),
    (BSA_IEA, 37, "Second provision to section 22", "BSA", ["22(proviso2)"]),
    (BSA_IEA, 40, "Provisio to section 23", "BSA", ["23(proviso)"]),
    (CRPC_BNSS, 40, "nan", "BNSS", []),
]

# (file, row, raw old-side cell, act, expected labels)
OLD_CELLS = [
    (
        IPC_BNS,
        266,
        "230 to 232, 246 to 249, 255, 489A",
        "IPC",
        ["230", "231", "232", "246", "247", "248", "249", "255", "489A"],
    ),
    (
        IPC_BNS,
        267,
        "237 to 241, 250, 251, 254, 258, 260, 489B",
        "IPC",
        ["237", "238", "239", "240", "241", "250", "251", "254", "258", "260", "489B"],
    ),
    (IPC_BNS, 269, "233 / 234 / 235 / 256 / 257 / 489D", "IPC", ["233", "234", "235", "256", "257", "489D"]),
    (IPC_BNS, 14, "29 and 29A", "IPC", ["29", "29A"]),
    (IPC_BNS, 55, "54 & 55", "IPC", ["54", "55"]),
    (CRPC_BNSS, 63, "41 & 41A", "CRPC", ["41", "41A"]),
    (CRPC_BNSS, 424, "357A & 357B", "CRPC", ["357A", "357B"]),
    (IPC_BNS, 458, "428/ 429", "IPC", ["428", "429"]),
    (IPC_BNS, 224, "363A,", "IPC", ["363A"]),
    (IPC_BNS, 265, "171-I", "IPC", ["171I"]),
    (CRPC_BNSS, 325, "265-I", "CRPC", ["265I"]),
    (BSA_IEA, 92, "73 A", "IEA", ["73A"]),
    (BSA_IEA, 106, "85 B", "IEA", ["85B"]),
    (IPC_BNS, 122, "376(1) & 376(2)", "IPC", ["376(1)", "376(2)"]),
    (IPC_BNS, 132, "228A (1)/(2)", "IPC", ["228A(1)", "228A(2)"]),
    (CRPC_BNSS, 5, "2(a)]", "CRPC", ["2(a)"]),
    (CRPC_BNSS, 27, "2 (wa)", "CRPC", ["2(wa)"]),
    (CRPC_BNSS, 9, "2(c )", "CRPC", ["2(c)"]),
    (IPC_BNS, 41, "23 Clause -1", "IPC", ["23(cl1)"]),
    (IPC_BNS, 42, "23 Clause-2", "IPC", ["23(cl2)"]),
    (BSA_IEA, 3, "3, para 1", "IEA", ["3(para1)"]),
    (BSA_IEA, 4, "4, para 3", "IEA", ["4(para3)"]),
    (IPC_BNS, 147, "498A Explanation", "IPC", ["498A(expl)"]),
    # "Interpretation clause" is the heading of IEA s.3: the cell names the whole section (BSA 2 replaces it all).
    (BSA_IEA, 2, "IEA 3 Interpretation clause", "IEA", ["3"]),
    # No predecessor: data, not an error.
    (IPC_BNS, 2, "New", "IPC", []),
    (IPC_BNS, 327, "new", "IPC", []),
    (IPC_BNS, 105, "-", "IPC", []),
    (IPC_BNS, 6, "", "IPC", []),
    (CRPC_BNSS, 40, "nan", "CRPC", []),
    (IPC_BNS, 501, "New subsection", "IPC", []),
]

_COLUMN = {("new", t.file): t.new_column for t in TABLES} | {("old", t.file): t.old_column for t in TABLES}


@pytest.mark.parametrize(
    ("side", "file", "row", "raw"),
    [("new", f, r, raw) for f, r, raw, _, _ in NEW_CELLS] + [("old", f, r, raw) for f, r, raw, _, _ in OLD_CELLS],
)
def test_cases_quote_real_cells(side: str, file: str, row: int, raw: str) -> None:
    assert raw_rows(file)[row - 1][_COLUMN[(side, file)]] == raw


@pytest.mark.parametrize(("file", "row", "raw", "act", "expected"), NEW_CELLS)
def test_parse_new_cell(file: str, row: int, raw: str, act: str, expected: list[str]) -> None:
    keys = parse_new_cell(raw, act)
    assert labels(keys) == expected
    assert all(k.act == act for k in keys)


@pytest.mark.parametrize(("file", "row", "raw", "act", "expected"), OLD_CELLS)
def test_parse_old_cell(file: str, row: int, raw: str, act: str, expected: list[str]) -> None:
    keys = parse_old_cell(raw, act)
    assert labels(keys) == expected
    assert all(k.act == act for k in keys)


def test_sub_units_are_tuples_not_labels() -> None:
    # IPC_BNS row 298 "197 (1)d" and CrPC_BNSS row 15 "2(1)(m )": the sub-path, not just its rendering.
    assert parse_new_cell("197 (1)d", "BNS") == (key("BNS", "197", "1", "d"),)
    assert parse_new_cell("2(1)(m )", "BNSS") == (key("BNSS", "2", "1", "m"),)
    assert parse_old_cell("2 (wa)", "CRPC") == (key("CRPC", "2", "wa"),)


@pytest.mark.parametrize("raw", ["see note", "230 to 9999", "(2)", "Section 5 para"])
def test_unreadable_cells_raise_with_the_raw_cell(raw: str) -> None:
    # No real cell is unreadable after normalisation, so these are made up; the loader turns them into rejects.
    with pytest.raises(InvalidSectionNumberError) as exc:
        parse_old_cell(raw, "IPC")
    assert repr(raw) in str(exc.value)


# --- loading the real tables ----------------------------------------------------------------------------------

# (old act, rows, edges, new provisions without predecessor)
COUNTS = [("IPC", 529, 545, 22), ("CRPC", 559, 536, 14), ("IEA", 193, 191, 3)]


@pytest.mark.parametrize(("old_act", "rows", "edges", "without"), COUNTS)
def test_real_table_counts(old_act: str, rows: int, edges: int, without: int) -> None:
    r = loaded(old_act)
    assert r.rows == rows == len(raw_rows(SPEC[old_act].file))
    assert len(r.replacements) == edges
    assert len({(e.old, e.new) for e in r.replacements}) == edges  # one edge per pair
    assert len(r.new_without_predecessor) == without


# (old act, row, reason fragment). The legacy CrPC/IEA lists lack these sections, which did exist at repeal.
REAL_REJECTS = [
    ("IPC", None, None),
    ("CRPC", 40, "row names no BNSS provision (cell 'nan')"),
    ("CRPC", 63, "CRPC section 41A"),
    ("CRPC", 64, "CRPC section 41B"),
    ("CRPC", 65, "CRPC section 41C"),
    ("CRPC", 66, "CRPC section 41D"),
    ("CRPC", 84, "CRPC section 55A"),
    ("CRPC", 90, "CRPC section 60A"),
    ("CRPC", 138, "CRPC section 105 "),
    ("CRPC", 244, "CRPC section 195A"),
    ("CRPC", 316, "CRPC section 265 "),
    ("CRPC", 509, "CRPC section 437A"),
    ("IEA", 57, "IEA section 45A"),
]


@pytest.mark.parametrize("old_act", ["IPC", "CRPC", "IEA"])
def test_real_table_rejects(old_act: str) -> None:
    expected = [(row, frag) for act, row, frag in REAL_REJECTS if act == old_act and row is not None]
    got = loaded(old_act).rejects
    assert [r.line for r in got] == [row for row, _ in expected]
    for r, (_, frag) in zip(got, expected, strict=True):
        assert r.file == SPEC[old_act].file
        assert frag in r.reason


def test_row_with_a_missing_section_keeps_its_other_edges() -> None:
    # CrPC_BNSS row 63 "41 & 41A" -> BNSS 35: 41A is not in the legacy list, CrPC 41 -> BNSS 35 still loads,
    # and stays MERGED because the row lists two sections.
    assert edge("CRPC", "41", "35").relation is Relation.MERGED
    assert successors("CRPC", "41A") == set()


# (old act, old section, every new provision it reaches in the table)
LANDMARKS = [
    ("IPC", "302", {"103(1)"}),
    ("IPC", "498A", {"85", "86"}),
    ("IPC", "420", {"318(4)"}),
    ("IPC", "120B", {"61(2)"}),
    ("IPC", "34", {"3(5)"}),
    ("IPC", "511", {"62"}),
    ("IPC", "171I", {"177"}),
    ("IPC", "489A", {"178"}),
    ("IPC", "390", {"309(1)", "309(2)", "309(3)"}),
    ("CRPC", "438", {"482"}),
    # CrPC_BNSS rows 2-29: CrPC 2 -> BNSS 2, then clause by clause (BNSS 2(1)(a), (b), (d), (e), (i) are new).
    ("CRPC", "2", {"2", "2(2)"} | {f"2(1)({c})" for c in "cfghjklmnopqrstuvwxyz"}),
    ("CRPC", "265I", {"297"}),
    ("IEA", "65B", {"63"}),
    ("IEA", "73A", {"73"}),
    ("IEA", "28", {"22(proviso1)"}),
]


@pytest.mark.parametrize(("old_act", "section", "expected"), LANDMARKS)
def test_landmark_successors(old_act: str, section: str, expected: set[str]) -> None:
    assert successors(old_act, section) == expected


def test_edge_source_and_note_come_from_the_row() -> None:
    e = edge("IPC", "302", "103(1)")
    assert e.source == "IPC_BNS_mapping.json row 164"
    assert e.note == "No Change, except IPC section is included as subsection in BNS."
    assert e.effective == "2024-07-01"
    assert (e.old, e.new) == (key("IPC", "302"), key("BNS", "103", "1"))


def test_bns_152_has_no_predecessor() -> None:
    # IPC_BNS row 240: BNS 152 "Newly added section", IPC cell "-" - the table does not make it the successor of 124A.
    assert key("BNS", "152") in loaded("IPC").new_without_predecessor
    assert not [r for r in loaded("IPC").replacements if r.new.section == "152"]
    assert successors("IPC", "124A") == set()


# --- relation rules -------------------------------------------------------------------------------------------

# (old act, old label, new label, relation, row, why)
RELATIONS = [
    ("IPC", "498A(expl)", "86", Relation.PARTIAL, 147, "'498A Explanation' names part of 498A"),
    ("IPC", "23(cl1)", "2(36)", Relation.PARTIAL, 41, "'23 Clause -1'"),
    ("IPC", "376(1)", "64", Relation.PARTIAL, 122, "'376(1) & 376(2)': two parts of one section, not merged"),
    ("CRPC", "2(a)", "2(1)(c)", Relation.PARTIAL, 5, "summary 'No change.' but only clause (a) of CrPC 2"),
    ("IEA", "3(para1)", "2(1)(a)", Relation.PARTIAL, 3, "'3, para 1'"),
    ("IPC", "54", "5", Relation.MERGED, 55, "'54 & 55'"),
    ("IPC", "489A", "178", Relation.MERGED, 266, "nine IPC sections in one BNS section"),
    ("IPC", "29A", "2(8)", Relation.MERGED, 14, "'29 and 29A': MERGED outranks SPLIT"),
    ("CRPC", "357A", "396", Relation.MERGED, 424, "'357A & 357B' with summary 'No change.'"),
    ("IPC", "498A", "85", Relation.SPLIT, 146, "498A reaches BNS 85 and 86"),
    ("IPC", "29A", "2(39)", Relation.SPLIT, 44, "29A reaches 2(8) and 2(39)"),
    ("IPC", "10", "2(19)", Relation.SPLIT, 24, "IPC 10 became 'man' 2(19) and 'woman' 2(35)"),
    ("IPC", "158", "189(8)", Relation.SPLIT, 284, "'189 (8)/ (9)'"),
    ("IPC", "152", "195(1)", Relation.SPLIT, 294, "rows 294-295 give 195(1) and 195(2)"),
    ("IEA", "126", "132(1)", Relation.SPLIT, 152, "'132(1) &(2)'"),
    ("CRPC", "2", "2", Relation.MODIFIED, 2, "whole CrPC 2 -> whole BNSS 2: its clauses do not make it a split"),
    ("IEA", "3", "2", Relation.MODIFIED, 2, "whole IEA 3 -> whole BSA 2"),
    ("IPC", "302", "103(1)", Relation.SAME, 164, "'No Change, except IPC section is included as subsection in BNS.'"),
    ("IPC", "420", "318(4)", Relation.SAME, 445, "'IPC section is included as a sub-section in BNS sans heading.'"),
    ("IPC", "120B", "61(2)", Relation.SAME, 119, "'IPC section is included as sub-section in BNS, sans heading.'"),
    ("IPC", "34", "3(5)", Relation.SAME, 49, "'... sans heading. No other change.'"),
    ("IPC", "511", "62", Relation.SAME, 120, "'No change.'"),
    ("IPC", "142", "189(2)", Relation.SAME, 278, "'... sans heading. No other Changes.'"),
    ("CRPC", "438", "482", Relation.SAME, 510, "'No change.'"),
    ("IEA", "24", "22(1)", Relation.MODIFIED, 35, "'The word \"coercion\" is added ...'"),
    ("IEA", "65B", "63", Relation.MODIFIED, 82, "words added"),
    ("IPC", "431", "326(b)", Relation.MODIFIED, 460, "a placement sentence plus a real change"),
    (
        "IPC",
        "345",
        "127(5)",
        Relation.MODIFIED,
        206,
        "'... sans heading. Fine is added.': every sentence must be no-change",
    ),
    ("IPC", "303", "104", Relation.MODIFIED, 166, "alternate punishment added"),
    ("IPC", "75", "13", Relation.MODIFIED, 70, "'No changes were made except ... chapter numbers'"),
    ("CRPC", "2(d)", "2(1)(h)", Relation.PARTIAL, 10, '\'No change except "Code" is replaced with "Sanhita"\''),
    ("CRPC", "51", "49", Relation.MODIFIED, 77, "'No Change except the word \"whenever\" is excluded ...'"),
]


@pytest.mark.parametrize(("old_act", "old", "new", "relation", "row", "why"), RELATIONS)
def test_relation(old_act: str, old: str, new: str, relation: Relation, row: int, why: str) -> None:
    e = edge(old_act, old, new)
    assert e.source == f"{SPEC[old_act].file} row {row}", why
    assert e.relation is relation, why


# --- synthetic table: rejects -----------------------------------------------------------------------------------


def test_rows_pointing_at_missing_sections_are_rejected_and_the_rest_loads(tmp_path: Path) -> None:
    rows = [
        {
            "bns_section": "103 (1)",
            "ipc_section": "302",
            "summary": "No Change, except IPC section is included as subsection in BNS.",
        },
        {"bns_section": "999", "ipc_section": "302", "summary": "points at a BNS section that does not exist"},
        {"bns_section": "85", "ipc_section": "498Z", "summary": "points at an IPC section that does not exist"},
        {"bns_section": "152", "ipc_section": "-", "summary": "Newly added section."},
        {"bns_section": "318 (4)", "ipc_section": "see note", "summary": "unreadable"},
        {"bns_section": "nan", "ipc_section": "nan", "summary": "spill-over"},
        {
            "bns_section": "318 (4)",
            "ipc_section": "420",
            "summary": " IPC section is included as a sub-section in BNS sans heading. ",
        },
    ]
    path = tmp_path / "IPC_BNS_mapping.json"
    path.write_text(json.dumps(rows), encoding="utf-8")
    r = load_table(path, "IPC", "BNS", {"302", "420", "498A"}, {"103", "85", "152", "318"})
    assert [(x.file, x.line, x.act) for x in r.rejects] == [
        ("IPC_BNS_mapping.json", 2, "BNS"),
        ("IPC_BNS_mapping.json", 3, "IPC"),
        ("IPC_BNS_mapping.json", 5, "IPC"),
        ("IPC_BNS_mapping.json", 6, "BNS"),
    ]
    assert "BNS section 999 not found in the BNS section list" in r.rejects[0].reason
    assert "IPC section 498Z not found in the IPC section list" in r.rejects[1].reason
    assert "'see note'" in r.rejects[2].reason
    assert [(e.old.label, e.new.label, e.relation, e.source) for e in r.replacements] == [
        ("302", "103(1)", Relation.SAME, "IPC_BNS_mapping.json row 1"),
        ("420", "318(4)", Relation.SAME, "IPC_BNS_mapping.json row 7"),
    ]
    assert r.replacements[1].note == "IPC section is included as a sub-section in BNS sans heading."
    assert r.new_without_predecessor == (key("BNS", "152"),)
    assert r.rows == 7


def test_duplicate_pairs_keep_the_first_row(tmp_path: Path) -> None:
    rows = [
        {"bns_section": "85", "ipc_section": "498A", "summary": "No change."},
        {"bns_section": "85", "ipc_section": "498A", "summary": ""},
    ]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(rows), encoding="utf-8")
    r = load_table(path, "IPC", "BNS", {"498A"}, {"85"})
    assert [(e.source, e.note) for e in r.replacements] == [("t.json row 1", "No change.")]


# --- curation ---------------------------------------------------------------------------------------------------


@cache
def curated() -> tuple[tuple[Replacement, ...], tuple[NoSuccessor, ...]]:
    return load_corrections(CURATION / "table_corrections.jsonl"), load_no_successor(CURATION / "no_successor.jsonl")


@pytest.mark.parametrize("old_act", ["IPC", "CRPC", "IEA"])
def test_every_old_section_has_a_successor_or_a_no_successor_entry(old_act: str) -> None:
    corrections, no_successor = curated()
    edges = loaded(old_act).replacements + corrections
    assert coverage(edges, set(old_sections(old_act)), no_successor, act=old_act) == set()


@pytest.mark.parametrize("old_act", ["IPC", "CRPC", "IEA"])
def test_no_successor_entries_really_have_none(old_act: str) -> None:
    corrections, no_successor = curated()
    with_successor = {r.old.section for r in loaded(old_act).replacements + corrections if r.old.act == old_act}
    listed = {e.section for e in no_successor if e.act == old_act}
    assert listed <= old_sections(old_act)
    assert listed & with_successor == set()


# (old act, section) that must be listed as having no successor, with a word the reason or authority must contain
NO_SUCCESSOR = [
    ("IPC", "124A", "Vombatkere"),
    ("IPC", "309", "226"),
    ("IPC", "377", "Navtej"),
    ("IPC", "497", "Joseph Shine"),
    ("IPC", "161", "Prevention of Corruption Act, 1988"),
    ("IPC", "165A", "Prevention of Corruption Act, 1988"),
    ("IPC", "310", "thug"),
    ("IPC", "14", "servant of Government"),
    ("CRPC", "17", "Metropolitan"),
    ("IEA", "166", "jury"),
]


@pytest.mark.parametrize(("act", "section", "word"), NO_SUCCESSOR)
def test_no_successor_entries(act: str, section: str, word: str) -> None:
    _, no_successor = curated()
    (entry,) = [e for e in no_successor if (e.act, e.section) == (act, section)]
    assert word in entry.reason + entry.authority


# (old section, what governs its subject today) for every no-successor entry that names some
TODAY = {
    ("IPC", "124A"): (("BNS", "152"),),
    ("IPC", "309"): (("BNS", "226"),),
    ("IPC", "497"): (("HMA", "13(1)(i)"), ("SMA", "27(1)(a)")),
    ("IPC", "161"): (("PCA", "7"),),
    ("IPC", "162"): (("PCA", "7A"),),
    ("IPC", "163"): (("PCA", "7A"),),
    ("IPC", "164"): (("PCA", "12"),),
    ("IPC", "165"): (("PCA", "11"),),
    ("IPC", "165A"): (("PCA", "12"),),
}


def test_what_governs_a_lapsed_subject_today_is_listed_and_explained() -> None:
    _, no_successor = curated()
    assert {(e.act, e.section): e.today for e in no_successor if e.today} == TODAY
    for e in no_successor:
        for act, ref in e.today:  # the reason or authority says why it is named ("BNS 226", "Prevention of Corruption")
            assert f"{act} {ref}" in e.reason or (act == "PCA" and "Prevention of Corruption Act" in e.reason)
    bns = new_sections("BNS")
    assert {ref for e in no_successor for act, ref in e.today if act == "BNS"} <= bns


@pytest.mark.parametrize(
    ("today", "message"),
    [
        ('"BNS 226"', r'no_successor.jsonl:1: "today" must be a non-empty list of \[act, reference\] pairs'),
        ("[]", r'"today" must be a non-empty list'),
        ('[["BNS"]]', r'"today" must be a non-empty list'),
        ('[["BNS", ""]]', r'"today" must be a non-empty list'),
        ('[["BNS", "226(("]]', r'no_successor.jsonl:1: "today" BNS 226\(\('),
        ('[["BNS", "s. 226"]]', r'"today" BNS s. 226 is not written as the graph writes it: "BNS", "226"'),
        ('[["bns", "226"]]', r'"today" bns 226 is not written as the graph writes it'),
        ('[["BNS", "226"], ["BNS", "226"]]', r'"today" lists BNS 226 twice'),
        ('[["IPC", "309"]]', r'"today" names IPC 309 itself'),
    ],
)  # fmt: skip
def test_a_bad_today_field_is_refused_with_its_line(tmp_path: Path, today: str, message: str) -> None:
    path = tmp_path / "no_successor.jsonl"
    path.write_text('{"act": "IPC", "section": "309", "reason": "r", "authority": "a", "today": ' + today + "}\n",
                    encoding="utf-8")
    with pytest.raises(IngestError, match=message):
        load_no_successor(path)


def test_coverage_reports_what_is_missing() -> None:
    corrections, no_successor = curated()
    without_124a = [e for e in no_successor if (e.act, e.section) != ("IPC", "124A")]
    edges = loaded("IPC").replacements + corrections
    assert coverage(edges, set(old_sections("IPC")), without_124a, act="IPC") == {"124A"}
    without_143 = [r for r in edges if r.old.section != "143"]
    assert coverage(without_143, set(old_sections("IPC")), no_successor, act="IPC") == {"143"}
    # Section numbers repeat across Acts: the CrPC 10(2) correction must not cover IPC 10, nor IPC 13's entry CrPC 13.
    assert coverage(corrections, {"10"}, (), act="IPC") == {"10"}
    assert coverage(corrections, {"10"}, (), act="CRPC") == set()
    assert coverage((), {"13"}, no_successor, act="CRPC") == {"13"}


# (old, new, relation) for every correction, in file order
CORRECTIONS = [
    (key("IPC", "2"), key("BNS", "1", "3"), Relation.MODIFIED),
    (key("IPC", "52"), key("BNS", "2", "11"), Relation.SAME),
    (key("IPC", "143"), key("BNS", "189", "2"), Relation.MERGED),
    (key("IPC", "154"), key("BNS", "193", "1"), Relation.MODIFIED),
    (key("IPC", "236"), key("BNS", "47"), Relation.MERGED),
    (key("IPC", "322"), key("BNS", "117", "1"), Relation.SAME),
    (key("IPC", "376DA"), key("BNS", "70", "2"), Relation.MERGED),
    (key("IPC", "444"), key("BNS", "331"), Relation.MERGED),
    (key("IPC", "446"), key("BNS", "331"), Relation.MERGED),
    (key("CRPC", "10", "2"), key("BNSS", "8", "7"), Relation.PARTIAL),
    (key("CRPC", "10", "3"), key("BNSS", "8", "8"), Relation.PARTIAL),
    (key("IEA", "22A"), key("BSA", "20"), Relation.MERGED),
]


def test_corrections() -> None:
    corrections, _ = curated()
    assert [(c.old, c.new, c.relation) for c in corrections] == CORRECTIONS
    assert [c.source for c in corrections] == [
        f"curation/table_corrections.jsonl line {n}" for n in range(1, len(CORRECTIONS) + 1)
    ]
    assert all(c.note for c in corrections)


@pytest.mark.parametrize("correction", range(len(CORRECTIONS)))
def test_corrections_name_real_sections_the_table_lacks(correction: int) -> None:
    c = curated()[0][correction]
    new_act = {t.old_act: t.new_act for t in TABLES}[c.old.act]
    assert c.new.act == new_act
    assert c.old.section in old_sections(c.old.act)
    assert c.new.section in new_sections(c.new.act)
    assert (c.old, c.new) not in {(r.old, r.new) for r in loaded(c.old.act).replacements}


def test_curation_loaders_refuse_bad_lines(tmp_path: Path) -> None:
    entry = {"act": "IPC", "section": "124A", "reason": "sedition", "authority": "x"}
    dup = tmp_path / "no_successor.jsonl"
    dup.write_text(json.dumps(entry) + "\n" + json.dumps(entry) + "\n", encoding="utf-8")
    with pytest.raises(IngestError, match=r"no_successor.jsonl:2: IPC 124A listed twice"):
        load_no_successor(dup)
    bad = tmp_path / "table_corrections.jsonl"
    line = {
        "old_act": "IPC",
        "old_section": "143",
        "new_act": "BNS",
        "new_section": "189(2)",
        "relation": "renamed",
        "note": "n",
        "evidence": "e",
    }
    bad.write_text(json.dumps(line) + "\n", encoding="utf-8")
    with pytest.raises(IngestError, match=r"table_corrections.jsonl:1:"):
        load_corrections(bad)
    line["relation"], line["evidence"] = "merged", ""
    bad.write_text(json.dumps(line) + "\n", encoding="utf-8")
    with pytest.raises(IngestError, match=r"'evidence' is missing or empty"):
        load_corrections(bad)
