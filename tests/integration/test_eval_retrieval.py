"""``legal-rag eval retrieval``: metrics by hand, bad input, and the AILA 2019 training queries."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from legal_rag.retrieval.evaluate import score_run
from tests.conftest import run_cli

AILA = Path(__file__).resolve().parents[1] / "data" / "aila2019-train"


def test_metrics_match_a_hand_computed_run() -> None:
    qrels = {"q": {"a": 1, "b": 2, "c": 0, "z": 1}}  # z is relevant but never retrieved
    run = {"q": ["x", "a", "c", "b"]}
    got = score_run(run, qrels, k=10)
    assert got["map"] == round((1 / 2 + 2 / 4) / 3, 4)
    assert got["mrr"] == 0.5
    assert got["p@10"] == 0.2
    assert got["recall@10"] == round(2 / 3, 4)
    dcg = 1 / 1.584962500721156 + 3 / 2.321928094887362
    idcg = 3 / 1 + 1 / 1.584962500721156 + 1 / 2
    assert got["ndcg@10"] == round(dcg / idcg, 4)


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "LEGAL_RAG_STATE_DIR": str(tmp_path / "state"), "PYTHONPATH": str(Path.cwd())}


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("qrels.txt", "AILA_Q1 Q0 S1\n", "expected 'qid Q0 docid rel'"),
        ("corpus.jsonl", '{"title": "no id", "text": "x"}\n', "need string 'id' and 'text'"),
        ("queries.jsonl", "{not json\n", "malformed JSON"),
    ],
)
def test_bad_input_is_named_with_file_and_line(tmp_path: Path, name: str, content: str, message: str) -> None:
    files = {n: AILA / n for n in ("corpus.jsonl", "queries.jsonl", "qrels.txt")}
    files[name] = tmp_path / name
    files[name].write_text(content, encoding="utf-8")
    r = run_cli(_env(tmp_path), "eval", "retrieval", "--corpus", str(files["corpus.jsonl"]),
                "--queries", str(files["queries.jsonl"]), "--qrels", str(files["qrels.txt"]), "--json")
    assert r.returncode == 2
    assert f"{files[name]}:1" in r.stderr and message in r.stderr


@pytest.mark.integration
@pytest.mark.slow
def test_aila_hybrid_beats_bm25_and_dense_on_map(tmp_path: Path) -> None:
    r = run_cli(_env(tmp_path), "eval", "retrieval", "--corpus", str(AILA / "corpus.jsonl"),
                "--queries", str(AILA / "queries.jsonl"), "--qrels", str(AILA / "qrels.txt"), "--json",
                "--cv", "10", timeout=900)  # it embeds the AILA corpus: ~60 s of CPU, longer on a loaded machine
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout)
    assert result["queries"] == 10
    methods = result["methods"]
    assert set(methods) == {"bm25", "dense", "hybrid"}
    for scores in methods.values():
        assert set(scores) == {"map", "mrr", "p@10", "recall@10", "recall@100", "ndcg@10"}
    sys.stderr.write(json.dumps(methods) + "\n")
    assert methods["hybrid"]["map"] > max(methods["bm25"]["map"], methods["dense"]["map"]), methods
    # Leave one query out: each candidate's weights chosen on the other nine. The configured fusion and the
    # offence weight tuned per fold both hold 1.5x BM25 on the held-out queries (issue 13's target).
    cv = result["cv"]
    assert len(cv["folds"]) == 10 and all(len(f["queries"]) == 1 for f in cv["folds"])
    mean = cv["mean"]
    sys.stderr.write(json.dumps(mean) + "\n")
    assert abs(mean["configured"]["hybrid"] - methods["hybrid"]["map"]) < 2e-4  # nothing tuned: its plain mean
    assert mean["configured"]["ratio"] >= 1.5 and mean["mm 1:2 off w"]["ratio"] >= 1.5, mean
    assert mean["mm 1:2 off w"]["hybrid"] > mean["mm 1:2"]["hybrid"], mean  # the offence channel earns its place
    assert not (tmp_path / "state" / "index").exists()  # a temporary index, not the main one
