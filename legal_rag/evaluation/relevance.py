"""Training the provision relevance model (``legal_rag.workflow.relevance``) on CPU.

The examples are the generator's own decisions: each labelled question is asked through the product, the
extractive generator reports the provisions it could quote with their features (``Decision``), and a provision is
relevant when the question's labels expect it cited. Only development questions train (never a held-out split or
a sealed set: ``train`` refuses them).

Hyper-parameters (the L2 strength and the quoting threshold) are chosen by cross-validation over folds that
hold out whole Acts: every question is placed in the fold of the Act its first expected provision belongs to, so a
fold's questions are about Acts the model did not see in training. The choice is scored as the generator uses the
model: per question, the ``places`` best candidates at or above the threshold are quoted, and a question is
covered when every expected provision that retrieval brought is quoted. The threshold kept is the one that leaves
out most provisions that bear on nothing while covering at least as many questions as the hand-weighted ranking.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from scipy.optimize import minimize

from graph_schema.model import main_section
from legal_rag.evaluation.answers import LabelledQuestion
from legal_rag.retrieval.asked import normalised
from legal_rag.workflow.relevance import FEATURES, MODES, Decision, LinearRelevance, choose

_Q = TypeVar("_Q")

L2_GRID = (0.01, 0.1, 1.0, 10.0)
THRESHOLD_GRID = tuple(round(x, 2) for x in np.arange(0.0, 0.81, 0.02))
FOLDS = 5


@dataclass(frozen=True, slots=True)
class Example:
    """One question's decision and which of its candidates the labels expect."""

    question_id: str
    group: str
    """The Act the question's first expected provision belongs to: its cross-validation fold key."""
    decision: Decision
    labels: tuple[bool | None, ...]
    """Per candidate: relevant, not relevant, or None (unknown: neither trained on nor scored)."""
    scored: bool = True
    """Whether cross-validation scores the example (a labelled question); a flag's example only trains."""


def examples(pairs: Sequence[tuple[LabelledQuestion, Decision]], *, scored: bool = True) -> list[Example]:
    """Label each decision's candidates by the question's ``expect_cited`` (a question with none, an unanswerable
    or false-premise one, labels every candidate irrelevant). ``scored``: cross-validation scores them (False for
    questions that only train, such as a built dataset's)."""
    out = []
    for q, d in pairs:
        want = {(act, main_section(section)) for act, section in q.expect_cited}
        labels = tuple((c.act, main_section(c.section)) in want for c in d.candidates)
        group = q.expect_cited[0][0] if q.expect_cited else "(none)"
        out.append(Example(q.id, group, d, labels, scored=scored))
    return out


_BUILT_QUESTION = re.compile(r"\n\nQuestion: (.+?)\n\n", re.S)


def built_questions(directory: Path, limit: int) -> list[LabelledQuestion]:
    """Up to ``limit`` questions of a built Finetune-RAG dataset's training split (``sft/train.jsonl``, evenly
    spread over its rows), each labelled with the provisions its row answers from, on the row's date.

    Raises:
        ValueError: no such file, or a row that is not a built SFT row (the message names the line).
    """
    path = directory / "sft" / "train.jsonl"
    if not path.is_file():
        raise ValueError(f"{directory} holds no built dataset ({path.relative_to(directory)} is missing)")
    rows = path.read_text(encoding="utf-8").splitlines()
    step = max(1, len(rows) // max(1, limit))
    out = []
    for n in range(0, len(rows), step):
        try:
            row = json.loads(rows[n])
            m = _BUILT_QUESTION.search(row["messages"][1]["content"])
            if m is None:
                raise ValueError("its user turn has no 'Question:' paragraph")
            cited = tuple((str(p["act"]), str(p["section"])) for p in row["provisions"])
            out.append(LabelledQuestion(str(row["id"]), m.group(1).strip(), str(row["as_of"]), cited,
                                        split="built"))
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise ValueError(f"{path}:{n + 1}: not a built SFT row: {exc}") from exc
        if len(out) >= limit:
            break
    return out


def collect(ask: Callable[[_Q], None], generator: Any, questions: Sequence[_Q]) -> list[tuple[_Q, Decision]]:
    """Ask each question (``ask``) with ``generator.recorder`` set, keeping the first generation's decision (a
    regeneration after a failed check sees the same candidates)."""
    pairs: list[tuple[_Q, Decision]] = []
    seen: list[Decision] = []
    previous = generator.recorder
    generator.recorder = seen.append
    try:
        for q in questions:
            seen.clear()
            ask(q)
            if seen:
                pairs.append((q, seen[0]))
    finally:
        generator.recorder = previous
    return pairs


def _fit(x: np.ndarray, y: np.ndarray, l2: float) -> tuple[np.ndarray, float]:
    """L2-regularised logistic regression on standardised ``x`` (L-BFGS); classes weighted to balance."""
    pos = max(1.0, float(y.sum()))
    neg = max(1.0, float(len(y) - y.sum()))
    w_row = np.where(y > 0, len(y) / (2 * pos), len(y) / (2 * neg))

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        w, b = theta[:-1], theta[-1]
        z = x @ w + b
        p = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
        eps = 1e-12
        ll = -np.sum(w_row * (y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps))) / len(y)
        g = w_row * (p - y) / len(y)
        grad = np.concatenate([x.T @ g + l2 * w / len(y), [g.sum()]])
        return float(ll + 0.5 * l2 * float(w @ w) / len(y)), grad

    res = minimize(loss, np.zeros(x.shape[1] + 1), jac=True, method="L-BFGS-B")
    return res.x[:-1], float(res.x[-1])


def _matrix(exs: Sequence[Example]) -> tuple[np.ndarray, np.ndarray]:
    known = [(c.features, v) for e in exs for c, v in zip(e.decision.candidates, e.labels, strict=True)
             if v is not None]
    rows = [f for f, _ in known]
    labels = [float(v) for _, v in known]
    return np.asarray(rows, dtype=float).reshape(-1, len(FEATURES)), np.asarray(labels)


def train_model(exs: Sequence[Example], l2: float, threshold: float) -> LinearRelevance:
    x, y = _matrix(exs)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    w, b = _fit((x - mean) / scale, y, l2)
    return LinearRelevance(weights=tuple(float(v) for v in w), bias=b, mean=tuple(float(v) for v in mean),
                           scale=tuple(float(v) for v in scale), threshold=threshold)


@dataclass(frozen=True, slots=True)
class Selection:
    """How a ranking quotes over a set of questions: questions covered (every expected provision retrieval
    brought is quoted), and provisions quoted that no label expects, per question."""

    questions: int
    covered: int
    unexpected_per_question: float
    expected_quoted: int
    expected_available: int

    def as_dict(self) -> dict[str, Any]:
        return {"questions": self.questions, "covered": self.covered,
                "unexpected_per_question": round(self.unexpected_per_question, 3),
                "expected_quoted": self.expected_quoted, "expected_available": self.expected_available}


def select(exs: Sequence[Example], probs: Sequence[Sequence[float]] | None, threshold: float | None,
           mode: str = "gate") -> Selection:
    """Quote each question's ``places`` best candidates as the generator does (``choose``): without ``probs``,
    the hand-weighted order; with them, by ``mode`` and ``threshold``."""
    covered = unexpected = quoted = available = 0
    for i, e in enumerate(exs):
        p = None if probs is None else probs[i]
        chosen = set(choose(_hand(e), p, threshold, mode, placed_first=bool(e.decision.first))[: e.decision.places])
        want = {j for j, v in enumerate(e.labels) if v}
        first = {(a, main_section(s_)) for a, s_ in e.decision.first}
        want_open = {j for j in want if (e.decision.candidates[j].act,
                                         main_section(e.decision.candidates[j].section)) not in first}
        covered += want_open <= chosen
        quoted += len(want_open & chosen)
        available += len(want_open)
        unexpected += len(chosen - want)
    n = len(exs) or 1
    return Selection(len(exs), covered, unexpected / n, quoted, available)


def _hand(e: Example) -> list[float]:
    return [c.hand_score for c in e.decision.candidates]


def _folds(exs: Sequence[Example], k: int) -> list[list[int]]:
    """Questions grouped by Act; the groups dealt, largest first, to the fold with fewest questions."""
    groups: dict[str, list[int]] = {}
    for i, e in enumerate(exs):
        groups.setdefault(e.group, []).append(i)
    folds: list[list[int]] = [[] for _ in range(k)]
    for _, idx in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        min(folds, key=len).extend(idx)
    return [f for f in folds if f]


def _auc(scores: Sequence[float], labels: Sequence[bool]) -> float | None:
    pos = [s for s, v in zip(scores, labels, strict=True) if v]
    neg = [s for s, v in zip(scores, labels, strict=True) if not v]
    if not pos or not neg:
        return None
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


@dataclass(frozen=True, slots=True)
class TrainingReport:
    model: LinearRelevance
    cv_model: Selection
    cv_hand: Selection


def cross_validate_and_train(exs: Sequence[Example], sources: Sequence[str], k: int = FOLDS,
                             card: Mapping[str, Any] | None = None) -> TrainingReport:
    """Choose ``(l2, threshold, mode)`` on folds that hold out Acts, then train on everything with them.

    Only ``scored`` examples (labelled questions) are dealt to folds and score a choice; the others (flags, a built
    dataset's questions) join the training of every fold that holds neither their Act (``group``) nor their
    question. ``card`` adds entries to the model's card.

    Raises:
        ValueError: no labelled example, or no candidate the labels expect (nothing to learn from).
    """
    scored = [e for e in exs if e.scored]
    extra = [e for e in exs if not e.scored]
    if not scored:
        raise ValueError("no training questions produced a decision")
    if not any(v for e in scored for v in e.labels):
        raise ValueError("no retrieved candidate is expected by the labels: nothing to learn from")
    folds = _folds(scored, k)
    # out-of-fold probabilities per l2
    oof: dict[float, list[list[float]]] = {}
    for l2 in L2_GRID:
        probs: list[list[float]] = [[] for _ in scored]
        for held in folds:
            held_set = set(held)
            held_questions = {normalised(scored[i].decision.question) for i in held}
            held_groups = {scored[i].group for i in held}
            train = [e for i, e in enumerate(scored) if i not in held_set]
            # an extra example about a held-out Act, or on a held-out question, stays out of this fold's training
            train += [e for e in extra
                      if e.group not in held_groups and normalised(e.decision.question) not in held_questions]
            if not any(v for e in train for v in e.labels):
                continue
            m = train_model(train, l2, 0.0)
            for i in held:
                probs[i] = [m.probability(c.features) for c in scored[i].decision.candidates]
        oof[l2] = probs
    hand_all = select(scored, None, None)
    best: tuple[tuple[float, ...], float, float, str, Selection] | None = None
    for l2, probs in oof.items():
        for mode in MODES:
            for t in THRESHOLD_GRID:
                sel = select(scored, probs, t, mode)
                # every expected provision the hand ranking quotes, then the fewest unexpected provisions
                ok = sel.expected_quoted >= hand_all.expected_quoted and sel.covered >= hand_all.covered
                key = (float(ok), -sel.unexpected_per_question if ok else float(sel.expected_quoted))
                if best is None or key > best[0]:
                    best = (key, l2, t, mode, sel)
    assert best is not None
    _, l2, t, mode, sel = best
    flat_p = [p for ps in oof[l2] for p in ps]
    flat_y = [bool(v) for e in scored for v in e.labels]
    flat_h = [h for e in scored for h in _hand(e)]
    model = train_model(scored + extra, l2, t)
    model.mode = mode
    positives = sum(1 for v in flat_y if v)
    extra_labels = [v for e in extra for v in e.labels if v is not None]
    model.card = {
        "trained": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "sources": list(sources),
        "questions": len(scored),
        "candidates": len(flat_y),
        "relevant_candidates": positives,
        "flag_examples": {"answers": len(extra), "candidates_labelled": len(extra_labels),
                          "not_relevant": sum(1 for v in extra_labels if not v),
                          "relevant": sum(1 for v in extra_labels if v)},
        "acts_in_folds": sorted({e.group for e in scored}),
        "folds": len(folds),
        "l2": l2,
        "threshold": t,
        "mode": mode,
        "cross_validation": {
            "by": "Act of the first expected provision (a fold's Acts are unseen in training)",
            "model": sel.as_dict(),
            "hand_weighted": hand_all.as_dict(),
            "auc_model": _round(_auc(flat_p, flat_y)),
            "auc_hand_weighted": _round(_auc(flat_h, flat_y)),
        },
        "weights": {f: round(w, 4) for f, w in zip(FEATURES, model.weights, strict=True)},
        "intended_use": "rank and gate the retrieved provisions the offline extractive generator quotes",
        **(card or {}),
    }
    return TrainingReport(model, sel, hand_all)


@dataclass(frozen=True, slots=True)
class RelevanceTraining:
    """A trained model, where it was written, and the flags that could not be used (flag, answer, reason)."""

    report: TrainingReport
    path: Path
    skipped: list[dict[str, str]]


_VERSION = re.compile(r"^relevance-v(\d+)\.json$")


def _version_files(directory: Path) -> list[tuple[int, Path]]:
    """The ``relevance-v<N>.json`` files in ``directory`` with their N, lowest first."""
    return sorted((int(m.group(1)), f) for f in directory.iterdir() if (m := _VERSION.match(f.name)))


def versioned(directory: Path) -> tuple[Path, int]:
    """The next version's file in ``directory``: ``relevance-v<N>.json``, N one above the highest there."""
    version = max((n for n, _ in _version_files(directory)), default=0) + 1
    return directory / f"relevance-v{version}.json", version


@dataclass(frozen=True, slots=True)
class ModelVersion:
    """One written relevance model: its file, its card and whether the product answers with it."""

    path: Path
    version: int
    card: dict[str, Any]
    active: bool

    def as_dict(self) -> dict[str, Any]:
        cv = self.card.get("cross_validation", {})
        flags = self.card.get("flags", {})
        return {"version": self.version, "path": str(self.path), "active": self.active,
                "trained": self.card.get("trained"), "questions": self.card.get("questions"),
                "flags_used": flags.get("used", 0), "flag_labels": flags.get("labels", []),
                "mode": self.card.get("mode"), "threshold": self.card.get("threshold"),
                "cv_unexpected_per_question": cv.get("model", {}).get("unexpected_per_question"),
                "cv_covered": cv.get("model", {}).get("covered")}


def versions(directory: Path, active: Path | None) -> list[ModelVersion]:
    """The models written as versions in ``directory``, oldest first; ``active``: the file the product answers
    with (``workflow.relevance_model``).

    Raises:
        ConfigurationError: a version file that cannot be read (naming it).
    """
    if not directory.is_dir():
        return []
    live = active.resolve() if active is not None else None
    return [ModelVersion(f, n, LinearRelevance.load(f).card, f.resolve() == live) for n, f in _version_files(directory)]


def measuring_questions(directory: Path) -> set[str]:
    """The questions (normalised) of the evaluation sets in ``directory`` that measure the model: every row of a
    sealed set or of a set its held-out list names (``answers.HELD_OUT_LIST``), and the held-out split's rows of the
    others. A flag or built question among them never trains it.

    Raises:
        ValueError: a file that cannot be read (naming it).
    """
    from legal_rag.evaluation.answers import held_out_sets, is_sealed

    out: set[str] = set()
    held = held_out_sets(directory)
    for path in sorted(directory.glob("*.jsonl")):
        measures = is_sealed(path) or path.name in held
        try:
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    row = json.loads(line)
                    if measures or row.get("split") == "heldout":
                        out.add(normalised(str(row.get("question", ""))))
        except (OSError, ValueError, AttributeError) as exc:
            raise ValueError(f"{path}: {exc}") from exc
    return out


def _round(x: float | None) -> float | None:
    return None if x is None or math.isnan(x) else round(x, 4)
