"""Benchmark: ``legal-rag ask`` latency offline, per route and per stage, models loaded once.

Run (after ``legal-rag ingest --default``): ``python benchmarks/bench_ask.py [--rounds 2] [--json]``

* Questions: the 48 of ``tests/data/ask_questions.jsonl`` (SIMPLE lookups, STANDARD / COMPLEX /
  ANALYTICAL questions), asked ``--rounds`` times after one warm-up pass.
* Reported: p50 / p95 of the total and of every stage, for the SIMPLE route (one grounded-refinement
  pass) and the GenGround route (every other complexity), and the baseline measured in the same
  run: hybrid retrieval alone for the same questions.
* Targets (issue 5): p95 < 500 ms for SIMPLE, < 1.5 s with GenGround.
The aligner's precision and recall on the perturbation set: ``python benchmarks/bench_aligner.py``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict

from support import pct

from legal_rag.retrieval.build import build_retriever, embedder, open_index
from legal_rag.settings import PROJECT_ROOT, Settings
from legal_rag.stores import open_graph_store
from legal_rag.workflow.service import build_service

QUESTIONS = [json.loads(line) for line in
             (PROJECT_ROOT / "tests" / "data" / "ask_questions.jsonl").read_text().splitlines()]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    settings = Settings()
    store = open_graph_store(settings)
    index = open_index(settings)
    try:
        if len(index) == 0:
            raise SystemExit("the retrieval index is empty: run `legal-rag ingest --default` first")
        retriever = build_retriever(settings, index, store)
        service = build_service(settings, store, retriever, embedder(settings))
        for q in QUESTIONS:  # warm-up: model, caches, Act texts for the quote checker
            service.ask(q["question"], q["as_of"])
        totals: dict[str, list[float]] = defaultdict(list)
        stages: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
        baseline: list[float] = []
        for _ in range(args.rounds):
            for q in QUESTIONS:
                t = time.perf_counter()
                retriever.retrieve(q["question"], 8, as_of=q["as_of"])
                baseline.append((time.perf_counter() - t) * 1000)
                r = service.ask(q["question"], q["as_of"])
                route = "simple" if r.complexity == "SIMPLE" else "genground"
                totals[route].append(r.timings_ms["total"])
                for k, v in r.timings_ms.items():
                    if k != "total":
                        stages[route][k].append(v)
        out: dict[str, object] = {"questions": len(QUESTIONS), "rounds": args.rounds,
                                  "retrieval_only": _p(baseline)}
        for route, ts in totals.items():
            out[route] = {"n": len(ts), "total": _p(ts), "stages": {k: _p(v) for k, v in stages[route].items()},
                          "p95_over_retrieval_p95": round(pct(ts, 95) / pct(baseline, 95), 1)}
    finally:
        index.close()
        store.close()
    print(json.dumps(out, indent=2 if args.json else 1))


def _p(xs: list[float]) -> dict[str, float]:
    return {"p50_ms": round(pct(xs, 50), 1), "p95_ms": round(pct(xs, 95), 1)}


if __name__ == "__main__":
    main()
