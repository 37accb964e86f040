"""Benchmark: retrieval with the shipped float16 vectors against vectors computed afresh, same run.

Run: ``python benchmarks/bench_shipped_vectors.py [--acts BNS BNSS BSA IPC CRPC IEA] [--fresh-embedder minilm]
[--json]``

Two indexes of the same chunks (the criminal codes, old and new, by default): one built from
``data/vectors`` (float16, no model call), one embedded now (float32) with the default embedder or, with
``--fresh-embedder minilm``, with the fp32 weights (the ``[fp32]`` extra): then the comparison is the int8
model and its shipped vectors against the fp32 model end to end, queries included. Every question of
``tests/data/ask_questions.jsonl`` and ``benchmarks``' statute fact queries is run through
``HybridRetriever.retrieve`` on both; reported: the share of queries whose
top-10 chunk ids are identical in order, the mean top-10 overlap, the largest cosine difference
between a shipped and a fresh vector, and hit@10 of the expected provisions on each (the ranking
quality the float16 rounding could cost). Also the time each build took.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from support import scratch_graph

from legal_rag.retrieval.build import build_retriever, embedder, graph_chunks
from legal_rag.retrieval.index import ChunkIndex
from legal_rag.retrieval.vectors import ShippedVectors
from legal_rag.settings import PROJECT_ROOT, EmbedderKind, Settings

QUESTIONS = PROJECT_ROOT / "tests" / "data" / "ask_questions.jsonl"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--acts", nargs="+", default=["BNS", "BNSS", "BSA", "IPC", "CRPC", "IEA"])
    ap.add_argument("--fresh-embedder", choices=[k.value for k in EmbedderKind], default=None,
                    help="embedder of the fresh index and its queries (default: the configured one)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    settings = Settings()
    fresh_settings = settings
    if args.fresh_embedder:
        fresh_settings = settings.model_copy(
            update={"retrieval": settings.retrieval.model_copy(update={"embedder": EmbedderKind(args.fresh_embedder)})})
    emb = embedder(settings)
    emb_fresh = embedder(fresh_settings)
    rows = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]
    with scratch_graph(prefix="legal-rag-bench-shipped-") as (store, tmp):
        chunks = [c for c in graph_chunks(store) if c.act in set(args.acts)]
        shipped = ShippedVectors(settings.retrieval.vectors_dir, emb.model_id)  # type: ignore[attr-defined]
        t0 = time.perf_counter()
        a = ChunkIndex(tmp / "shipped", emb, shipped=shipped).open()
        ra = a.sync(chunks)
        t_shipped = time.perf_counter() - t0
        t0 = time.perf_counter()
        b = ChunkIndex(tmp / "fresh", emb_fresh, shipped=None).open()
        rb = b.sync(chunks)
        t_fresh = time.perf_counter() - t0
        ids, mat_a = a.dense._m.arrays()  # type: ignore[attr-defined]
        ids_b, mat_b = b.dense._m.arrays()  # type: ignore[attr-defined]
        order = {cid: i for i, cid in enumerate(ids_b)}
        cos = np.sum(mat_a * mat_b[[order[c] for c in ids]], axis=1)
        ret_a, ret_b = build_retriever(settings, a, store), build_retriever(fresh_settings, b, store)
        same = overlap = 0.0
        hits = {"shipped": 0, "fresh": 0}
        for r in rows:
            top_a = [x.chunk.id for x in ret_a.retrieve(r["question"], 10, as_of=r["as_of"])]
            top_b = [x.chunk.id for x in ret_b.retrieve(r["question"], 10, as_of=r["as_of"])]
            same += top_a == top_b
            overlap += len(set(top_a) & set(top_b)) / max(1, len(set(top_a) | set(top_b)))
            want = {tuple(e.split()) for e in r.get("expect", [])}
            for name, top in (("shipped", top_a), ("fresh", top_b)):
                got = {tuple(cid.split(":")[:2]) for cid in top}
                hits[name] += bool(want & got)
        n = len(rows)
        result = {
            "chunks": len(chunks), "queries": n,
            "models": {"shipped": emb.model_id, "fresh": emb_fresh.model_id},  # type: ignore[attr-defined]
            "build_s": {"shipped": round(t_shipped, 1), "fresh": round(t_fresh, 1),
                        "ratio_fresh_over_shipped": round(t_fresh / t_shipped, 1)},
            "embedded": {"shipped": ra.embedded + ra.headings_embedded, "fresh": rb.embedded + rb.headings_embedded},
            "identical_top10_share": round(same / n, 3),
            "mean_top10_jaccard": round(overlap / n, 4),
            "min_cosine_shipped_vs_fresh": round(float(cos.min()), 6),
            "hit_at_10": {k: round(v / n, 3) for k, v in hits.items()},
        }
        a.close()
        b.close()
    if args.json:
        print(json.dumps(result))
        return
    for k, v in result.items():
        print(f"{k:32} {v}")


if __name__ == "__main__":
    main()
