"""Benchmark: BM25 implementations for the lexical retriever, against rank-bm25 measured in the same run.

Run: ``python benchmarks/bench_bm25.py [--sizes 10000 50000] [--json] [--budget 20]``
(about ten minutes for both sizes on the 2-core dev machine; rank-bm25's long queries dominate).

Implementations, all fed the same :func:`legal_tokens` terms and asked for the top 10:

* ``rank-bm25`` (the baseline): ``BM25Okapi(k1=1.5, b=0.75)``, ``get_scores`` on the distinct query
  terms. No persistence (pickled here) and no updates (rebuilt).
* ``bm25s``: ``BM25(method="lucene", k1=1.5, b=0.75)``, ``get_scores`` on the distinct query terms.
  Saved with its own ``save``; an update is a rebuild, since its stored scores depend on N and avgdl.
* ``ours``: :class:`legal_rag.retrieval.lexical.BM25Index` with its defaults (lucene BM25, query terms
  weighted 1 + ln(n)).

Corpus: real statute text, every section of the India Code subset (43 Acts) and the repealed IPC, CrPC
and Evidence Act, split into chunks of 80-200 words (a section of 200 words or less is one chunk) with a
heading ("IPC s.302 Punishment for murder"): 7.7k chunks, cycled to the size with each copy losing a
random 10% of its words (seeded), so copies are near-duplicates as re-ingested versions would be.

Queries: short (20 lawyer's queries of about 5 words, references and facts), medium (20 windows of 50
words from the AILA 2019 training fact descriptions), long (10 AILA descriptions concatenated to 1,000+
words). A query's time includes tokenising it. Each class runs until its queries or ``--budget``
seconds are used up (at least 3 queries), so rank-bm25's long-query figures rest on fewer samples.

Reported per size: build time from tokens (tokenising the corpus is common to all and reported once),
query p50/p95 per class, "upsert 100": time until 50 new and 50 replaced chunks are searchable (the
first query after included), save time, load time and resident memory of the loaded index in a fresh
process (median of 3 loads; memory again after the 10 long queries, which fill our query cache), and
top-10 agreement with bm25s: the share of an implementation's top 10 that bm25s scores at least as
high as its own 10th (near-duplicate chunks tie, and which fills the last places is arbitrary). Ours runs
with distinct query terms for this, so its scores should be identical; rank-bm25's Okapi idf differs,
so some disagreement is expected. Ratios are against
rank-bm25; below 1 is better. ``quality`` is MAP and Recall@10 on the AILA training queries for each
query weighting.
"""

from __future__ import annotations

import argparse
import json
import math
import pickle
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, Protocol

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from graph_schema.acts import CURATED_BY_SLUG  # noqa: E402
from legal_rag.retrieval.lexical import BM25Index, BM25Params, QueryWeighting  # noqa: E402
from legal_rag.retrieval.tokenize import legal_tokens  # noqa: E402

CORPUS = ROOT / "data" / "corpus"
AILA = ROOT.parent / "shared" / "data" / "dev-eval" / "aila2019-train"
K1, B, TOP = 1.5, 0.75, 10
SHORT_QUERIES = [
    "u/s 498A IPC dowry cruelty", "punishment for murder section 302", "anticipatory bail section 438 CrPC",
    "dishonour of cheque N.I. Act", "forged document used as genuine",
    "cheating dishonestly inducing delivery property", "arbitral award set aside grounds",
    "electronic record certificate section 65B", "culpable homicide not amounting murder",
    "maintenance of wife and children", "theft in dwelling house punishment", "criminal breach of trust servant",
    "confession to police officer inadmissible", "assault on woman outraging modesty",
    "defamation imputation harming reputation", "public servant taking gratification bribe",
    "kidnapping minor from lawful guardianship", "right of private defence property",
    "divorce on ground of cruelty", "limitation period for filing appeal",
]  # fmt: skip


# -- corpus and queries ---------------------------------------------------------------------------


def _chunks(words: list[str], hi: int = 200, target: int = 160) -> list[list[str]]:
    if len(words) <= hi:
        return [words]
    n = math.ceil(len(words) / target)
    size = math.ceil(len(words) / n)
    return [words[i : i + size] for i in range(0, len(words), size)]


def base_chunks() -> list[tuple[str, str]]:
    """(id, heading + text) for every section of the India Code subset and the legacy codes."""
    sections: list[tuple[str, str, str, str]] = []
    for line in (CORPUS / "indiacode" / "sections_fulltext_subset.jsonl").open(encoding="utf-8"):
        d = json.loads(line)
        cur = CURATED_BY_SLUG.get(d["act_slug"])
        sections.append((cur.code if cur else d["act_slug"], d["section_no"], d.get("title") or "", d["text"]))
    for code, name in (("IPC", "ipc"), ("CRPC", "crpc"), ("IEA", "iea")):
        for d in json.loads((CORPUS / "legacy" / f"{name}.json").read_text(encoding="utf-8")):
            no = str(d.get("Section", d.get("section"))).strip()
            sections.append((code, no, d.get("section_title") or "", str(d.get("section_desc") or "")))
    out = []
    for code, no, title, text in sections:
        for part, words in enumerate(_chunks(text.split())):
            out.append((f"{code}:{no}:-:{part}", f"{code} s.{no} {title}\n{' '.join(words)}"))
    return out


def make_corpus(base: list[tuple[str, str]], n: int) -> list[tuple[str, str]]:
    """``n`` chunks: the base, then copies that each drop a seeded random 10% of the body's words."""
    out = []
    for i in range(n):
        copy, (doc_id, text) = divmod(i, len(base))[0], base[i % len(base)]
        if copy:
            rng = random.Random(f"{copy}:{doc_id}")
            head, _, body = text.partition("\n")
            text = head + "\n" + " ".join(w for w in body.split() if rng.random() >= 0.1)
            doc_id = f"{doc_id}#{copy}"
        out.append((doc_id, text))
    return out


def make_queries(aila: Path) -> dict[str, list[str]]:
    facts = [json.loads(line)["text"] for line in (aila / "queries.jsonl").open(encoding="utf-8")]
    words = [f.split() for f in facts]
    medium = [" ".join(w[o : o + 50]) for o in (0, 100) for w in words if len(w) >= o + 50][:20]
    long = []
    for i in range(len(words)):
        acc: list[str] = []
        j = i
        while len(acc) < 1000:
            acc += words[j % len(words)]
            j += 1
        long.append(" ".join(acc))
    return {"short": SHORT_QUERIES, "medium": medium, "long": long}


# -- implementations ------------------------------------------------------------------------------


class Impl(Protocol):
    name: str

    def build(self, docs: Sequence[tuple[str, str]], tokens: Sequence[list[str]]) -> None: ...

    def top(self, query: str, k: int) -> list[str]: ...

    def upsert(self, docs: Sequence[tuple[str, str]], tokens: Sequence[list[str]]) -> None: ...

    def save(self, directory: Path) -> None: ...


def _topk(scores: np.ndarray, k: int) -> np.ndarray:
    cand = np.flatnonzero(scores > 0)
    if len(cand) > k:
        cand = cand[np.argpartition(-scores[cand], k - 1)[:k]]
    return cand[np.lexsort((cand, -scores[cand]))]


def _distinct(query: str) -> list[str]:
    return list(dict.fromkeys(legal_tokens(query)))


class _Rebuilt:
    """Shared state of the libraries that can only rebuild: ids and token lists in order."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.tokens: list[list[str]] = []

    def _replace(self, docs: Sequence[tuple[str, str]], tokens: Sequence[list[str]]) -> None:
        pos = {d: i for i, d in enumerate(self.ids)}
        for (doc_id, _), toks in zip(docs, tokens, strict=True):
            if doc_id in pos:
                self.tokens[pos[doc_id]] = toks
            else:
                pos[doc_id] = len(self.ids)
                self.ids.append(doc_id)
                self.tokens.append(toks)


class RankBM25(_Rebuilt):
    name = "rank-bm25"

    def build(self, docs: Sequence[tuple[str, str]], tokens: Sequence[list[str]]) -> None:
        from rank_bm25 import BM25Okapi

        self.ids, self.tokens = [d for d, _ in docs], list(tokens)
        self.bm25 = BM25Okapi(self.tokens, k1=K1, b=B)

    def top(self, query: str, k: int) -> list[str]:
        return [self.ids[i] for i in _topk(self.bm25.get_scores(_distinct(query)), k)]

    def upsert(self, docs: Sequence[tuple[str, str]], tokens: Sequence[list[str]]) -> None:
        from rank_bm25 import BM25Okapi

        self._replace(docs, tokens)
        self.bm25 = BM25Okapi(self.tokens, k1=K1, b=B)

    def save(self, directory: Path) -> None:
        with (directory / "rank.pkl").open("wb") as fh:
            pickle.dump((self.ids, self.bm25), fh, protocol=pickle.HIGHEST_PROTOCOL)


class BM25S(_Rebuilt):
    name = "bm25s"

    def build(self, docs: Sequence[tuple[str, str]], tokens: Sequence[list[str]]) -> None:
        self.ids, self.tokens = [d for d, _ in docs], list(tokens)
        self._index()

    def _index(self) -> None:
        import bm25s

        self.bm25 = bm25s.BM25(method="lucene", k1=K1, b=B)
        self.bm25.index(self.tokens, show_progress=False)

    def scores(self, query: str) -> np.ndarray:
        terms = [t for t in _distinct(query) if t in self.bm25.vocab_dict]
        return self.bm25.get_scores(terms) if terms else np.zeros(len(self.ids), dtype=np.float32)

    def top(self, query: str, k: int) -> list[str]:
        return [self.ids[i] for i in _topk(self.scores(query), k)]

    def upsert(self, docs: Sequence[tuple[str, str]], tokens: Sequence[list[str]]) -> None:
        self._replace(docs, tokens)
        self._index()

    def save(self, directory: Path) -> None:
        self.bm25.save(str(directory / "bm25s"))
        (directory / "ids.json").write_text(json.dumps(self.ids))


class Ours:
    name = "ours"

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.cache: dict[str, list[str]] = {}
        self.index = BM25Index(directory, tokenizer=self._tokenize)

    def _tokenize(self, text: str) -> list[str]:
        # The corpus was tokenised once for all three; queries are tokenised for real.
        toks = self.cache.get(text)
        return toks if toks is not None else legal_tokens(text)

    def build(self, docs: Sequence[tuple[str, str]], tokens: Sequence[list[str]]) -> None:
        self.cache = {text: toks for (_, text), toks in zip(docs, tokens, strict=True)}
        self.index.open()
        self.index.upsert(docs)

    def top(self, query: str, k: int) -> list[str]:
        return [h.chunk_id for h in self.index.search(query, k)]

    def upsert(self, docs: Sequence[tuple[str, str]], tokens: Sequence[list[str]]) -> None:
        self.cache.update({text: toks for (_, text), toks in zip(docs, tokens, strict=True)})
        self.index.upsert(docs)

    def save(self, directory: Path) -> None:
        self.index.save()


def probe_load(impl: str, directory: Path, aila: Path) -> dict[str, float]:
    """Runs in a fresh process: load one saved index, then answer the long queries.

    Reports the load time and resident-memory growth after loading and after the queries (ours fills
    its tf/(tf + norm) cache as queries touch terms; rank-bm25 is left out there, at seconds a query).
    """
    import bm25s  # imported before the baseline RSS, like numpy and scipy above
    import psutil
    import rank_bm25  # noqa: F401

    proc = psutil.Process()
    rss0 = proc.memory_info().rss
    t0 = time.perf_counter()
    if impl == "rank-bm25":
        with (directory / "rank.pkl").open("rb") as fh:
            loaded: Any = pickle.load(fh)
    elif impl == "bm25s":
        loaded = bm25s.BM25.load(str(directory / "bm25s"))
    else:
        loaded = BM25Index(directory).open()
    out = {"seconds": time.perf_counter() - t0, "rss_mb": (proc.memory_info().rss - rss0) / 2**20}
    if impl != "rank-bm25":
        for q in make_queries(aila)["long"]:
            if isinstance(loaded, BM25Index):
                loaded.search(q, TOP)
            else:
                loaded.get_scores([t for t in _distinct(q) if t in loaded.vocab_dict])
        out["rss_queried_mb"] = (proc.memory_info().rss - rss0) / 2**20
    return out


def _load_in_child(impl: str, directory: Path, aila: Path, repeats: int = 3) -> dict[str, float]:
    runs = []
    for _ in range(repeats):
        out = subprocess.run(
            [sys.executable, __file__, "--probe-load", impl, str(directory), "--aila", str(aila)],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    return {
        "seconds": statistics.median(r["seconds"] for r in runs),
        "rss_mb": max(r["rss_mb"] for r in runs),
        "rss_queried_mb": max(r.get("rss_queried_mb", float("nan")) for r in runs),
    }


# -- measurement ----------------------------------------------------------------------------------


def _timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _latencies(impl: Impl, queries: list[str], budget: float) -> list[float]:
    out: list[float] = []
    started = time.perf_counter()
    for q in queries:
        out.append(_timed(partial(impl.top, q, TOP)))
        if len(out) >= 3 and time.perf_counter() - started > budget:
            break
    return out


def _pct(values: list[float], p: float) -> float:
    return float(np.percentile(values, p)) if values else float("nan")


def _intern(tokens: list[list[str]]) -> list[list[str]]:
    # Identical terms share one str object, as they would in a real index (saves ~0.5 GB at 50k).
    pool: dict[str, str] = {}
    return [[pool.setdefault(t, t) for t in toks] for toks in tokens]


def run_size(
    n: int, base: list[tuple[str, str]], queries: dict[str, list[str]], budget: float, aila: Path
) -> dict[str, Any]:
    docs = make_corpus(base, n)
    t0 = time.perf_counter()
    tokens = _intern([legal_tokens(text) for _, text in docs])
    res: dict[str, Any] = {"chunks": n, "tokenise_s": time.perf_counter() - t0, "impls": {}}
    extra_docs = [(f"new:{i}", text) for i, (_, text) in enumerate(make_corpus(base, n + 50)[n:])]
    extra_docs += [(doc_id, text + " amended") for doc_id, text in docs[:: max(1, n // 50)][:50]]
    extra_tokens = _intern([legal_tokens(text) for _, text in extra_docs])
    with tempfile.TemporaryDirectory() as tmp:
        impls: list[Impl] = [RankBM25(), BM25S(), Ours(Path(tmp) / "ours")]
        for impl in impls:
            r: dict[str, Any] = res["impls"].setdefault(impl.name, {})
            r["build_s"] = _timed(partial(impl.build, docs, tokens))
            for cls, qs in queries.items():
                lat = _latencies(impl, qs, budget)
                r[f"{cls}_p50_ms"], r[f"{cls}_p95_ms"] = _pct(lat, 50) * 1e3, _pct(lat, 95) * 1e3
                r[f"{cls}_n"] = len(lat)
        res["agreement"] = _agreement(impls, queries)
        for impl in impls:
            r = res["impls"][impl.name]
            d = Path(tmp) / f"saved-{impl.name}"
            d.mkdir(parents=True, exist_ok=True)
            if isinstance(impl, Ours):
                d = impl.directory
            r["save_s"] = _timed(partial(impl.save, d))
            probe = _load_in_child(impl.name, d, aila)
            r["load_s"], r["rss_mb"], r["rss_queried_mb"] = probe["seconds"], probe["rss_mb"], probe["rss_queried_mb"]
            r["upsert100_s"] = _timed(partial(_upsert_then_query, impl, extra_docs, extra_tokens))
    return res


def _upsert_then_query(impl: Impl, docs: Sequence[tuple[str, str]], tokens: Sequence[list[str]]) -> None:
    impl.upsert(docs, tokens)
    impl.top(SHORT_QUERIES[0], TOP)


def _agreement(impls: list[Impl], queries: dict[str, list[str]]) -> dict[str, Any]:
    """Top-10 overlap with bm25s per class, and ours' largest score difference from bm25s."""
    by = {i.name: i for i in impls}
    ref, ours = by["bm25s"], by["ours"]
    assert isinstance(ref, BM25S) and isinstance(ours, Ours)
    out: dict[str, Any] = {}
    default = ours.index.params
    ours.index.params = BM25Params(weighting=QueryWeighting.UNIQUE)
    try:
        max_diff = 0.0
        pos = {doc_id: i for i, doc_id in enumerate(ref.ids)}
        for cls, qs in queries.items():
            for name in ("rank-bm25", "ours"):
                overlap = [_overlap(by[name].top(q, TOP), ref.top(q, TOP), ref.scores(q), pos) for q in qs[:5]]
                out[f"{name}_{cls}"] = statistics.mean(overlap)
            for q in qs[:5]:
                theirs = ref.scores(q).astype(np.float64)
                mine = np.zeros_like(theirs)
                for hit in ours.index.search(q, len(ref.ids)):
                    mine[pos[hit.chunk_id]] = hit.score
                max_diff = max(max_diff, float(np.abs(mine - theirs).max() / max(float(theirs.max()), 1e-9)))
        out["ours_max_rel_score_diff"] = max_diff
    finally:
        ours.index.params = default
    return out


def _overlap(mine: list[str], ref: list[str], ref_scores: np.ndarray, pos: dict[str, int]) -> float:
    """Share of ``mine`` that bm25s also ranks in its top 10, counting a tie with its 10th as agreement.

    Near-duplicate chunks tie (to float32 precision), and which of them fills the last places is
    arbitrary. A short query may match fewer than 10 chunks: compare against what bm25s returned.
    """
    if not ref:
        return 1.0 if not mine else 0.0
    cut = float(ref_scores[pos[ref[-1]]]) * (1 - 1e-6)
    return sum(1 for d in mine if float(ref_scores[pos[d]]) >= cut) / len(ref)


def quality(aila: Path) -> dict[str, dict[str, float]]:
    """MAP and Recall@10 on the AILA training queries for each query weighting (and the libraries)."""
    corpus = [json.loads(line) for line in (aila / "corpus.jsonl").open(encoding="utf-8")]
    facts = [json.loads(line) for line in (aila / "queries.jsonl").open(encoding="utf-8")]
    rel: dict[str, set[str]] = {}
    for line in (aila / "qrels.txt").open(encoding="utf-8"):
        qid, _, doc, grade = line.split()
        if int(grade) > 0:
            rel.setdefault(qid, set()).add(doc)
    out = {}
    for mode in QueryWeighting:
        index = BM25Index(None, BM25Params(weighting=mode)).open()
        index.upsert([(d["id"], f"{d['title']}\n{d['text']}") for d in corpus])
        aps, r10 = [], []
        for q in facts:
            ranked = [h.chunk_id for h in index.search(q["text"], len(corpus))]
            aps.append(_average_precision(ranked, rel[q["id"]]))
            r10.append(len(set(ranked[:10]) & rel[q["id"]]) / len(rel[q["id"]]))
        out[mode.value] = {"map": statistics.mean(aps), "recall@10": statistics.mean(r10)}
    return out


def _average_precision(ranked: list[str], relevant: set[str]) -> float:
    hits, total = 0, 0.0
    for i, doc in enumerate(ranked, 1):
        if doc in relevant:
            hits += 1
            total += hits / i
    return total / len(relevant) if relevant else 0.0


# -- report ---------------------------------------------------------------------------------------

ROWS = [
    ("build_s", "build from tokens", 1e3, "ms"),
    *[(f"{c}_p{p}_ms", f"query {c} p{p}", 1, "ms") for c in ("short", "medium", "long") for p in (50, 95)],
    ("upsert100_s", "upsert 100 + query", 1e3, "ms"),
    ("save_s", "save", 1e3, "ms"),
    ("load_s", "load (fresh process)", 1e3, "ms"),
    ("rss_mb", "memory after load", 1, "MB"),
    ("rss_queried_mb", "memory after 10 long queries", 1, "MB"),
]


def print_report(results: list[dict[str, Any]], qual: dict[str, dict[str, float]]) -> None:
    for res in results:
        impls = res["impls"]
        base = impls["rank-bm25"]
        print(f"\n## {res['chunks']:,} chunks (tokenising the corpus: {res['tokenise_s']:.1f} s, common to all)")
        print(f"| metric | {' | '.join(impls)} |")
        print("|---|" + "---|" * len(impls))
        for key, label, scale, unit in ROWS:
            cells = []
            for r in impls.values():
                v = r[key] * scale
                if math.isnan(v):
                    cells.append("-")
                    continue
                n = f" n={r[key.split('_')[0] + '_n']}" if key.endswith("_ms") else ""
                ratio = f" ({r[key] / base[key]:.3g}x)" if base[key] and not math.isnan(base[key]) else ""
                cells.append(f"{v:,.1f} {unit}{ratio}{n}")
            print(f"| {label} | {' | '.join(cells)} |")
        agr = dict(res["agreement"])
        diff = agr.pop("ours_max_rel_score_diff")
        print("\ntop-10 agreement with bm25s: " + ", ".join(f"{k} {v:.2f}" for k, v in agr.items()))
        print(f"ours vs bm25s, largest score difference relative to the top score: {diff:.1e}")
    print("\n## quality on AILA 2019 training queries (ours, by query weighting)")
    for mode, m in qual.items():
        print(f"- {mode}: MAP {m['map']:.3f}, Recall@10 {m['recall@10']:.3f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 50_000])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--budget", type=float, default=20.0, help="seconds per implementation and query class")
    parser.add_argument("--aila", type=Path, default=AILA)
    parser.add_argument("--probe-load", nargs=2, metavar=("IMPL", "DIR"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.probe_load:
        print(json.dumps(probe_load(args.probe_load[0], Path(args.probe_load[1]), args.aila)))
        return
    base = base_chunks()
    queries = make_queries(args.aila)
    results = []
    for n in args.sizes:
        print(f"running {n:,} chunks ...", file=sys.stderr, flush=True)
        results.append(run_size(n, base, queries, args.budget, args.aila))
    qual = quality(args.aila)
    if args.json:
        print(json.dumps({"sizes": results, "quality": qual, "base_chunks": len(base)}, indent=2))
    else:
        print_report(results, qual)


if __name__ == "__main__":
    main()
