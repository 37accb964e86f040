"""Retrieval evaluation on any corpus: ``legal-rag eval retrieval``.

Inputs: corpus lines ``{"id", "title", "text"}``, query lines ``{"id", "text"}``, TREC qrels
``qid Q0 docid rel`` (rel > 0 is relevant; graded gains feed nDCG). The corpus is indexed in a
temporary directory (the main index is never touched); long documents are split into passages on
sentence boundaries and a document scores its best passage (MaxP). BM25, dense and hybrid (each
fusion method) are scored with MAP, MRR, P@10, Recall@10, Recall@100 and nDCG@10.
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from graph_schema.errors import IngestError
from legal_rag.retrieval.chunking import split_on_sentences
from legal_rag.retrieval.hybrid import Fusion, FusionConfig, HybridRetriever, fuse
from legal_rag.retrieval.index import ChunkIndex
from legal_rag.retrieval.jsonlines import json_objects
from legal_rag.retrieval.types import Chunk, Hit

METRICS = ("map", "mrr", "p@10", "recall@10", "recall@100", "ndcg@10")
IndexFactory = Callable[[Path], ChunkIndex]


@dataclass(frozen=True, slots=True)
class EvalSet:
    docs: dict[str, tuple[str, str]]
    queries: dict[str, str]
    qrels: dict[str, dict[str, int]]


def load_eval_set(corpus: Path, queries: Path, qrels: Path) -> EvalSet:
    """Read the three files, with file:line errors for anything malformed.

    Raises:
        IngestError: a malformed line, a duplicate id, or qrels naming unknown documents/queries.
    """
    docs: dict[str, tuple[str, str]] = {}
    for n, obj in json_objects(corpus):
        doc_id, text = obj.get("id"), obj.get("text")
        if not isinstance(doc_id, str) or not isinstance(text, str):
            raise IngestError(f"{corpus}:{n}: corpus lines need string 'id' and 'text'")
        if doc_id in docs:
            raise IngestError(f"{corpus}:{n}: duplicate document id {doc_id!r}")
        docs[doc_id] = (str(obj.get("title") or ""), text)
    qs: dict[str, str] = {}
    for n, obj in json_objects(queries):
        qid, text = obj.get("id"), obj.get("text")
        if not isinstance(qid, str) or not isinstance(text, str):
            raise IngestError(f"{queries}:{n}: query lines need string 'id' and 'text'")
        qs[qid] = text
    rels: dict[str, dict[str, int]] = {}
    for n, line in enumerate(qrels.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 4 or not parts[3].lstrip("-").isdigit():
            raise IngestError(f"{qrels}:{n}: expected 'qid Q0 docid rel', got {line!r}")
        qid, _, did, rel = parts
        # A judged document missing from the corpus (AILA's S32, S58, S162) stays in the qrels, as
        # trec_eval keeps it: a relevant document nobody can retrieve still counts against recall.
        rels.setdefault(qid, {})[did] = int(rel)
    missing = [q for q in rels if q not in qs]
    if missing:
        raise IngestError(f"{qrels}: queries {missing[:3]} are not in {queries}")
    return EvalSet(docs, qs, rels)


def passages(es: EvalSet, max_words: int = 180) -> list[Chunk]:
    out = []
    for did, (title, text) in es.docs.items():
        for part, piece in enumerate(split_on_sentences(text, max_words)):
            out.append(Chunk(id=f"{did}::{part}", act="EVAL", section=did, sub=None, part=part, title=title,
                             heading=title, text=piece, status="in_force", in_force_from=None, in_force_to=None,
                             source=None))
    return out


def _doc_run(hits: Sequence[Hit]) -> list[Hit]:
    """Passage hits to document hits, each document scored by its best passage (MaxP)."""
    best: dict[str, float] = {}
    for h in hits:
        did = h.chunk_id.split("::", 1)[0]
        if did not in best or h.score > best[did]:
            best[did] = h.score
    return [Hit(d, s) for d, s in sorted(best.items(), key=lambda kv: -kv[1])]


QueryRuns = dict[str, dict[str, list[Hit]]]
"""Per query id, each retriever's document run ("bm25", "dense", "offence"), best first."""


def doc_runs(es: EvalSet, make_index: IndexFactory, depth: int = 100) -> QueryRuns:
    """Every retriever's document run for every judged query, from one temporary index: what fusion
    and cross-validation work on (fusing is cheap once these exist; building them embeds the corpus)."""
    out: QueryRuns = {}
    with tempfile.TemporaryDirectory(prefix="legal-rag-eval-") as tmp:
        index = make_index(Path(tmp))
        index.open()
        try:
            index.sync(passages(es))
            retriever = HybridRetriever(index)
            for qid in es.qrels:
                raw = retriever.search_runs(es.queries[qid], None, depth * 4, offence=True)
                out[qid] = {name: _doc_run(hits)[:depth] for name, hits in raw.items()}
        finally:
            index.close()
    return out


def fused_run(runs: QueryRuns, queries: dict[str, str], cfg: FusionConfig, depth: int = 100) -> dict[str, list[str]]:
    """Each query's fused document ranking under ``cfg`` (weights by the query's length)."""
    return {qid: [d for d, _ in fuse(r, cfg, queries[qid])][:depth] for qid, r in runs.items()}


def single_run(runs: QueryRuns, name: str) -> dict[str, list[str]]:
    return {qid: [h.chunk_id for h in r.get(name, [])] for qid, r in runs.items()}


def evaluate(
    es: EvalSet, make_index: IndexFactory, k: int = 10, depth: int = 100, fusion: FusionConfig | None = None,
    runs: QueryRuns | None = None,
) -> dict[str, object]:
    """Score BM25, dense and hybrid on ``es`` in a temporary index (or on ``runs`` already computed).
    ``hybrid`` is the configured fusion (the product's); the other fusion method, same weights, is
    reported as the alternative, and the offence channel alone as ``offence``."""
    cfg = fusion or FusionConfig()
    other = Fusion.RRF if cfg.method is Fusion.MINMAX else Fusion.MINMAX
    alt = replace(cfg, method=other)
    runs = runs if runs is not None else doc_runs(es, make_index, depth)
    scored = {name: score_run(single_run(runs, name), es.qrels, k) for name in ("bm25", "dense", "offence")}
    scored["hybrid"] = score_run(fused_run(runs, es.queries, cfg, depth), es.qrels, k)
    return {
        "methods": {m: scored[m] for m in ("bm25", "dense", "hybrid")},
        "fusion": {"method": cfg.method.value, "weights": cfg.weights, "rrf_k": cfg.rrf_k,
                   "long_weights": cfg.long_weights, "long_query_words": cfg.long_query_words},
        "alternatives": {f"hybrid_{other.value}": score_run(fused_run(runs, es.queries, alt, depth), es.qrels, k),
                         "offence": scored["offence"]},
        "queries": len(es.qrels),
    }


def score_run(run: dict[str, list[str]], qrels: dict[str, dict[str, int]], k: int = 10) -> dict[str, float]:
    """Mean of each metric over the queries with at least one relevant document."""
    totals = dict.fromkeys(METRICS, 0.0)
    n = 0
    for qid, rels in qrels.items():
        relevant = {d for d, r in rels.items() if r > 0}
        if not relevant:
            continue
        n += 1
        ranked = run.get(qid, [])
        hits = [d in relevant for d in ranked]
        totals["map"] += average_precision(ranked, rels)
        first = next((i for i, h in enumerate(hits, start=1) if h), None)
        totals["mrr"] += 1.0 / first if first else 0.0
        totals["p@10"] += sum(hits[:k]) / k
        totals["recall@10"] += sum(hits[:10]) / len(relevant)
        totals["recall@100"] += sum(hits[:100]) / len(relevant)
        dcg = sum((2 ** rels.get(d, 0) - 1) / math.log2(i + 1) for i, d in enumerate(ranked[:10], start=1))
        ideal = sorted((r for r in rels.values() if r > 0), reverse=True)[:10]
        idcg = sum((2**r - 1) / math.log2(i + 1) for i, r in enumerate(ideal, start=1))
        totals["ndcg@10"] += dcg / idcg if idcg else 0.0
    return {m: round(v / n, 4) if n else 0.0 for m, v in totals.items()}


def average_precision(ranked: Sequence[str], rels: dict[str, int]) -> float:
    """AP of one ranking: precision at each relevant document found, over all relevant ones (unrounded)."""
    relevant = {d for d, r in rels.items() if r > 0}
    ap, found = 0.0, 0
    for i, d in enumerate(ranked, start=1):
        if d in relevant:
            found += 1
            ap += found / i
    return ap / len(relevant) if relevant else 0.0
