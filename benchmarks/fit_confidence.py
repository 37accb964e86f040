"""Refit the confidence model's weights from an answer evaluation, choosing nothing on the held-out split.

    legal-rag eval answers --json > /tmp/answers.json
    python benchmarks/fit_confidence.py /tmp/answers.json [--l2 1.0] [--folds 5]

Fits an L2-regularised logistic regression of "fully right" on the confidence factors of the ``dev`` split,
prints the 5-fold cross-validated AUROC and ECE on that split (the number used to choose factors), the
coefficients to paste into ``legal_rag/workflow/confidence.py``, and then, once, AUROC and ECE on ``heldout``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from legal_rag.evaluation.answers import auroc, expected_calibration_error  # noqa: E402
from legal_rag.workflow.confidence import WEIGHTS  # noqa: E402


def fit(
    xs: list[list[float]], ys: list[bool], l2: float, steps: int = 4000, lr: float = 0.5
) -> tuple[list[float], float]:
    """Gradient descent on the mean log loss plus ``l2 * |w|^2 / 2n`` (the intercept is not penalised)."""
    n, d = len(xs), len(xs[0])
    w, b = [0.0] * d, 0.0
    for _ in range(steps):
        gw, gb = [l2 * wi / n for wi in w], 0.0
        for x, y in zip(xs, ys, strict=True):
            p = 1 / (1 + math.exp(-(b + sum(wi * xi for wi, xi in zip(w, x, strict=True)))))
            for i in range(d):
                gw[i] += (p - y) * x[i] / n
            gb += (p - y) / n
        w = [wi - lr * g for wi, g in zip(w, gw, strict=True)]
        b -= lr * gb
    return w, b


def predict(w: list[float], b: float, x: list[float]) -> float:
    return 1 / (1 + math.exp(-(b + sum(wi * xi for wi, xi in zip(w, x, strict=True)))))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("report", type=Path)
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--folds", type=int, default=5)
    args = ap.parse_args()
    rows = json.loads(args.report.read_text(encoding="utf-8"))["questions"]
    names = list(WEIGHTS)
    split = {s: [r for r in rows if r["split"] == s] for s in ("dev", "heldout")}
    xs = [[r["factors"][k] for k in names] for r in split["dev"]]
    ys = [bool(r["fully_right"]) for r in split["dev"]]
    order = list(range(len(xs)))
    random.Random(0).shuffle(order)
    cv = [0.0] * len(xs)
    for k in range(args.folds):
        test = set(order[k :: args.folds])
        w, b = fit([x for i, x in enumerate(xs) if i not in test], [y for i, y in enumerate(ys) if i not in test],
                   args.l2)
        for i in test:
            cv[i] = predict(w, b, xs[i])
    print(f"dev {len(xs)} questions, {args.folds}-fold CV: AUROC {auroc(cv, ys)}, ECE "
          f"{expected_calibration_error(cv, ys)}")
    w, b = fit(xs, ys, args.l2)
    print("WEIGHTS = {" + ", ".join(f'"{k}": {v:.3f}' for k, v in zip(names, w, strict=True)) + "}")
    print(f"INTERCEPT = {b:.3f}")
    if split["heldout"]:
        hx = [[r["factors"][k] for k in names] for r in split["heldout"]]
        hy = [bool(r["fully_right"]) for r in split["heldout"]]
        hp = [predict(w, b, x) for x in hx]
        print(f"heldout {len(hx)} questions (uncapped model): AUROC {auroc(hp, hy)}, ECE "
              f"{expected_calibration_error(hp, hy)}")


if __name__ == "__main__":
    main()
