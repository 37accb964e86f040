"""Benchmark: end-to-end hybrid retrieval latency at 10k and 50k chunks, indexing throughput, memory.

Run: ``python benchmarks/bench_retrieval.py [--sizes 10000 50000] [--queries 100] [--json]``

* Corpus: the real statute chunks of the shipped corpus (``graph_chunks``), cycled with a suffix to
  reach each size. Vectors for the search benchmark are the real embeddings of the first
  ``--embed`` chunks, repeated with small noise (embedding 50k texts takes far too long on 2 CPUs);
  queries are embedded for real, with the model already loaded.
* Latency: ``HybridRetriever.retrieve`` p50/p95, without filters and with an Act + as_of filter;
  baseline in the same run: a BM25-only search of the same queries (``lexical.search``).
* Indexing throughput: chunks/s of a real ``ChunkIndex.sync`` (embedding + both indexes) on a sample.
* Memory: resident set size after building each index.
* Long queries: ``hybrid_long`` runs fact descriptions of 198-962 words (every sentence embedded).
Target (issue 3): hybrid p95 < 50 ms at 50k chunks.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np
import psutil
from support import pct

from graph_schema.embedded import EmbeddedFalkorDB
from graph_schema.store import FalkorGraphStore
from ingestion.pipeline import default_paths, ingest
from legal_rag.retrieval.build import build_retriever, embedder, graph_chunks, open_index
from legal_rag.settings import PROJECT_ROOT, Settings

QUERIES = [
    "punishment for murder", "Section 420 IPC", "anticipatory bail for a non-bailable offence",
    "he used a forged sale deed as genuine", "dishonour of cheque for insufficiency of funds",
    "cruelty by husband or relatives for dowry", "arrest without warrant by police officer",
    "dying declaration admissibility", "u/s 138 N.I. Act", "divorce by mutual consent",
]


# Fact descriptions (the AILA 2019 training queries, 198-962 words) for the long-query figure.
LONG = [json.loads(line)["text"] for line in
        (PROJECT_ROOT / "tests" / "data" / "aila2019-train" / "queries.jsonl").read_text().splitlines()] * 3


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 50_000])
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--embed", type=int, default=400, help="chunks embedded for real (throughput sample)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    settings = Settings()
    proc = psutil.Process()
    tmp = Path(tempfile.mkdtemp(prefix="legal-rag-bench-retrieval-"))
    server = EmbeddedFalkorDB(tmp / "falkordb")
    server.start()
    out: dict[str, object] = {}
    try:
        store = FalkorGraphStore(graph="bench", unix_socket_path=server.socket_path)
        store.open()
        store.ensure_schema()
        ingest(store, default_paths(PROJECT_ROOT / "data" / "corpus"))
        base = graph_chunks(store)
        emb = embedder(settings)
        emb.embed(["warm up"])

        # indexing throughput on a real sample
        sample = base[: args.embed]
        idx = open_index(settings, tmp / "throughput", emb)
        t = time.perf_counter()
        idx.sync(sample)
        out["index_chunks_per_s"] = round(len(sample) / (time.perf_counter() - t), 1)
        vectors = emb.embed([c.indexed_text for c in sample])
        idx.close()

        rng = np.random.default_rng(7)
        for size in args.sizes:
            chunks = [dataclasses.replace(base[i % len(base)], id=f"{base[i % len(base)].id}#{i // len(base)}")
                      for i in range(size)]
            idx = open_index(settings, tmp / f"idx{size}", emb)
            noisy = vectors[np.arange(size) % len(vectors)] + rng.normal(0, 0.01, (size, vectors.shape[1]))
            noisy = (noisy / np.linalg.norm(noisy, axis=1, keepdims=True)).astype(np.float32)
            for i in range(0, size, 2000):
                part = chunks[i : i + 2000]
                idx.dense.upsert([c.id for c in part], noisy[i : i + 2000], [{"chunk_id": c.id} for c in part])
                idx.lexical.upsert([(c.id, c.lexical_text) for c in part])
            idx._chunks.update({c.id: c for c in chunks})  # noqa: SLF001 - metadata without the SQLite round trip
            idx.version += 1
            heads = list(idx.heading_ids())
            hv = noisy[rng.integers(0, size, len(heads))]
            for i in range(0, len(heads), 2000):
                part = heads[i : i + 2000]
                assert idx.headings is not None
                idx.headings.upsert(part, hv[i : i + 2000], [{"chunk_id": c} for c in part])
            retriever = build_retriever(settings, idx, store)
            qs = [QUERIES[i % len(QUERIES)] for i in range(args.queries)]
            runs: dict[str, list[float]] = {"bm25_only": [], "hybrid": [], "hybrid_filtered": [], "hybrid_long": []}
            for q in qs:
                t = time.perf_counter()
                idx.lexical.search(q, 100)
                runs["bm25_only"].append((time.perf_counter() - t) * 1000)
                t = time.perf_counter()
                retriever.retrieve(q, 10, include_repealed=True)
                runs["hybrid"].append((time.perf_counter() - t) * 1000)
                t = time.perf_counter()
                retriever.retrieve(q, 10, as_of="2025-01-01", acts=["BNS", "BNSS", "BSA"])
                runs["hybrid_filtered"].append((time.perf_counter() - t) * 1000)
            for q in LONG[: max(1, args.queries // 5)]:
                t = time.perf_counter()
                retriever.retrieve(q, 10, as_of="2025-01-01")
                runs["hybrid_long"].append((time.perf_counter() - t) * 1000)
            out[str(size)] = {
                name: {"p50_ms": round(pct(v, 50), 2), "p95_ms": round(pct(v, 95), 2)} for name, v in runs.items()
            }
            out[str(size)]["hybrid_p95_over_bm25_p95"] = round(  # type: ignore[index]
                pct(runs["hybrid"], 95) / pct(runs["bm25_only"], 95), 1)
            out[str(size)]["headings"] = len(heads)  # type: ignore[index]
            out[str(size)]["rss_mb"] = round(proc.memory_info().rss / 2**20)  # type: ignore[index]
            idx.close()
        store.close()
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(out, indent=2) if args.json else json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
