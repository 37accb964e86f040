"""Cross-validated choice of fusion settings: ``legal-rag eval retrieval --cv K``.

Fusion weights picked on the queries they are scored on look better than they are (the AILA 2019
weights scored 0.206 MAP on their ten training queries and 0.098 on held-out ones). Here a *candidate*
is a way of choosing settings: a grid of ``FusionConfig``s, one of which is chosen on each fold's
training queries (highest MAP; the first in the grid on a tie) and scored on the fold's held-out
queries. A candidate with a one-config grid tunes nothing, so its estimate is simply its mean; a
larger grid must beat that by more than noise to be worth its knob. BM25 is scored on the same
held-out queries, so each fold and the mean carry a ratio against it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from legal_rag.retrieval.evaluate import QueryRuns, average_precision, fused_run, single_run
from legal_rag.retrieval.hybrid import Fusion, FusionConfig


@dataclass(frozen=True, slots=True)
class Candidate:
    name: str
    grid: tuple[FusionConfig, ...]
    """The settings chosen among on each fold's training queries (simplest first: it wins ties)."""


@dataclass(frozen=True, slots=True)
class Fold:
    queries: tuple[str, ...]
    """The held-out queries."""
    bm25: float
    """BM25 MAP on them."""
    hybrid: dict[str, float]
    """Per candidate, MAP on them of the setting chosen on the other folds."""
    chosen: dict[str, FusionConfig]


@dataclass(frozen=True, slots=True)
class CVReport:
    folds: tuple[Fold, ...]
    candidates: tuple[str, ...]

    @property
    def bm25(self) -> float:
        return _mean([f.bm25 for f in self.folds])

    def hybrid(self, candidate: str) -> float:
        """Mean held-out-fold MAP of ``candidate``."""
        return _mean([f.hybrid[candidate] for f in self.folds])

    def ratio(self, candidate: str) -> float:
        """Mean held-out MAP over BM25's on the same folds (0 when BM25 finds nothing)."""
        return self.hybrid(candidate) / self.bm25 if self.bm25 else 0.0

    def as_dict(self) -> dict[str, object]:
        return {
            "folds": [{"queries": list(f.queries), "bm25": f.bm25, "hybrid": f.hybrid,
                       "chosen": {c: describe(cfg) for c, cfg in f.chosen.items()}} for f in self.folds],
            "mean": {c: {"bm25": round(self.bm25, 4), "hybrid": round(self.hybrid(c), 4),
                         "ratio": round(self.ratio(c), 3)} for c in self.candidates},
        }  # fmt: skip


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def folds(query_ids: Sequence[str], k: int) -> list[tuple[str, ...]]:
    """``k`` folds, query ``i`` in fold ``i % k`` (``k`` at or above the number of queries: leave one out).

    Raises:
        ValueError: fewer than two folds.
    """
    k = min(k, len(query_ids))
    if k < 2:
        raise ValueError(f"cross-validation needs at least two folds, got {k}")
    return [tuple(q for i, q in enumerate(query_ids) if i % k == f) for f in range(k)]


def cross_validate(
    runs: QueryRuns, queries: dict[str, str], qrels: dict[str, dict[str, int]], candidates: Sequence[Candidate],
    k: int,
) -> CVReport:
    """Score each candidate by ``k``-fold cross-validation over the judged queries in ``runs``."""
    ids = [q for q in qrels if q in runs and any(r > 0 for r in qrels[q].values())]
    maps: dict[int, dict[str, float]] = {}  # id(config) -> per-query AP, computed once per config

    def per_query(cfg: FusionConfig) -> dict[str, float]:
        if id(cfg) not in maps:
            ranked = fused_run(runs, queries, cfg)
            maps[id(cfg)] = {q: average_precision(ranked[q], qrels[q]) for q in ids}
        return maps[id(cfg)]

    bm25 = single_run(runs, "bm25")
    out = []
    for held in folds(ids, k):
        train = [q for q in ids if q not in held]
        chosen = {c.name: max(c.grid, key=lambda g: sum(per_query(g)[q] for q in train)) for c in candidates}
        out.append(Fold(
            queries=held,
            bm25=_mean([average_precision(bm25[q], qrels[q]) for q in held]),
            hybrid={name: _mean([per_query(cfg)[q] for q in held]) for name, cfg in chosen.items()},
            chosen=chosen,
        ))  # fmt: skip
    return CVReport(tuple(out), tuple(c.name for c in candidates))


def describe(cfg: FusionConfig) -> str:
    """ "minmax bm25=1 dense=2 offence=1" (the long-query weights, which fact descriptions use)."""
    weights = cfg.long_weights if cfg.long_weights is not None else cfg.weights
    k = f" k={cfg.rrf_k}" if cfg.method is Fusion.RRF else ""
    return f"{cfg.method.value}{k} " + " ".join(f"{n}={w:g}" for n, w in weights.items() if w)


def _long(base: FusionConfig, method: Fusion, **weights: float) -> FusionConfig:
    return replace(base, method=method, long_weights=dict(weights))


def default_candidates(base: FusionConfig | None = None) -> tuple[Candidate, ...]:
    """The candidates ``--cv`` compares: fixed settings and one- or two-knob grids over the weights
    for long queries (fact descriptions; the weights for questions are kept as ``base`` has them).
    "mm" is min-max fusion, "a:b:c" the BM25:dense:offence weights, "w" a weight tuned per fold."""
    b = base or FusionConfig()
    mm, rrf = Fusion.MINMAX, Fusion.RRF
    dense_w = (0.5, 1.0, 2.0, 4.0)
    offence_w = (0.0, 0.5, 1.0, 2.0)
    return (
        Candidate("configured", (b,)),
        Candidate("mm 1:1", (_long(b, mm, bm25=1, dense=1),)),
        Candidate("mm 1:2", (_long(b, mm, bm25=1, dense=2),)),
        Candidate("rrf 1:1", (_long(b, rrf, bm25=1, dense=1),)),
        Candidate("mm dense w", tuple(_long(b, mm, bm25=1, dense=w) for w in dense_w)),
        Candidate("rrf dense w", tuple(_long(b, rrf, bm25=1, dense=w) for w in (*dense_w, 8.0))),
        Candidate("mm 1:1:1 +off", (_long(b, mm, bm25=1, dense=1, offence=1),)),
        Candidate("mm 1:2:1 +off", (_long(b, mm, bm25=1, dense=2, offence=1),)),
        Candidate("mm 1:2:2 +off", (_long(b, mm, bm25=1, dense=2, offence=2),)),
        Candidate("mm 1:2 off w", tuple(_long(b, mm, bm25=1, dense=2, offence=w) for w in offence_w)),
        Candidate("mm dense w, off w",
                  tuple(_long(b, mm, bm25=1, dense=d, offence=o) for d in dense_w for o in offence_w)),
    )  # fmt: skip
