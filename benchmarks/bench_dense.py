"""Benchmark: dense embedding throughput and vector search designs, as ratios to a same-run baseline.

Run: ``python benchmarks/bench_dense.py [--sizes 10000,50000] [--queries 200] [--json]``

What is measured, all in one process on this machine:

* **Embedding.** ~100-word statute chunks cut from ``data/corpus/indiacode/sections_fulltext_subset.jsonl``
  (each with a heading line, as the chunker writes them), embedded by :class:`SentenceTransformerEmbedder`
  with 1 torch thread and with the default (all usable CPUs); baseline: plain
  ``SentenceTransformer.encode`` on the same texts. Also single-query embedding latency.
* **Search** at each size (default 10k and 50k vectors). The vectors are **random unit vectors**, not
  embeddings: embedding 50k chunks takes ~12 minutes here, and exact search costs the same whatever the
  vectors are. k=10; ``allow`` = a random 10% of the ids (five different sets, rotated). Designs, run
  interleaved query by query so that load from other processes hits them alike:

  - ``qdrant_local`` (**baseline**): qdrant-client local mode's own search, no filter;
  - ``qdrant_local_hasid``: the same with ``allow`` as a ``HasIdCondition`` (what a server gets);
  - ``qdrant_local_matchany``: ``allow`` as a ``MatchAny`` payload filter on ``chunk_id`` (10k only: seconds);
  - ``qdrant_local_overfetch``: unfiltered qdrant local search for 20x k, filtered in Python, widened until k;
  - ``matrix`` / ``matrix_allow``: this module's in-memory matrix (the default for a local path);
  - ``edge`` / ``edge_matchany``: ``qdrant-edge-py`` (exact search; keyword-indexed ``MatchAny``), when installed.

  Ratios are p50 and p95 against the baseline's p50 and p95 at the same size.
* **Writes**: upsert throughput into the local store (qdrant-client commits each point) and into qdrant-edge.
* **Open/load**: reopening the store from disk, bare ``QdrantClient(path=...)`` (baseline) against
  :meth:`QdrantDenseIndex.open` (the same plus scrolling every vector into the matrix).
* **Memory**: resident set size (psutil) before and after opening the index.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
import uuid
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import psutil

from legal_rag.retrieval.dense import (
    PAYLOAD_CHUNK_ID,
    QdrantDenseIndex,
    SearchPath,
    SentenceTransformerEmbedder,
    point_id,
)
from legal_rag.settings import PROJECT_ROOT

SECTIONS = PROJECT_ROOT / "data" / "corpus" / "indiacode" / "sections_fulltext_subset.jsonl"
DIM = 384
K = 10
MS = 1000.0

QUERIES = [
    "using a forged document as genuine",
    "husband's family harassed her for dowry",
    "cheque returned unpaid for insufficient funds",
    "punishment for murder",
    "anticipatory bail for a non-bailable offence",
    "the tenant refused to vacate after the lease expired",
    "criminal intimidation by threatening injury to reputation",
    "maintenance for a wife who is unable to maintain herself",
    "the accused was found in possession of narcotic drugs",
    "limitation period for filing a suit for recovery of money",
]


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def summary(xs: list[float]) -> dict[str, float]:
    return {"p50": round(pct(xs, 50) * MS, 3), "p95": round(pct(xs, 95) * MS, 3), "n": len(xs)}


def rss_mb() -> float:
    return round(float(psutil.Process().memory_info().rss) / 2**20, 1)


def chunk_texts(n: int, words: int = 100) -> list[str]:
    """~``words``-word windows of real sections, each with a heading line like the chunker's."""
    out: list[str] = []
    with SECTIONS.open(encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            toks = rec["text"].split()
            heading = f"{rec['act_title']} s.{rec['section_no']} {rec.get('title') or ''}".strip()
            for s in range(0, max(1, len(toks) - words // 2), words):
                out.append(f"{heading}\n{' '.join(toks[s : s + words])}")
                if len(out) == n:
                    return out
    return out


# -- embedding ----------------------------------------------------------------------------------


def bench_embedding(n_texts: int) -> dict[str, Any]:
    import torch
    from sentence_transformers import SentenceTransformer

    texts = chunk_texts(n_texts)
    words = statistics.mean(len(t.split()) for t in texts)
    emb = SentenceTransformerEmbedder()
    t = time.perf_counter()
    emb.open()
    load_s = time.perf_counter() - t
    default_threads = torch.get_num_threads()
    emb.embed(texts[:8])  # warm-up

    t = time.perf_counter()
    plain = SentenceTransformer(str(emb.model_path), device="cpu", local_files_only=True)
    plain_load_s = time.perf_counter() - t

    res: dict[str, Any] = {"texts": len(texts), "mean_words": round(words, 1), "model_load_s": round(load_s, 2),
                           "plain_model_load_s": round(plain_load_s, 2), "threads": {}}
    for threads in sorted({1, default_threads}):
        torch.set_num_threads(threads)
        log(f"embedding {len(texts)} texts with {threads} thread(s) ...")
        ours_s = base_s = 0.0
        half = len(texts) // 2
        # ours, plain, plain, ours over two halves, so that drifting load from other processes evens out.
        for first_ours, part in ((True, texts[:half]), (False, texts[half:])):
            for is_ours in (first_ours, not first_ours):
                t = time.perf_counter()
                if is_ours:
                    ours = emb.embed(part, batch_size=32)
                    ours_s += time.perf_counter() - t
                else:
                    base = plain.encode(part, batch_size=32, normalize_embeddings=True, show_progress_bar=False)
                    base_s += time.perf_counter() - t
            assert np.allclose(ours, base, atol=1e-4), "wrapper and plain encode disagree"
        res["threads"][str(threads)] = {
            "ours_texts_per_s": round(len(texts) / ours_s, 1),
            "plain_encode_texts_per_s": round(len(texts) / base_s, 1),
            "ours_vs_plain": round(base_s / ours_s, 2),
        }
    torch.set_num_threads(default_threads)
    lat = []
    for _ in range(3):
        for q in QUERIES:
            t = time.perf_counter()
            emb.embed([q])
            lat.append(time.perf_counter() - t)
    res["query_embed_ms"] = summary(lat)
    res["default_threads"] = default_threads
    return res


# -- search ----------------------------------------------------------------------------------------


def unit_vectors(rng: np.random.Generator, n: int) -> np.ndarray:
    v = rng.standard_normal((n, DIM)).astype(np.float32)
    out: np.ndarray = v / np.linalg.norm(v, axis=1, keepdims=True)
    return out


def overfetch(ix: QdrantDenseIndex, q: np.ndarray, allow: set[str], total: int) -> list[str]:
    limit = K * 20
    while True:
        hits = ix.search(q, limit, via=SearchPath.QDRANT)
        kept = [h.chunk_id for h in hits if h.chunk_id in allow][:K]
        if len(kept) >= K or limit >= total:
            return kept
        limit *= 4


def matchany(ix: QdrantDenseIndex, q: np.ndarray, allow: set[str]) -> list[str]:
    from qdrant_client import models

    flt = models.Filter(must=[models.FieldCondition(key=PAYLOAD_CHUNK_ID, match=models.MatchAny(any=list(allow)))])
    res = ix._c().query_points(ix._collection, query=q.tolist(), limit=K, query_filter=flt, with_payload=True)
    return [str((p.payload or {})[PAYLOAD_CHUNK_ID]) for p in res.points]


class Edge:
    """A qdrant-edge-py shard holding the same vectors (optional dependency)."""

    def __init__(self, path: Path) -> None:
        import qdrant_edge as qe

        self.qe = qe
        self.path = str(path)
        cfg = qe.EdgeConfig(vectors=qe.EdgeVectorParams(size=DIM, distance=qe.Distance.Cosine))
        self.shard = qe.EdgeShard.create(self.path, cfg)
        self.shard.update(qe.UpdateOperation.create_field_index(PAYLOAD_CHUNK_ID, qe.PayloadSchemaType.Keyword))

    def upsert(self, ids: list[str], vecs: np.ndarray) -> None:
        qe = self.qe
        pts = [qe.Point(point_id(c), v.tolist(), {PAYLOAD_CHUNK_ID: c}) for c, v in zip(ids, vecs, strict=True)]
        self.shard.update(qe.UpdateOperation.upsert_points(pts))

    def reopen(self) -> float:
        self.shard.flush()
        self.shard.close()
        t = time.perf_counter()
        self.shard = self.qe.EdgeShard.load(self.path)
        return time.perf_counter() - t

    def search(self, q: np.ndarray, allow: set[str] | None = None) -> list[str]:
        qe = self.qe
        flt = None
        if allow is not None:
            flt = qe.Filter(must=[qe.FieldCondition(PAYLOAD_CHUNK_ID, match=qe.MatchAny(list(allow)))])
        req = qe.QueryRequest(limit=K, query=qe.Query.Nearest(q.tolist()), filter=flt, with_payload=True,
                              params=qe.SearchParams(exact=True))
        return [str((p.payload or {})[PAYLOAD_CHUNK_ID]) for p in self.shard.query(req)]

    def close(self) -> None:
        self.shard.close()


def have_edge() -> bool:
    try:
        import qdrant_edge  # noqa: F401
    except ImportError:
        return False
    return True


Design = tuple[Callable[[np.ndarray, set[str]], object], int]
FILTERED = {"qdrant_local_hasid", "qdrant_local_overfetch", "qdrant_local_matchany", "matrix_allow", "edge_matchany"}


def run_designs(
    ix: QdrantDenseIndex,
    edge: Edge | None,
    size: int,
    queries: np.ndarray,
    allows: list[set[str]],
    n_queries: int,
    slow_queries: int,
) -> dict[str, Any]:
    """Time every design on the same queries, interleaved; wall and CPU time, ratios to the baseline."""
    designs: dict[str, Design] = {
        "qdrant_local": (lambda q, al: ix.search(q, K, via=SearchPath.QDRANT), n_queries),
        "qdrant_local_hasid": (lambda q, al: ix.search(q, K, al, via=SearchPath.QDRANT), slow_queries),
        "qdrant_local_overfetch": (lambda q, al: overfetch(ix, q, al, size), slow_queries),
        "matrix": (lambda q, al: ix.search(q, K), n_queries),
        "matrix_allow": (lambda q, al: ix.search(q, K, al), n_queries),
    }
    if size <= 10_000:
        designs["qdrant_local_matchany"] = (lambda q, al: matchany(ix, q, al), min(3, slow_queries))
    if edge is not None:
        designs["edge"] = (lambda q, al: edge.search(q), n_queries)
        designs["edge_matchany"] = (lambda q, al: edge.search(q, al), n_queries)
    wall: dict[str, list[float]] = {name: [] for name in designs}
    cpu: dict[str, list[float]] = {name: [] for name in designs}
    log(f"[{size}] {n_queries} queries, designs interleaved: {', '.join(designs)}")
    for qi, q in enumerate(queries):
        allow = allows[qi % len(allows)]
        for name, (fn, limit) in designs.items():
            if qi >= limit:
                continue
            c, t = time.process_time(), time.perf_counter()
            fn(q, allow)
            wall[name].append(time.perf_counter() - t)
            cpu[name].append(time.process_time() - c)
    base, base_cpu, base_f = summary(wall["qdrant_local"]), summary(cpu["qdrant_local"]), summary(
        wall["qdrant_local_hasid"]
    )
    out: dict[str, Any] = {}
    for name in designs:
        s: dict[str, Any] = summary(wall[name])
        s["cpu_p50"] = summary(cpu[name])["p50"]
        s["vs_baseline_p50"] = round(s["p50"] / base["p50"], 4)
        s["vs_baseline_p95"] = round(s["p95"] / base["p95"], 4)
        s["cpu_vs_baseline_p50"] = round(s["cpu_p50"] / max(base_cpu["p50"], 1e-6), 4)
        if name in FILTERED:
            s["vs_qdrant_hasid_p50"] = round(s["p50"] / base_f["p50"], 4)
        out[name] = s
    return out


def fast_sqlite(ix: QdrantDenseIndex) -> None:
    """Benchmark set-up only: turn off fsync on the local store's SQLite (private qdrant-client internals)."""
    ix._c()._client.collections[ix._collection].storage.storage.execute("PRAGMA synchronous=OFF")  # type: ignore[attr-defined]


def bench_search(
    sizes: list[int], n_queries: int, slow_queries: int, write_sample: int, use_edge: bool
) -> dict[str, Any]:
    rng = np.random.default_rng(7)
    tmp = Path(tempfile.mkdtemp(prefix="legal-rag-bench-dense-"))
    store = str(tmp / "qdrant")
    edge = Edge(tmp / "edge") if use_edge else None
    results: dict[str, Any] = {}
    have = 0
    try:
        for size in sizes:
            # Grow the same store to this size (the 50k run reuses the 10k points).
            add = size - have
            ids = [f"SYN:{i}:-:0" for i in range(have, size)]
            vecs = unit_vectors(rng, add)
            payloads: list[dict[str, object]] = [{"act": "SYN", "section": str(i)} for i in range(have, size)]
            ix = QdrantDenseIndex(path=store, search_path=SearchPath.MATRIX, batch_size=500)
            ix.open()
            sample = min(write_sample, add)
            log(f"[{size}] timing {sample} writes to the local store with qdrant-client defaults ...")
            t = time.perf_counter()
            for s in range(0, sample, 500):
                e = min(s + 500, sample)
                ix.upsert(ids[s:e], vecs[s:e], payloads[s:e])
            write_s = time.perf_counter() - t
            log(f"  {sample / write_s:.0f} points/s; loading the other {add - sample} with SQLite fsync off ...")
            fast_sqlite(ix)
            for s in range(sample, add, 1000):
                ix.upsert(ids[s : s + 1000], vecs[s : s + 1000], payloads[s : s + 1000])
            ix.close()
            row: dict[str, Any] = {"vectors": size, "random_unit_vectors": True,
                                   "local_upsert_points_per_s": round(sample / write_s, 1),
                                   "local_upsert_sample": sample}
            if edge is not None:
                t = time.perf_counter()
                for s in range(0, add, 1000):
                    edge.upsert(ids[s : s + 1000], vecs[s : s + 1000])
                edge_s = time.perf_counter() - t
                row["edge_upsert_points_per_s"] = round(add / edge_s, 1)
                row["edge_load_s"] = round(edge.reopen(), 3)
            have = size

            # Open/load: qdrant's own load (baseline) vs our open (the same + matrix).
            from qdrant_client import QdrantClient

            t = time.perf_counter()
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message="Local mode is not recommended")
                bare = QdrantClient(path=store)
            bare.collection_exists("statute_chunks")
            bare_s = time.perf_counter() - t
            bare.close()
            rss_before = rss_mb()
            ix = QdrantDenseIndex(path=store, search_path=SearchPath.MATRIX)
            t = time.perf_counter()
            ix.open()
            open_s = time.perf_counter() - t
            row["open"] = {"qdrant_client_load_s": round(bare_s, 2), "index_open_s": round(open_s, 2),
                           "index_open_vs_qdrant_load": round(open_s / bare_s, 2)}
            row["rss_mb"] = {"before_open": rss_before, "after_open": rss_mb(),
                             "matrix_mb": round(size * DIM * 4 / 2**20, 1)}
            assert len(ix) == size

            all_ids = [f"SYN:{i}:-:0" for i in range(size)]
            r = random.Random(size)
            allows = [set(r.sample(all_ids, size // 10)) for _ in range(5)]
            queries = unit_vectors(rng, n_queries)

            # Same ranking from both paths (sanity, not timed).
            for j in range(3):
                for allow in (None, allows[j]):
                    a = [h.chunk_id for h in ix.search(queries[j], K, allow, via=SearchPath.MATRIX)]
                    b = [h.chunk_id for h in ix.search(queries[j], K, allow, via=SearchPath.QDRANT)]
                    assert a == b, f"matrix and qdrant disagree at {size}"
            row["parity_matrix_vs_qdrant"] = "identical top-10 on 6 checks"

            row["latency_ms"] = run_designs(ix, edge, size, queries, allows, n_queries, slow_queries)
            ix.close()
            results[str(size)] = row
    finally:
        if edge is not None:
            edge.close()
        shutil.rmtree(tmp, ignore_errors=True)
    return results


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10000,50000", help="comma-separated vector counts, ascending")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--slow-queries", type=int, default=20, help="queries for the slow qdrant-local filter designs")
    ap.add_argument("--embed-texts", type=int, default=256)
    ap.add_argument("--write-sample", type=int, default=2000,
                    help="points per size written with qdrant-client defaults and timed; the rest skip fsync")
    ap.add_argument("--no-edge", action="store_true", help="skip qdrant-edge-py even when installed")
    ap.add_argument("--skip-embedding", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))

    res: dict[str, Any] = {"machine": {"cpus": os.cpu_count(), "load_avg_at_start": os.getloadavg()}}
    if not args.skip_embedding:
        res["embedding"] = bench_embedding(args.embed_texts)
    use_edge = have_edge() and not args.no_edge
    if not use_edge:
        log("qdrant-edge-py not installed (or --no-edge): its designs are skipped")
    res["search"] = bench_search(sizes, args.queries, args.slow_queries, args.write_sample, use_edge)
    res["machine"]["load_avg_at_end"] = os.getloadavg()
    res["run_id"] = uuid.uuid4().hex[:8]

    if args.json:
        print(json.dumps(res, indent=2))
        return
    report(res)


def report(res: dict[str, Any]) -> None:
    m = res["machine"]
    print(f"machine: {m['cpus']} CPUs, load average {m['load_avg_at_start'][0]:.1f} at start, "
          f"{m['load_avg_at_end'][0]:.1f} at end (other processes share the CPUs: read the ratios)")
    if "embedding" in res:
        e = res["embedding"]
        print(f"\nembedding {e['texts']} chunks of ~{e['mean_words']} words (model load {e['model_load_s']} s)")
        for th, r in e["threads"].items():
            print(f"  {th} thread(s): {r['ours_texts_per_s']} texts/s   plain encode {r['plain_encode_texts_per_s']} "
                  f"texts/s   (ours = {r['ours_vs_plain']}x plain)")
        q = e["query_embed_ms"]
        print(f"  one short query: p50 {q['p50']} ms  p95 {q['p95']} ms")
    for size, row in res["search"].items():
        print(f"\n{size} random unit vectors, k={K}, allow = 10% of ids")
        w = f"  writes: local store {row['local_upsert_points_per_s']} points/s (first {row['local_upsert_sample']})"
        if "edge_upsert_points_per_s" in row:
            w += f", qdrant-edge {row['edge_upsert_points_per_s']} points/s (load {row['edge_load_s']} s)"
        print(w)
        o = row["open"]
        print(f"  open: index {o['index_open_s']} s = {o['index_open_vs_qdrant_load']}x bare QdrantClient load "
              f"({o['qdrant_client_load_s']} s)")
        r = row["rss_mb"]
        print(f"  RSS: {r['before_open']} MB before open, {r['after_open']} MB after (matrix {r['matrix_mb']} MB)")
        print(f"  {'design':24s} {'n':>4s} {'p50 ms':>9s} {'p95 ms':>9s} {'p50 x base':>11s} {'p95 x base':>11s} "
              f"{'cpu p50 ms':>11s} {'cpu x base':>11s}")
        for name, s in row["latency_ms"].items():
            print(f"  {name:24s} {s['n']:4d} {s['p50']:9.2f} {s['p95']:9.2f} {s['vs_baseline_p50']:11.3f} "
                  f"{s['vs_baseline_p95']:11.3f} {s['cpu_p50']:11.2f} {s['cpu_vs_baseline_p50']:11.3f}")


if __name__ == "__main__":
    main()
