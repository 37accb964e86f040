"""``legal-rag eval answers`` as a user runs it: labelled questions through the real workflow on the real
graph and index, the JSON report, the report directory, and clear errors for bad label files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli

pytestmark = [pytest.mark.integration, pytest.mark.slow]

QUESTIONS = [
    {"id": "t1", "question": "What is the punishment for extortion?", "as_of": "2025-03-01",
     "expect_cited": [["BNS", "308"]], "expect_flagged": [], "complexity": "SIMPLE", "split": "dev"},
    {"id": "t2", "question": "Under section 420 IPC, what is the punishment for cheating?", "as_of": "2025-02-01",
     "expect_cited": [["BNS", "318"]], "expect_flagged": [["Indian Penal Code", "420"]], "complexity": "STANDARD",
     "split": "heldout"},
    {"id": "t3", "question": "A murder trial under section 302 IPC that began in 2022 is still pending in 2025. "
     "Which law governs the trial?", "as_of": "2025-02-01", "expect_cited": [["BNSS", "531"]],
     "complexity": "COMPLEX", "split": "heldout"},
]  # fmt: skip


def test_eval_answers_scores_the_workflow_and_writes_a_report(cli_env: dict[str, str], tmp_path: Path) -> None:
    qfile = tmp_path / "q.jsonl"
    qfile.write_text("\n".join(json.dumps(q) for q in QUESTIONS) + "\n", encoding="utf-8")
    p = run_cli(cli_env, "eval", "answers", "--questions", str(qfile), "--json", "--out", str(tmp_path / "rep"))
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert "NaN" not in p.stdout
    by_id = {q["id"]: q for q in doc["questions"]}
    assert by_id["t1"]["fully_right"] and by_id["t1"]["expected_verified"] == ["BNS 308"]
    assert by_id["t2"]["flags_raised"] == ["IPC 420"] and by_id["t2"]["fully_right"]
    assert by_id["t3"]["expected_verified"] == ["BNSS 531"]  # the savings provision of a pending trial
    overall = doc["overall"]
    assert overall["questions"] == 3 and overall["fully_right"] == 3 and overall["auroc"] is None  # no wrong answer
    assert set(doc["by_split"]) == {"dev", "heldout"} and overall["latency_ms_p50"] > 0
    for key in ("citation_recall", "citation_precision", "flag_accuracy", "unsupported_claim_rate", "ece",
                "latency_ms_p95", "input_tokens", "output_tokens", "cost_usd"):
        assert key in overall
    assert sorted(x.name for x in (tmp_path / "rep").iterdir()) == ["reliability.svg", "report.json", "report.md"]


def test_eval_answers_names_the_bad_line(cli_env: dict[str, str], tmp_path: Path) -> None:
    qfile = tmp_path / "bad.jsonl"
    qfile.write_text(json.dumps(QUESTIONS[0]) + "\n" + json.dumps({**QUESTIONS[1], "expect_cited": [["XYZ", "1"]]})
                     + "\n", encoding="utf-8")
    p = run_cli(cli_env, "eval", "answers", "--questions", str(qfile))
    assert p.returncode == 2 and "bad.jsonl:2" in p.stderr and "unknown Act 'XYZ'" in p.stderr
    p = run_cli(cli_env, "eval", "answers", "--questions", str(tmp_path / "missing.jsonl"))
    assert p.returncode == 2 and "missing.jsonl" in p.stderr


def test_a_scored_set_is_never_answered_from_its_own_questions(cli_env: dict[str, str], tmp_path: Path) -> None:
    """A question asked before, cited to a provision its words share nothing with, brings that provision to an
    ``ask`` of the same words; ``eval answers`` of a set holding it leaves it out, by its set's name or by its text."""
    question = ("Our housing society secretary keeps the share certificate of my flat locked in his cupboard and says "
                "he will hand it over only after I pay him a private fee of ten thousand rupees")
    asked = tmp_path / "asked.jsonl"
    asked.write_text(json.dumps({"id": "t1", "from": "t.jsonl", "question": question, "cited": [["BNS", "316"]]})
                     + "\n", encoding="utf-8")
    env = {**cli_env, "LEGAL_RAG_RETRIEVAL__ASKED": str(asked)}
    p = run_cli(env, "ask", question, "--json")
    assert p.returncode == 0, p.stderr
    assert "316" in {c["section"].split("(")[0] for c in json.loads(p.stdout)["citations"] if c["act"] == "BNS"}
    row = {"id": "t1", "question": question, "expect_cited": [["BNS", "316"]], "expect_flagged": []}
    for name in ("t.jsonl", "renamed.jsonl"):  # by the set's name; by the question, whatever the file is called
        qfile = tmp_path / name
        qfile.write_text(json.dumps(row) + "\n", encoding="utf-8")
        p = run_cli(env, "eval", "answers", "--questions", str(qfile), "--json")
        assert p.returncode == 0, p.stderr
        assert json.loads(p.stdout)["questions"][0]["missing"] == ["BNS 316"]
