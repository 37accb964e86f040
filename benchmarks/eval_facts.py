"""Quality benchmark: facts -> statutes and facts -> offences, hybrid against BM25 baselines in the same run.

Run: ``python benchmarks/eval_facts.py [--cv 10] [--state-dir DIR] [--json]`` (about 3 minutes on 2 cores
with a state dir; building the corpus graph and index from scratch adds a few minutes).

1. Facts -> statutes, the AILA 2019 training queries (``tests/data/aila2019-train``, 10 fact descriptions,
   197 anonymised statutes) in a temporary index: MAP of the product's hybrid against two baselines
   run on the same queries: our BM25 (the index's own, passages, best passage per statute) and plain
   Okapi BM25 (``rank-bm25``, lower-cased words, whole statutes: the baseline the held-out figures of
   issue 13 were measured against). Then ``--cv`` folds of cross-validation over the fusion candidates
   (``legal_rag.retrieval.crossval``): the mean held-out-fold MAP and its ratio to BM25 on the same folds.
2. Facts -> offences over the whole statute index: the same queries' IPC gold (anonymised statutes
   recognised as IPC sections), found as the IPC section or its BNS successor in the top 10, for the
   hybrid with and without the offence channel, against BM25 over the IPC's sections alone.

Ten queries are few: a difference of a query or two moves MAP by 0.02-0.05. Read the ratios, and the
cross-validated ones before the in-sample ones.
"""

from __future__ import annotations

import argparse
import json
import re
from dataclasses import replace
from pathlib import Path

from rank_bm25 import BM25Okapi
from support import scratch_graph

from graph_schema.store import GraphReader
from legal_rag.retrieval.build import build_retriever, embedder, fusion_config, open_index, sync_from_graph
from legal_rag.retrieval.crossval import cross_validate, default_candidates
from legal_rag.retrieval.evaluate import EvalSet, doc_runs, evaluate, load_eval_set, score_run
from legal_rag.retrieval.index import ChunkIndex
from legal_rag.retrieval.offence_eval import evaluate_offences, ipc_sections, offence_gold
from legal_rag.settings import PROJECT_ROOT, Settings

AILA = PROJECT_ROOT / "tests" / "data" / "aila2019-train"
IPC_JSON = PROJECT_ROOT / "data" / "corpus" / "legacy" / "ipc.json"


def okapi_map(es: EvalSet) -> float:
    """MAP of plain Okapi BM25 (rank-bm25, k1=1.5, b=0.75) over whole statutes, lower-cased words."""
    ids = list(es.docs)
    words = re.compile(r"\w+")
    bm25 = BM25Okapi([words.findall(f"{t} {x}".lower()) for t, x in es.docs.values()])
    run = {}
    for qid in es.qrels:
        scores = bm25.get_scores(words.findall(es.queries[qid].lower()))
        run[qid] = [ids[i] for i in sorted(range(len(ids)), key=lambda i: -scores[i])[:100]]
    return score_run(run, es.qrels)["map"]


def statutes(settings: Settings, folds: int) -> dict[str, object]:
    es = load_eval_set(AILA / "corpus.jsonl", AILA / "queries.jsonl", AILA / "qrels.txt")
    emb = embedder(settings)
    fusion = fusion_config(settings)
    runs = doc_runs(es, lambda d: open_index(settings, d, emb))
    result = evaluate(es, lambda d: open_index(settings, d, emb), fusion=fusion, runs=runs)
    maps = {m: s["map"] for m, s in result["methods"].items()}  # type: ignore[attr-defined]
    maps["offence_alone"] = result["alternatives"]["offence"]["map"]  # type: ignore[index]
    maps["okapi_plain"] = okapi_map(es)
    cv = cross_validate(runs, es.queries, es.qrels, default_candidates(fusion), folds)
    return {
        "map": maps,
        "hybrid_over_bm25": round(maps["hybrid"] / maps["bm25"], 2),
        "hybrid_over_okapi_plain": round(maps["hybrid"] / maps["okapi_plain"], 2),
        f"cv{folds}": cv.as_dict()["mean"],
    }


def offences(settings: Settings, index: ChunkIndex, graph: GraphReader) -> dict[str, object]:
    es = load_eval_set(AILA / "corpus.jsonl", AILA / "queries.jsonl", AILA / "qrels.txt")
    gold = offence_gold(es, ipc_sections(es.docs, json.loads(IPC_JSON.read_text(encoding="utf-8"))))
    retriever = build_retriever(settings, index, graph)
    cfg = retriever.fusion
    variants = {"hybrid": cfg, "hybrid_no_offence": replace(cfg, long_weights={**(cfg.long_weights or {}),
                                                                                "offence": 0.0})}
    result = evaluate_offences(retriever, es.queries, gold, variants)
    d = result.as_dict()
    return {"recall@10": d["recall"], "over_bm25_ipc": d["ratio"], "queries": d["queries"]}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cv", type=int, default=10, help="folds (10: leave one query out)")
    ap.add_argument("--state-dir", type=Path, help="an existing state dir with the corpus graph and index")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    settings = Settings(state_dir=args.state_dir) if args.state_dir else Settings()
    out: dict[str, object] = {"facts_to_statutes": statutes(settings, args.cv)}
    if args.state_dir:
        from legal_rag.app import Application

        with Application(settings, first_run=False) as app:
            out["facts_to_offences"] = offences(settings, app.index(), app.graph())
    else:
        with scratch_graph() as (store, tmp):
            index = open_index(settings, tmp / "index")
            try:
                sync_from_graph(index, store)
                out["facts_to_offences"] = offences(settings, index, store)
            finally:
                index.close()
    print(json.dumps(out, indent=2 if args.json else 1))


if __name__ == "__main__":
    main()
