"""The section ranker: a learnt order of the whole index's first sections for a search.

Hybrid retrieval fuses its runs (BM25, dense, lay, offence) with fixed weights. The evidence to order its first
sections better is already in the runs: where each run placed a section and how strongly, how many of its chunks they
reached, whether its Act is the one the list leans to, whether it punishes. ``LinearSectionRanker`` is a logistic model
over those properties (``FEATURES``; none names an Act or section), trained on CPU from labelled development questions
(``legal-rag eval train-ranker``), cross-validated holding out a whole question set at a time (each set had its own
writer), and shipped as a small JSON file with its card (``data/retrieval/section_ranker.json``). What it gains, on
development and held-out sets, and why the ask workflow does not use it: docs/evaluation.md (twentieth session).

It re-orders only the first ``DEPTH`` sections of a search of the whole index on a day the new criminal codes were in
force (what it was trained on): provisions the query names stay pinned first; a search confined to some Acts or
statuses, or over history, keeps the fused order.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from graph_schema.errors import ConfigurationError
from legal_rag.model_files import building, read_model, write_model

FEATURES: tuple[str, ...] = (
    "fused_rank",  # 1 / (fused rank + 1)
    "bm25_norm",  # BM25 score, min-max scaled within its run (0 when BM25 did not reach the section)
    "bm25_rank",  # 1 / (BM25 rank + 1)
    "dense",  # dense cosine (whole query to text, or a query sentence to the heading); the run's last when not reached
    "dense_rank",  # 1 / (dense rank + 1)
    "dense_gap",  # dense cosine less the run's best
    "lay",  # the lay channel's absolute score (0 when it did not reach the section)
    "act_share10",  # share of the first ten sections from the section's Act
    "act_mass",  # share of the candidates' fused score held by the section's Act
    "act_named",  # the question names the section's Act
    "chunks",  # log(1 + chunks of the section reached by BM25 and dense)
    "definition",  # the heading is a definitions heading
    "penal",  # the section's best chunk punishes ("punish")
    "long",  # log(1 + words of the query)
    "act_rank",  # 1 / (rank of the section's Act by summed 1/(rank+1) of its sections + 1)
    "rank_in_act",  # 1 / (place of the section among its Act's candidates)
    "near_top",  # within three section numbers of the first fused section, same Act
)

INTERACTIONS: tuple[tuple[str, str], ...] = (("dense", "long"), ("bm25_norm", "long"), ("lay", "long"))
"""Products added to the features: how much a run counts depends on the query's length (BM25 sums over every word of a
long story; the lay channel is made for stories)."""

DEPTH = 40
"""How many fused sections the ranker re-orders. The features of a section depend on the list around it (its Act's
share, its place among its Act's), so a model is used only at the depth it was trained at."""

_NUMBER = re.compile(r"\d+")


@dataclass(frozen=True, slots=True)
class SectionEvidence:
    """What retrieval knows of one fused candidate section, the input of ``features``."""

    act: str
    section: str
    fused_rank: int
    fused: float
    bm25: tuple[int, float] | None
    """(rank, min-max scaled score) in the BM25 section run, None when not reached."""
    dense: tuple[int, float] | None
    """(rank, cosine) in the dense section run, None when not reached."""
    lay: float | None
    chunks: int
    heading: str
    text: str


def features(candidates: Sequence[SectionEvidence], *, query: str, named_acts: frozenset[str], dense_floor: float,
             dense_top: float) -> list[dict[str, float]]:
    """Each candidate's ``FEATURES`` (in the order given, which is the fused order)."""
    if not candidates:
        return []
    acts = [c.act for c in candidates]
    top10 = acts[:10]
    mass_total = sum(c.fused for c in candidates) or 1.0
    mass: dict[str, float] = {}
    votes: dict[str, float] = {}
    for c in candidates:
        mass[c.act] = mass.get(c.act, 0.0) + c.fused
        votes[c.act] = votes.get(c.act, 0.0) + 1.0 / (c.fused_rank + 1)
    act_rank = {a: i for i, a in enumerate(sorted(votes, key=lambda a: (-votes[a], a)))}
    top = candidates[0]
    top_number = _number(top.section)
    seen: dict[str, int] = {}
    longq = math.log1p(len(query.split()))
    out = []
    for c in candidates:
        seen[c.act] = seen.get(c.act, 0) + 1
        n = _number(c.section)
        cosine = c.dense[1] if c.dense else dense_floor
        out.append({
            "fused_rank": 1.0 / (c.fused_rank + 1),
            "bm25_norm": c.bm25[1] if c.bm25 else 0.0,
            "bm25_rank": 1.0 / (c.bm25[0] + 1) if c.bm25 else 0.0,
            "dense": cosine,
            "dense_rank": 1.0 / (c.dense[0] + 1) if c.dense else 0.0,
            "dense_gap": cosine - dense_top,
            "lay": c.lay or 0.0,
            "act_share10": top10.count(c.act) / len(top10),
            "act_mass": mass[c.act] / mass_total,
            "act_named": float(c.act in named_acts),
            "chunks": math.log1p(c.chunks),
            "definition": float("definition" in c.heading.lower()),
            "penal": float("punish" in c.text.lower()),
            "long": longq,
            "act_rank": 1.0 / (act_rank[c.act] + 1),
            "rank_in_act": 1.0 / seen[c.act],
            "near_top": float(c.act == top.act and n is not None and top_number is not None
                              and 0 < abs(n - top_number) <= 3),
        })  # fmt: skip
    return out


def _number(section: str) -> int | None:
    m = _NUMBER.match(section)
    return int(m.group()) if m else None


def design(rows: Sequence[Mapping[str, float]]) -> npt.NDArray[np.float64]:
    """The model's inputs: ``FEATURES`` then the ``INTERACTIONS`` products; a missing feature is an error."""
    missing = sorted({f for r in rows for f in FEATURES if f not in r})
    if missing:
        raise ValueError(f"features missing: {missing}")
    return np.array([[float(r[f]) for f in FEATURES] + [float(r[a]) * float(r[b]) for a, b in INTERACTIONS]
                     for r in rows], dtype=np.float64).reshape(len(rows), len(FEATURES) + len(INTERACTIONS))


class SectionRanker(Protocol):
    """Scores candidate sections from their feature rows; higher is better."""

    name: str

    def scores(self, rows: Sequence[Mapping[str, float]]) -> list[float]: ...


@dataclass(slots=True)
class LinearSectionRanker:
    """Logistic over standardised inputs (``design``): ``z = bias + sum(w * (x - mean) / scale)``."""

    weights: tuple[float, ...]
    bias: float
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    features: tuple[str, ...] = FEATURES
    interactions: tuple[tuple[str, str], ...] = INTERACTIONS
    depth: int = DEPTH
    version: str = "1"
    card: dict[str, Any] = field(default_factory=dict)
    name: str = "linear-section-ranker"

    def __post_init__(self) -> None:
        if tuple(self.features) != FEATURES or tuple(tuple(p) for p in self.interactions) != INTERACTIONS:
            raise ConfigurationError(
                f"section ranker was trained on features {list(self.features)} and products "
                f"{[list(p) for p in self.interactions]}; this version computes {list(FEATURES)} and "
                f"{[list(p) for p in INTERACTIONS]}: retrain it (legal-rag eval train-ranker)"
            )
        n = len(FEATURES) + len(INTERACTIONS)
        if not (len(self.weights) == len(self.mean) == len(self.scale) == n):
            raise ConfigurationError(f"section ranker: {len(self.weights)} weights, {len(self.mean)} means, "
                                     f"{len(self.scale)} scales for {n} inputs")
        if any(s <= 0 or not math.isfinite(s) for s in self.scale) or not all(
                math.isfinite(x) for x in (*self.weights, *self.mean, self.bias)):
            raise ConfigurationError("section ranker: weights, means and scales must be finite, scales positive")
        if self.depth != DEPTH:
            raise ConfigurationError(f"section ranker was trained on the first {self.depth} sections; this version "
                                     f"ranks the first {DEPTH}: retrain it (legal-rag eval train-ranker)")

    def scores(self, rows: Sequence[Mapping[str, float]]) -> list[float]:
        if not rows:
            return []
        z = (design(rows) - np.array(self.mean)) / np.array(self.scale) @ np.array(self.weights) + self.bias
        return [float(v) for v in z]

    def save(self, path: Path) -> None:
        """Written whole or not at all (``model_files.write_model``)."""
        write_model(path, asdict(self))

    @classmethod
    def load(cls, path: Path) -> LinearSectionRanker:
        """Raises ``ConfigurationError`` naming the file for a missing, unreadable or malformed model."""
        doc = read_model(path, "section ranker")
        with building(path, "section ranker"):
            return cls(
                weights=tuple(float(x) for x in doc["weights"]), bias=float(doc["bias"]),
                mean=tuple(float(x) for x in doc["mean"]), scale=tuple(float(x) for x in doc["scale"]),
                features=tuple(str(x) for x in doc["features"]),
                interactions=tuple((str(a), str(b)) for a, b in doc["interactions"]),
                depth=int(doc["depth"]), version=str(doc.get("version", "1")),
                card=dict(doc.get("card", {})),
            )  # fmt: skip


class RankerFile:
    """A ``LinearSectionRanker`` read from its file on first use, not when the retriever is built: a missing or
    broken file stops the searches that rank (naming the file), never an ask, a job or the API, which do not."""

    name = "linear-section-ranker"

    def __init__(self, path: Path) -> None:
        self.path = path
        self._model: LinearSectionRanker | None = None
        self._lock = threading.Lock()

    def model(self) -> LinearSectionRanker:
        """Raises ``ConfigurationError`` naming the file (and how to turn the ranker off)."""
        with self._lock:
            if self._model is None:
                try:
                    self._model = LinearSectionRanker.load(self.path)
                except ConfigurationError as exc:
                    raise ConfigurationError(f"{exc} (LEGAL_RAG_RETRIEVAL__SECTION_RANKER=off keeps the fused "
                                             "order)") from exc
            return self._model

    def scores(self, rows: Sequence[Mapping[str, float]]) -> list[float]:
        return self.model().scores(rows)


def fit(rows: Sequence[Mapping[str, float]], labels: Sequence[int], *, l2: float = 1.0,
        iterations: int = 50) -> LinearSectionRanker:
    """Logistic regression by Newton's method with an L2 penalty (the bias is not penalised).

    Raises:
        ValueError: no rows, rows and labels of different lengths, or labels of one class only.
    """
    if not rows or len(rows) != len(labels):
        raise ValueError(f"{len(rows)} candidate rows and {len(labels)} labels: need as many, and some")
    y = np.array(labels, dtype=np.float64)
    if y.min() == y.max():
        raise ValueError("every candidate has the same label: nothing to learn which sections are expected from")
    x = design(rows)
    mean, scale = x.mean(0), x.std(0)
    scale[scale == 0] = 1.0
    z = np.hstack([np.ones((len(x), 1)), (x - mean) / scale])
    w = np.zeros(z.shape[1])
    penalty = l2 * np.diag(np.r_[0.0, np.ones(len(w) - 1)])
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ w, -30, 30)))
        step = np.linalg.solve((z * (p * (1 - p))[:, None]).T @ z + penalty, z.T @ (p - y) + penalty @ w)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return LinearSectionRanker(weights=tuple(float(v) for v in w[1:]), bias=float(w[0]),
                               mean=tuple(float(v) for v in mean), scale=tuple(float(v) for v in scale))


OLD_CODES = frozenset({"IPC", "CRPC", "IEA"})
"""Expected provisions of the repealed codes are not ranker labels: the whole-index search runs on today's law and the
old codes are reached through the new codes' correspondence (the workflow's savings steps)."""

RECALL_AT: tuple[int, ...] = (1, 3, 5, 8, 10)


@dataclass(frozen=True, slots=True)
class LabelledQuestion:
    """A question of a labelled set, its expected provisions ("ACT:section") and the ranker's candidates for it."""

    source: str
    """The set it came from: the unit cross-validation holds out."""
    qid: str
    expected: frozenset[str]
    """Its expected provisions of today's law that it does not name (those it names are pinned, never ranked)."""
    candidates: tuple[tuple[str, Mapping[str, float]], ...]


def _found(question: LabelledQuestion, order: Sequence[int], k: int) -> int:
    return sum(1 for i in order[:k] if question.candidates[i][0] in question.expected)


def cross_validate(questions: Sequence[LabelledQuestion], *, l2: float = 1.0) -> dict[str, Any]:
    """Leave one set out: a model fitted on the other sets re-orders each held-out set's candidates. Reports, over
    every expected provision, the share found within the first k in the fused order and in the model's.

    Raises:
        ValueError: fewer than two sets, or a training fold the fit refuses.
    """
    sources = sorted({q.source for q in questions})
    if len(sources) < 2:
        raise ValueError(f"cross-validation holds out one set at a time: {len(sources)} set given, need two or more")
    expected = sum(len(q.expected) for q in questions)
    fused = dict.fromkeys(RECALL_AT, 0)
    model = dict.fromkeys(RECALL_AT, 0)
    for held in sources:
        train = [q for q in questions if q.source != held]
        ranker = fit([row for q in train for _, row in q.candidates],
                     [int(key in q.expected) for q in train for key, _ in q.candidates], l2=l2)
        for q in questions:
            if q.source != held or not q.candidates:
                continue
            scores = ranker.scores([row for _, row in q.candidates])
            ranked = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
            for k in RECALL_AT:
                fused[k] += _found(q, range(len(scores)), k)
                model[k] += _found(q, ranked, k)

    def share(n: int) -> float:
        return round(n / expected, 4) if expected else 0.0

    return {"held_out": "one set at a time", "sets": sources, "expected": expected,
            "fused_recall": {f"@{k}": share(fused[k]) for k in RECALL_AT},
            "model_recall": {f"@{k}": share(model[k]) for k in RECALL_AT}}


KEEP_AT = 8
"""A trained ranker is kept only if, held out, it finds more expected provisions within the first ``KEEP_AT`` sections
than the fused order does (the sections a STANDARD answer's generator sees)."""


def train(questions: Sequence[LabelledQuestion], *, l2: float = 1.0) -> LinearSectionRanker:
    """The ranker fitted on every question, its card holding the cross-validation it was chosen by.

    Raises:
        ValueError: ``l2`` negative or not finite; fewer than two sets; held out, the model finds no more expected
            provisions within the first ``KEEP_AT`` sections than the fused order (it is not worth shipping).
    """
    if not (math.isfinite(l2) and l2 >= 0):
        raise ValueError(f"--l2 must be a finite number, 0 or more, got {l2}")
    usable = [q for q in questions if q.candidates and q.expected]
    cv = cross_validate(usable, l2=l2)
    at = f"@{KEEP_AT}"
    if cv["model_recall"][at] <= cv["fused_recall"][at]:
        raise ValueError(f"held out one set at a time, the ranker finds {cv['model_recall'][at]:.1%} of the expected "
                         f"provisions within the first {KEEP_AT} sections against {cv['fused_recall'][at]:.1%} in the "
                         "fused order: no better, so no model was written")
    ranker = fit([row for q in usable for _, row in q.candidates],
                 [int(key in q.expected) for q in usable for key, _ in q.candidates], l2=l2)
    ranker.card = {
        "trained_on": cv["sets"], "questions": len(usable),
        "candidates": sum(len(q.candidates) for q in usable),
        "relevant_candidates": sum(1 for q in usable for key, _ in q.candidates if key in q.expected),
        "l2": l2, "depth": DEPTH, "cross_validation": cv,
    }
    return ranker

