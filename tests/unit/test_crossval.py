"""Cross-validation of fusion settings, on the AILA 2019 training judgements with runs whose AP is known.

A "perfect" run ranks a query's relevant statutes first (AP 1); a "blind" one ranks only statutes judged
not relevant (AP 0). That makes every fold's held-out MAP computable by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from legal_rag.retrieval.build import fusion_config
from legal_rag.retrieval.crossval import Candidate, cross_validate, default_candidates, describe, folds
from legal_rag.retrieval.evaluate import QueryRuns, load_eval_set
from legal_rag.retrieval.hybrid import Fusion, FusionConfig
from legal_rag.retrieval.types import Hit
from legal_rag.settings import RetrievalSettings, Settings

AILA = Path(__file__).resolve().parents[1] / "data" / "aila2019-train"
ES = load_eval_set(AILA / "corpus.jsonl", AILA / "queries.jsonl", AILA / "qrels.txt")
QUERIES = ["AILA_Q1", "AILA_Q2", "AILA_Q3", "AILA_Q4"]
QRELS = {q: ES.qrels[q] for q in QUERIES}


def perfect(qid: str) -> list[Hit]:
    relevant = [d for d, r in ES.qrels[qid].items() if r > 0]
    return [Hit(d, 1.0 - i / 100) for i, d in enumerate(relevant)]


def blind(qid: str) -> list[Hit]:
    judged_out = [d for d, r in ES.qrels[qid].items() if r == 0][:20]
    return [Hit(d, 1.0 - i / 100) for i, d in enumerate(judged_out)]


def only(run: str) -> FusionConfig:
    # long_weights=None: the AILA queries are long, and these weights must hold for them too
    return FusionConfig(method=Fusion.MINMAX, weights={run: 1.0}, long_weights=None)


# BM25 is perfect on Q1 and Q2, dense on Q3 and Q4: each run alone has MAP 0.5 over the four.
RUNS: QueryRuns = {
    q: {"bm25": perfect(q) if q in QUERIES[:2] else blind(q), "dense": blind(q) if q in QUERIES[:2] else perfect(q)}
    for q in QUERIES
}


def test_folds_leave_one_out_or_deal_round_robin() -> None:
    assert folds(QUERIES, 10) == [(q,) for q in QUERIES]
    assert folds(QUERIES, 2) == [("AILA_Q1", "AILA_Q3"), ("AILA_Q2", "AILA_Q4")]
    with pytest.raises(ValueError, match="at least two folds"):
        folds(QUERIES, 1)


def test_a_knob_is_chosen_without_the_held_out_query() -> None:
    fixed = Candidate("bm25 only", (only("bm25"),))
    tuned = Candidate("bm25 or dense", (only("bm25"), only("dense")))
    report = cross_validate(RUNS, ES.queries, QRELS, [fixed, tuned], k=4)
    assert report.bm25 == report.hybrid("bm25 only") == 0.5  # nothing tuned: its mean
    assert report.ratio("bm25 only") == 1.0
    # Holding out Q1, the other three favour dense (2 to 1), which scores 0 on Q1; and so on for each
    # fold: both settings score 0.5 on all four queries, but choosing between them is worth nothing.
    assert [describe(f.chosen["bm25 or dense"]) for f in report.folds] == [
        "minmax dense=1", "minmax dense=1", "minmax bm25=1", "minmax bm25=1"]  # fmt: skip
    assert report.hybrid("bm25 or dense") == 0.0
    assert [f.bm25 for f in report.folds] == [1.0, 1.0, 0.0, 0.0]


def test_ties_go_to_the_simpler_setting_listed_first() -> None:
    # Holding out Q1 and Q3 (two folds), the training half has one query of each kind: a tie.
    report = cross_validate(RUNS, ES.queries, QRELS, [Candidate("either", (only("dense"), only("bm25")))], k=2)
    assert [describe(f.chosen["either"]) for f in report.folds] == ["minmax dense=1", "minmax dense=1"]
    assert report.hybrid("either") == 0.5
    d = report.as_dict()
    assert d["mean"] == {"either": {"bm25": 0.5, "hybrid": 0.5, "ratio": 1.0}}


def test_default_candidates_keep_the_question_weights_and_lead_with_the_configured_one() -> None:
    base = FusionConfig()
    candidates = default_candidates(base)
    assert candidates[0].grid == (base,)
    assert len({c.name for c in candidates}) == len(candidates)
    for c in candidates:
        assert all(g.weights == base.weights and g.long_query_words == base.long_query_words for g in c.grid)


def test_the_product_settings_are_the_cross_validated_defaults() -> None:
    assert fusion_config(Settings(retrieval=RetrievalSettings())) == FusionConfig()
