"""Flags that improve the product, as its users run it: answers are stored and flagged (here by the rule-based
paralegal), an admin accepts the flags, ``legal-rag finetune train`` trains the relevance model from labelled
questions plus those flags and writes it as a new version with its card, and the product answers with it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from legal_rag.records import SYSTEM, Records
from legal_rag.settings import PROJECT_ROOT
from tests.conftest import run_cli

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def _questions(tmp_path: Path) -> Path:
    rows = [json.loads(line) for line in (PROJECT_ROOT / "data" / "eval" / "questions.jsonl").read_text().splitlines()]
    dev = [r for r in rows if r.get("split") == "dev"][:10]
    held = [r for r in rows if r.get("split") == "heldout"][:1]
    path = tmp_path / "q.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in dev + held), encoding="utf-8")
    return path


def test_accepted_flags_train_a_new_model_version_the_product_answers_with(
    cli_env: dict[str, str], tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'records.sqlite3'}"
    env = {**cli_env, "LEGAL_RAG_DATABASE_URL": db}
    questions = _questions(tmp_path)

    p = run_cli(env, "eval", "simulate-paralegal", "--questions", str(questions), "--json", timeout=600)
    assert p.returncode == 0, p.stderr
    sim = json.loads(p.stdout)
    assert sim["questions"] == 10  # the held-out row is never asked
    assert sim["flags"] > 0
    with Records(db) as records:
        flags = records.flags.export(SYSTEM, label="wrong_provision", status="accepted")
        assert len(flags) == sim["flags"]
        assert all(f.key_name == "simulated-paralegal" and f.reviewed_by == "system" for f in flags)

    models = tmp_path / "models"
    p = run_cli(env, "finetune", "train", "--questions", str(questions), "--out", str(models), "--json",
                timeout=600)
    assert p.returncode == 0, p.stderr
    card = json.loads(p.stdout)
    assert card["path"] == str(models / "relevance-v1.json") and card["version"] == 1
    assert card["questions"] == 10
    assert card["flags"]["accepted"] == sim["flags"]
    assert card["flags"]["used"] == sim["flags"] - len(card["flags"]["skipped"])
    assert card["flag_examples"]["not_relevant"] > 0 and card["flag_examples"]["relevant"] == 0
    assert "LEGAL_RAG_WORKFLOW__RELEVANCE_MODEL=" in p.stderr

    # the next run is the next version; the first is left as it was
    first = (models / "relevance-v1.json").read_bytes()
    p = run_cli(env, "finetune", "train", "--questions", str(questions), "--out", str(models), "--json",
                timeout=600)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["version"] == 2 and (models / "relevance-v1.json").read_bytes() == first

    # the product switches to it by its setting, and the list of versions says which one it answers with
    answer_env = {**env, "LEGAL_RAG_WORKFLOW__RELEVANCE_MODEL": str(models / "relevance-v2.json")}
    p = run_cli(answer_env, "finetune", "models", "--dir", str(models), "--json")
    assert p.returncode == 0, p.stderr
    listed = [json.loads(line) for line in p.stdout.splitlines()]
    assert [(m["version"], m["active"], m["flags_used"]) for m in listed] == [
        (1, False, card["flags"]["used"]), (2, True, card["flags"]["used"])]
    p = run_cli(answer_env, "ask", "What is the punishment for extortion?", "--json")
    assert p.returncode == 0, p.stderr
    assert any(c["act"] == "BNS" and c["section"].startswith("308") for c in json.loads(p.stdout)["citations"])
    # ... and reads that file to answer: a model that cannot be read stops the answer, naming it
    (tmp_path / "broken.json").write_text("{")
    p = run_cli({**env, "LEGAL_RAG_WORKFLOW__RELEVANCE_MODEL": str(tmp_path / "broken.json")}, "ask",
                "What is the punishment for extortion?")
    assert p.returncode != 0 and "broken.json cannot be read" in p.stderr


def test_training_refuses_a_sealed_set_and_a_label_that_names_no_provision(
    cli_env: dict[str, str], tmp_path: Path
) -> None:
    env = {**cli_env, "LEGAL_RAG_DATABASE_URL": f"sqlite:///{tmp_path / 'records.sqlite3'}"}
    sealed = tmp_path / "sealed_x.jsonl"
    sealed.write_text((PROJECT_ROOT / "data" / "eval" / "questions.jsonl").read_text().splitlines()[0] + "\n")
    p = run_cli(env, "finetune", "train", "--questions", str(sealed), "--out", str(tmp_path / "m"))
    assert p.returncode == 2 and "sealed_x.jsonl is sealed" in p.stderr
    p = run_cli(env, "finetune", "train", "--label", "misquote", "--out", str(tmp_path / "m"))
    assert p.returncode == 2 and "flag label 'misquote' does not say" in p.stderr
    p = run_cli(env, "eval", "simulate-paralegal", "--questions", str(sealed))
    assert p.returncode == 2 and "is sealed" in p.stderr
    assert not (tmp_path / "m").exists()
    # --out naming a file that is not a model
    (tmp_path / "notes.txt").write_text("mine")
    p = run_cli(env, "finetune", "train", "--out", str(tmp_path / "notes.txt"))
    assert p.returncode == 2 and "is a file but not a .json model" in p.stderr
    assert (tmp_path / "notes.txt").read_text() == "mine"
    # a split that is neither development nor held-out
    odd = tmp_path / "odd.jsonl"
    row = json.loads((PROJECT_ROOT / "data" / "eval" / "questions.jsonl").read_text().splitlines()[0])
    odd.write_text(json.dumps({**row, "split": "held-out"}) + "\n")
    p = run_cli(env, "finetune", "train", "--questions", str(odd), "--out", str(tmp_path / "m"))
    assert p.returncode == 2 and "split 'held-out' is neither a development split" in p.stderr
    # the simulated paralegal never writes into a store that holds real users' answers
    with Records(env["LEGAL_RAG_DATABASE_URL"]) as records:
        records.answers.add({"question": "q", "as_of": "2025-01-01", "answer": "a", "generator": "extractive"},
                            key_name="asha")
    dev = tmp_path / "dev.jsonl"  # a development row: a held-out row relabelled "dev" is still left out, by its text
    rows = [json.loads(line) for line in (PROJECT_ROOT / "data" / "eval" / "questions.jsonl").read_text().splitlines()]
    dev.write_text(json.dumps(next(r for r in rows if r.get("split") == "dev")) + "\n")
    p = run_cli(env, "eval", "simulate-paralegal", "--questions", str(dev))
    assert p.returncode == 2 and "holds 1 answers of real keys" in p.stderr
    with Records(env["LEGAL_RAG_DATABASE_URL"]) as records:
        assert records.answers.count() == 1  # nothing asked, nothing stored



def test_a_held_out_question_relabelled_for_development_never_trains(cli_env: dict[str, str], tmp_path: Path) -> None:
    env = {**cli_env, "LEGAL_RAG_DATABASE_URL": f"sqlite:///{tmp_path / 'records.sqlite3'}"}
    rows = [json.loads(line) for line in (PROJECT_ROOT / "data" / "eval" / "questions.jsonl").read_text().splitlines()]
    held = tmp_path / "mine.jsonl"
    held.write_text(json.dumps({**next(r for r in rows if r.get("split") == "heldout"), "split": "dev"}) + "\n")
    p = run_cli(env, "eval", "simulate-paralegal", "--questions", str(held))
    assert p.returncode == 2 and "no development question" in p.stderr
