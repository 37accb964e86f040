"""The ``legal-rag`` command as a user runs it (subprocess, real embedded server)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import run_cli

pytestmark = pytest.mark.integration


@pytest.fixture
def env(cli_env: dict[str, str]) -> dict[str, str]:
    return cli_env


def test_section_json(env: dict[str, str]) -> None:
    p = run_cli(env, "section", "Indian Penal Code", "302", "--as-of", "2025-01-01", "--json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    for field in (
        "found",
        "act",
        "act_title",
        "section",
        "title",
        "status_on_date",
        "as_of",
        "in_force_from",
        "in_force_to",
        "successors",
        "predecessors",
        "text",
    ):
        assert field in d
    assert (d["found"], d["act"], d["status_on_date"]) == (True, "IPC", "repealed")
    assert d["successors"][0] == {
        "act": "BNS",
        "section": "103(1)",
        "relation": "same",
        "note": "No Change, except IPC section is included as subsection in BNS.",
        "from": "302",
    }


def test_section_human_output_and_not_found_exit_code(env: dict[str, str]) -> None:
    p = run_cli(env, "section", "IPC", "302", "--as-of", "2025-01-01")
    assert p.returncode == 0
    assert "repealed" in p.stdout and "BNS s.103(1) [same]" in p.stdout
    missing = run_cli(env, "section", "BNS", "377")
    assert missing.returncode == 1
    assert "BNS has no section 377" in missing.stdout


def test_section_stdin_stream_keeps_order_and_reports_bad_lines(env: dict[str, str]) -> None:
    lines = [
        {"act": "IPC", "section": "302", "as_of": "2023-05-01"},
        {"act": "BNS", "section": "377"},
        "this is not json",
        {"act": "Cr.P.C.", "section": "438", "as_of": "2024-08-01"},
        {"act": "IPC"},
        {"act": "HMA", "section": "13(1)(ia)", "as_of": "not-a-date"},
    ]
    stdin = "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n"
    p = run_cli(env, "section", "-", stdin=stdin)
    assert p.returncode == 0, p.stderr
    out = [json.loads(x) for x in p.stdout.splitlines()]
    assert len(out) == 6
    assert (out[0]["found"], out[0]["status_on_date"]) == (True, "in_force")
    assert out[1]["found"] is False
    assert out[2]["found"] is None and "bad input line" in out[2]["error"] and out[2]["line"] == 3
    assert set(out[2]) >= {"act", "section", "status_on_date", "successors", "predecessors", "text"}
    assert out[3]["successors"][0]["section"] == "482"
    assert 'needs "act"' in out[4]["error"]
    assert "must be a real date as YYYY-MM-DD" in out[5]["error"]


def test_ingest_unchanged_and_bad_path(env: dict[str, str], tmp_path: Path) -> None:
    src = tmp_path / "one.jsonl"
    src.write_text(
        json.dumps(
            {
                "act": "BNS",
                "section": "103",
                "title": "Punishment for murder.",
                "text": "(1) Whoever commits murder ...",
            }
        )
        + "\n"
    )
    env = {**env, "LEGAL_RAG_GRAPH__GRAPH_NAME": "cli_ingest"}
    first = run_cli(env, "ingest", "--no-index", str(src))
    assert first.returncode == 0
    assert "unknown Act 'BNS'" in first.stderr  # empty graph: BNS is not defined there
    missing = run_cli(env, "ingest", str(tmp_path / "nope.jsonl"))
    assert missing.returncode == 2 and "no such file" in missing.stderr
    strict = run_cli(env, "ingest", "--no-index", "--strict", str(src))
    assert strict.returncode == 2 and "nothing written" in strict.stderr


def test_unreachable_graph_is_reported_as_unchecked(env: dict[str, str], tmp_path: Path) -> None:
    env = {**env, "LEGAL_RAG_GRAPH__BACKEND": "falkordb", "LEGAL_RAG_GRAPH__FALKORDB_PORT": "1"}
    p = run_cli(env, "section", "IPC", "302")
    assert p.returncode == 3
    assert "nothing could be checked" in p.stderr


def test_first_lookup_on_an_empty_graph_loads_the_default_corpus(env: dict[str, str], tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "mini.jsonl").write_text(
        "\n".join(
            json.dumps(r)
            for r in [
                {
                    "record": "act",
                    "code": "HMA",
                    "title": "The Hindu Marriage Act, 1955",
                    "in_force_from": "1955-05-18",
                },
                {
                    "act": "HMA",
                    "section": "13B",
                    "title": "Divorce by mutual consent.",
                    "text": "(1) Subject to the provisions of this Act a petition for dissolution of marriage ...",
                },
            ]
        )
        + "\n"
    )
    env = {**env, "LEGAL_RAG_GRAPH__GRAPH_NAME": "first_run", "LEGAL_RAG_CORPUS_DIR": str(corpus)}
    p = run_cli(env, "section", "Hindu Marriage Act, 1955", "13B", "--json")
    assert p.returncode == 0, p.stderr
    assert "first run" in p.stderr
    assert json.loads(p.stdout)["title"] == "Divorce by mutual consent."


def _acts_file(path: Path, n: int, changed: int | None = None) -> None:
    """``n`` small Acts of one section each; Act number ``changed`` gets an amended text."""
    rows: list[dict[str, object]] = []
    for i in range(n):
        code = f"TA{chr(65 + i // 26)}{chr(65 + i % 26)}"
        text = "(1) No order for the recovery of possession of any premises shall be made against a tenant."
        rows.append({"record": "act", "code": code, "title": f"The Tenancy Act No. {i + 1}, 1999"})
        rows.append({"act": code, "section": "27", "title": "Recovery of possession",
                     "text": text + (" (2) Inserted by amendment." if i == changed else "")})
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")


def test_ingest_summary_lists_changed_acts_progress_lines_and_empty_files(env: dict[str, str], tmp_path: Path) -> None:
    env = {**env, "LEGAL_RAG_GRAPH__GRAPH_NAME": "cli_summary"}
    src, empty = tmp_path / "acts.jsonl", tmp_path / "empty.jsonl"
    _acts_file(src, 30)
    empty.write_text("\n", encoding="utf-8")
    first = run_cli(env, "ingest", "--no-index", str(src))
    assert first.returncode == 0, first.stderr
    # stderr is a pipe, not a terminal: plain progress lines, the last one complete
    assert re.search(r"^writing records: (\d+)/\1 \(100%\)", first.stderr, re.M), first.stderr
    # every Act was added: the table is capped, the totals line says it all
    assert "TAAA" in first.stdout and "TABD" not in first.stdout
    assert "... and 5 more Acts added or updated" in first.stdout
    assert "30 Acts: 60 added, 0 updated, 0 unchanged, 0 rejected" in first.stdout

    _acts_file(src, 30, changed=7)
    second = run_cli(env, "ingest", "--no-index", str(src), str(empty))
    assert second.returncode == 0, second.stderr
    assert f"empty input: {empty} holds no records" in " ".join(second.stderr.split())
    assert re.findall(r"^│ (TA\w+)", second.stdout, re.M) == ["TAAH"], second.stdout
    assert "1 updated, 59 unchanged" in second.stdout

    verbose = run_cli(env, "ingest", "--no-index", "--verbose", str(src))
    assert len(re.findall(r"^│ (TA\w+)", verbose.stdout, re.M)) == 30
    assert "unchanged: nothing written" in verbose.stdout
    as_json = run_cli(env, "ingest", "--no-index", "--json", str(src), str(empty))
    doc = json.loads(as_json.stdout)
    assert len(doc["per_act"]) == 30 and doc["empty_files"] == [str(empty)]
    assert "writing records" not in as_json.stderr, "--json runs quietly"
