"""Ingestion against the real embedded FalkorDB: bad input, strictness, idempotency, nothing lost."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graph_schema.errors import IngestError
from graph_schema.store import FalkorGraphStore
from ingestion.pipeline import ingest
from tests.conftest import real_corpus_path

pytestmark = pytest.mark.integration

# Real rows: IPC 302/307 (legacy copy) and BNS 103/109 (India Code), in the generic format.
IPC_302 = (
    "Whoever commits murder shall be punished with death, or imprisonment for life, and shall also be liable to fine."
)
BNS_103 = (
    "(1) Whoever commits murder shall be punished with death or imprisonment for life, and shall also be liable "
    "to fine.\n\n(2) When a group of five or more persons acting in concert commits murder on the ground of race, "
    "caste or community, sex, place of birth, language, personal belief or any other similar ground each member of "
    "such group shall be punished with death or with imprisonment for life, and shall also be liable to fine."
)


def write_jsonl(path: Path, lines: list[object]) -> Path:
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    return path


def base_records() -> list[object]:
    return [
        {
            "record": "act",
            "code": "IPC",
            "title": "The Indian Penal Code, 1860",
            "in_force_from": "1862-01-01",
            "in_force_to": "2024-07-01",
            "aliases": ["I.P.C.", "Indian Penal Code"],
        },
        {"record": "act", "code": "BNS", "title": "The Bharatiya Nyaya Sanhita, 2023", "in_force_from": "2024-07-01"},
        {
            "act": "IPC",
            "section": "302",
            "title": "Punishment for murder",
            "text": IPC_302,
            "status": "repealed",
            "in_force_to": "2024-07-01",
        },
        {
            "act": "I.P.C.",
            "section": "307",
            "title": "Attempt to murder",
            "text": "Whoever does any act with such intention or knowledge...",
            "status": "repealed",
            "in_force_to": "2024-07-01",
        },
        {"act": "BNS", "section": "103", "title": "Punishment for murder.", "text": BNS_103},
        {"act": "BNS", "section": "109", "title": "Attempt to murder.", "text": "(1) Whoever does any act ..."},
    ]


def test_generic_format_loads_and_splits_subunits(empty_store: FalkorGraphStore, tmp_path: Path) -> None:
    report = ingest(empty_store, [write_jsonl(tmp_path / "acts.jsonl", base_records())])
    assert report.totals() == {"added": 6, "updated": 0, "unchanged": 0, "rejected": 0}
    rec = empty_store.get_section("BNS", "103")
    assert rec is not None and set(rec.subunits) == {"1", "2"}


def test_bad_records_are_reported_with_file_line_and_reason(empty_store: FalkorGraphStore, tmp_path: Path) -> None:
    lines = base_records() + [
        '{"act": "BNS", "section": "110", "title": "broken',  # line 7: malformed JSON
        {"act": "Indian Penal Cod", "section": "1", "text": "x"},  # line 8: unknown Act
        {"act": "BNS", "section": "103", "text": "again"},  # line 9: duplicate section
        {"act": "BNS", "section": "111", "in_force_from": "31/31/2024"},  # line 10: bad date
        {"act": "BNS", "section": "112", "status": "suspended"},  # line 11: bad status
        {"act": "BNS", "section": "Explanation"},  # line 12: not a section number
        {"record": "chapter", "act": "BNS"},  # line 13: unknown record type
        [1, 2, 3],  # line 14: not an object
    ]
    report = ingest(empty_store, [write_jsonl(tmp_path / "bad.jsonl", lines)])
    got = {(r.line, r.reason.split(":")[0].split(" (")[0]) for r in report.rejects}
    assert all(r.file == "bad.jsonl" for r in report.rejects)
    assert {line for line, _ in got} == {7, 8, 9, 10, 11, 12, 13, 14}
    by_line = {r.line: r.reason for r in report.rejects}
    assert "malformed JSON" in by_line[7]
    assert "unknown Act 'Indian Penal Cod'" in by_line[8]
    assert by_line[9] == "duplicate section BNS 103 (first at line 5)"
    assert "is not a date" in by_line[10]
    assert "'suspended' is not one of" in by_line[11]
    assert "not a section number" in by_line[12]
    assert "unknown record type 'chapter'" in by_line[13]
    assert "expected a JSON object" in by_line[14]
    # the good records still loaded
    assert report.totals()["added"] == 6
    assert empty_store.get_section("BNS", "103") is not None


def test_strict_writes_nothing_when_anything_is_rejected(empty_store: FalkorGraphStore, tmp_path: Path) -> None:
    lines = base_records() + [{"act": "NOPE", "section": "1"}]
    with pytest.raises(IngestError, match=r"--strict: 1 record\(s\) rejected, nothing written"):
        ingest(empty_store, [write_jsonl(tmp_path / "a.jsonl", lines)], strict=True)
    assert empty_store.all_acts() == []


def test_rerun_writes_nothing_and_changed_text_updates_in_place(empty_store: FalkorGraphStore, tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "a.jsonl", base_records())
    ingest(empty_store, [path])
    again = ingest(empty_store, [path])
    assert not again.changed
    assert again.totals() == {"added": 0, "updated": 0, "unchanged": 6, "rejected": 0}

    records = base_records()
    records[4] = {**records[4], "text": BNS_103.replace("five or more", "five or more (amended)")}  # type: ignore[dict-item]
    changed = ingest(empty_store, [write_jsonl(tmp_path / "a.jsonl", records)])
    assert changed.totals() == {"added": 0, "updated": 1, "unchanged": 5, "rejected": 0}
    rec = empty_store.get_section("BNS", "103")
    assert rec is not None and "(amended)" in rec.subunits["2"]
    assert empty_store.counts()["Section"] == 4


def test_a_bad_file_later_loses_nothing_already_stored(empty_store: FalkorGraphStore, tmp_path: Path) -> None:
    ingest(empty_store, [write_jsonl(tmp_path / "a.jsonl", base_records())])
    before = empty_store.counts()
    bad = write_jsonl(tmp_path / "b.jsonl", ["{not json", {"act": "ZZZ", "section": "1"}])
    report = ingest(empty_store, [bad])
    assert report.totals()["rejected"] == 2
    assert empty_store.counts() == before
    rec = empty_store.get_section("IPC", "302")
    assert rec is not None and rec.text == IPC_302


def test_unreadable_input_is_refused_before_anything_is_written(empty_store: FalkorGraphStore, tmp_path: Path) -> None:
    with pytest.raises(IngestError, match="no such file"):
        ingest(empty_store, [tmp_path / "missing.jsonl"])
    (tmp_path / "x.pdf").write_text("%PDF")
    with pytest.raises(IngestError, match="unrecognised input"):
        ingest(empty_store, [tmp_path / "x.pdf"])


def test_table_row_pointing_at_a_missing_section_is_rejected(empty_store: FalkorGraphStore, tmp_path: Path) -> None:
    """A correspondence table with real rows plus one naming BNS 999, which does not exist."""
    ingest(empty_store, [write_jsonl(tmp_path / "a.jsonl", base_records())])
    real = json.loads(real_corpus_path("correspondence", "IPC_BNS_mapping.json").read_text())
    rows = [r for r in real if r["ipc_section"] in ("302", "307")]
    rows.append(
        {
            "bns_section": "999",
            "bns_subject": "Invented.",
            "ipc_section": "302",
            "ipc_subject": "x",
            "summary": "No change.",
        }
    )
    table = tmp_path / "IPC_BNS_mapping.json"
    table.write_text(json.dumps(rows))
    report = ingest(empty_store, [table])
    assert len(report.rejects) == 1
    assert report.rejects[0].file == "IPC_BNS_mapping.json"
    assert report.rejects[0].line == len(rows)
    assert "999" in report.rejects[0].reason
    rec = empty_store.get_section("IPC", "302")
    assert rec is not None
    assert [(s.act, s.section) for s in rec.successors] == [("BNS", "103(1)")]


def test_existence_only_index_never_overwrites_text(empty_store: FalkorGraphStore, tmp_path: Path) -> None:
    """Loading the all-Acts index after the full text must not strip BNS sections of their text."""
    catalog = real_corpus_path("indiacode", "acts_catalog.jsonl")
    bns_rows = [
        line
        for line in real_corpus_path("indiacode", "sections_fulltext_subset.jsonl").open()
        if '"the-bharatiya-nyaya-sanhita-2023"' in line
    ]
    fulltext = tmp_path / "sections_fulltext_subset.jsonl"
    fulltext.write_text("".join(bns_rows))
    ingest(empty_store, [catalog, fulltext])
    index_rows = [
        line
        for line in real_corpus_path("indiacode", "section_index_all_acts.jsonl").open()
        if '"the-bharatiya-nyaya-sanhita-2023"' in line
    ]
    index = tmp_path / "section_index_all_acts.jsonl"
    index.write_text("".join(index_rows))
    report = ingest(empty_store, [index])
    assert report.totals()["updated"] == 0 and report.totals()["added"] == 0
    rec = empty_store.get_section("BNS", "103")
    assert rec is not None and rec.has_text and rec.text and rec.text.startswith("(1) Whoever commits murder")


def test_reingesting_one_shipped_file_alone_changes_and_loses_nothing(loaded_copy: FalkorGraphStore) -> None:
    """After the default load, the India Code text file on its own must not strip BNS sections of the
    chapters (from legal_chunks.json) or the text of BNS 114 (from the second copy of the new codes), nor undo
    the curation: BNSS 58's corrected text, NI Act 139's date, BNS 106(2) not in force, ITA 66A's dates (inserted
    in 2009, struck down in 2015)."""
    keys = [("BNS", "114"), ("BNSS", "58"), ("NIA", "139"), ("BNS", "106"), ("ITA", "66A")]
    before = loaded_copy.get_sections(keys)
    report = ingest(loaded_copy, [real_corpus_path("indiacode", "sections_fulltext_subset.jsonl")])
    assert report.totals()["updated"] == 0 and report.totals()["added"] == 0
    after = loaded_copy.get_sections(keys)
    assert after == before and after["BNS:114"].has_text
    assert "twenty-four hours" in (after["BNSS:58"].text or "")
    assert after["NIA:139"].in_force_from == "1989-04-01" and after["BNS:106"].not_in_force == ("2",)
    assert (after["ITA:66A"].in_force_from, after["ITA:66A"].in_force_to) == ("2009-10-27", "2015-03-24")


def test_generic_file_cannot_take_over_an_existing_act(empty_store: FalkorGraphStore, tmp_path: Path) -> None:
    ingest(empty_store, [write_jsonl(tmp_path / "a.jsonl", base_records())])
    report = ingest(empty_store, [write_jsonl(tmp_path / "b.jsonl", [
        {"record": "act", "code": "ipc", "title": "Indian Ports Corporation Act"},
        {"record": "act", "code": "NEWX", "title": "Some Act", "aliases": ["I.P.C."]},
        {"record": "act", "code": "IPC", "title": "The Indian Penal Code, 1860", "in_force_from": "1862-01-01",
         "in_force_to": "2024-07-01", "aliases": ["I.P.C.", "Indian Penal Code", "Penal Code"]},
    ])])
    reasons = {r.line: r.reason for r in report.rejects}
    assert reasons[1] == "act code 'IPC' already names 'The Indian Penal Code, 1860'; choose another code"
    assert reasons[2] == "'I.P.C.' already names IPC; an alias may name only one Act"
    assert 3 not in reasons  # updating an Act under its own title is allowed
    acts = {a.code: a for a in empty_store.all_acts()}
    assert acts["IPC"].title == "The Indian Penal Code, 1860" and "NEWX" not in acts


def test_generic_edges_must_point_at_existing_sections(empty_store: FalkorGraphStore, tmp_path: Path) -> None:
    ingest(empty_store, [write_jsonl(tmp_path / "a.jsonl", base_records())])
    report = ingest(empty_store, [write_jsonl(tmp_path / "b.jsonl", [
        {"record": "replacement", "old_act": "IPC", "old_section": "9999", "new_act": "BNS", "new_section": "103(1)"},
        {"record": "replacement", "old_act": "IPC", "old_section": "302", "new_act": "BNS", "new_section": "999"},
        {"record": "replacement", "old_act": "IPC", "old_section": "302", "new_act": "BNS", "new_section": "103(7)"},
        {"record": "replacement", "old_act": "IPC", "old_section": "302", "new_act": "BNS", "new_section": "103(1)",
         "relation": "same"},
        {"record": "amendment", "act": "IPC", "section": "9999", "kind": "omitted"},
        {"record": "amendment", "act": "IPC", "section": "302", "kind": "substituted", "text": "a"},
        {"record": "amendment", "act": "IPC", "section": "302", "kind": "substituted", "text": "b"},
    ])])
    assert {r.line for r in report.rejects} == {1, 2, 3, 5}
    assert report.totals()["added"] == 3  # one edge, two amendments (not collapsed into one key)
    rec = empty_store.get_section("IPC", "302")
    assert rec is not None and [p.section for p in rec.successors] == ["103(1)"] and len(rec.amendments) == 2


def test_non_utf8_line_is_rejected_not_a_crash(empty_store: FalkorGraphStore, tmp_path: Path) -> None:
    path = tmp_path / "latin1.jsonl"
    good = json.dumps(base_records()[0]).encode()
    path.write_bytes(good + b"\n" + b'{"act": "IPC", "section": "1", "title": "\xff"}\n')
    report = ingest(empty_store, [path])
    assert [(r.line, r.reason) for r in report.rejects] == [(2, "not UTF-8 text (byte 42)")]
    assert report.totals()["added"] == 1
