"""Rejects of the generic format: every problem of a line, each with its field and column, in a file
named as the user named it (real statute text: IPC s. 302 and s. 420 under a test code)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graph_schema.errors import IngestError
from ingestion.sources.generic import read_generic

MURDER = ("Whoever commits murder shall be punished with death, or imprisonment for life, and shall also be "
          "liable to fine.")
CHEATING = ("Whoever cheats and thereby dishonestly induces the person deceived to deliver any property to any person, "
            "shall be punished with imprisonment of either description for a term which may extend to seven years, "
            "and shall also be liable to fine.")
ACT = json.dumps({"record": "act", "code": "TPC", "title": "The Test Penal Code, 1860", "year": 1860})


def _resolve(name: str) -> str:
    raise IngestError(f"unknown Act {name!r}")


def col(line: str, key: str) -> int:
    return line.index(f'"{key}"') + 1


# line (after the Act on line 1) -> the fields at fault, in column order
CASES = [
    (json.dumps({"act": "TPC", "section": "302", "text": MURDER, "status": "active", "in_force_from": "1860-13-06"}),
     ["status", "in_force_from"]),
    (json.dumps({"act": "TPC", "section": "420", "in_force_from": "1862-01-01", "in_force_to": "1860-10-06",
                 "text": CHEATING, "title": 420}),
     ["in_force_to", "title"]),
    (json.dumps({"act": "NOPE", "section": "", "text": MURDER, "status": 5}), ["act", "section", "status"]),
    (json.dumps({"record": "act", "code": "T-P", "title": "", "year": "MDCCCLX", "in_force_from": "x"}),
     ["code", "title", "year", "in_force_from"]),
    (json.dumps({"record": "amendment", "act": "TPC", "section": "302", "kind": "rewritten", "effective": "soon"}),
     ["kind", "effective"]),
]


@pytest.mark.parametrize(("line", "fields"), CASES)
def test_every_problem_of_a_line_is_listed_with_its_column(tmp_path: Path, line: str, fields: list[str]) -> None:
    path = tmp_path / "my_state_acts.jsonl"
    path.write_text(ACT + "\n" + line + "\n", encoding="utf-8")
    parsed = read_generic(path, _resolve)
    assert [a.code for a in parsed.acts] == ["TPC"]
    (reject,) = parsed.rejects
    assert (reject.file, reject.line) == ("my_state_acts.jsonl", 2)
    assert [p.field for p in reject.problems] == fields
    assert [p.column for p in reject.problems] == [col(line, f) for f in fields]
    assert reject.column == col(line, fields[0])
    assert reject.reason == "; ".join(p.reason for p in reject.problems)
    assert str(reject).startswith(f"my_state_acts.jsonl:2:{reject.column}: ")


def test_malformed_json_is_placed_where_parsing_failed_and_a_bom_is_not_data(tmp_path: Path) -> None:
    broken = '{"act": "TPC", "section": "302" "text": "' + MURDER + '"}'
    path = tmp_path / "acts.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + (ACT + "\n" + broken + "\n[1, 2]\n").encode())
    parsed = read_generic(path, _resolve)
    assert [a.code for a in parsed.acts] == ["TPC"]  # line 1 loads despite the byte-order mark
    bad, array = parsed.rejects
    assert (bad.line, bad.column) == (2, broken.index('"text"') + 1)
    assert "Expecting ',' delimiter" in bad.reason
    assert (array.line, array.column, array.reason) == (3, 1, "expected a JSON object, got list")
