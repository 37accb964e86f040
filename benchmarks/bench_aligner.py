"""How well, and how fast, ``OfflineAligner`` catches perturbed claims.

Loads ``tests/data/aligner_perturbations.jsonl`` (built by ``benchmarks/make_perturbations.py``) and
the real all-MiniLM-L6-v2 embedder once, aligns every claim against its evidence and reports:

* detection precision and recall: a claim labelled contradicted or unsupported is a *problem*; the
  aligner *flags* it when it answers CONTRADICTED or UNSUPPORTED (PARTIALLY_SUPPORTED and SUPPORTED
  do not flag);
* recall per kind (number, negation, modality, section_swap, act_swap, other_provision, ...), the
  SUPPORTED rate and the flag rate on faithful paraphrases, per kind;
* a confusion matrix (gold label x verdict);
* latency per claim, p50 and p95, in two passes: cold (evidence windows embedded on first sight,
  as for the first claims of an answer) and warm (windows cached, as for later claims). Following the
  project's benchmark rule the times are also given as ratios to a baseline measured in the same
  process: one bare ``embed([claim])`` call, the cost the aligner cannot avoid.

    .venv/bin/python benchmarks/bench_aligner.py [--json] [--threads N] [--show-errors]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.support import pct  # noqa: E402
from legal_rag.retrieval.onnx_minilm import OnnxMiniLMEmbedder  # noqa: E402
from legal_rag.workflow.types import Passage, Verdict  # noqa: E402
from verification.claims.align import OfflineAligner  # noqa: E402

DATA = ROOT / "tests" / "data" / "aligner_perturbations.jsonl"
FLAGS = frozenset((Verdict.CONTRADICTED, Verdict.UNSUPPORTED))


def load(path: Path = DATA) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def passages(row: dict[str, Any]) -> list[Passage]:
    ev = row["evidence"]
    assert isinstance(ev, list)
    return [Passage(chunk_id=e["chunk_id"], act=e["act"], section=e["section"], heading=e["heading"], text=e["text"],
                    status="in_force") for e in ev]  # fmt: skip


def score(rows: list[dict[str, Any]], verdicts: list[Verdict]) -> dict[str, Any]:
    """Detection precision/recall, per-kind rates and the confusion matrix."""
    tp = fp = fn = 0
    by_kind: dict[str, Counter[str]] = defaultdict(Counter)
    confusion: dict[str, Counter[str]] = defaultdict(Counter)
    for row, v in zip(rows, verdicts, strict=True):
        problem = row["label"] != "supported"
        flagged = v in FLAGS
        tp += problem and flagged
        fp += (not problem) and flagged
        fn += problem and not flagged
        kind = str(row["kind"])
        by_kind[kind]["n"] += 1
        by_kind[kind]["flagged"] += flagged
        by_kind[kind]["supported"] += v is Verdict.SUPPORTED
        by_kind[kind]["contradicted"] += v is Verdict.CONTRADICTED
        confusion[str(row["label"])][v.value] += 1
    kinds = {
        k: {"n": c["n"], "flag_rate": round(c["flagged"] / c["n"], 3),
            "supported_rate": round(c["supported"] / c["n"], 3),
            "contradicted_rate": round(c["contradicted"] / c["n"], 3)}
        for k, c in sorted(by_kind.items())
    }  # fmt: skip
    faithful = [v for r, v in zip(rows, verdicts, strict=True) if r["label"] == "supported"]
    return {
        "claims": len(rows),
        "precision": round(tp / (tp + fp), 4) if tp + fp else 0.0,
        "recall": round(tp / (tp + fn), 4) if tp + fn else 0.0,
        "faithful_supported_rate": round(sum(v is Verdict.SUPPORTED for v in faithful) / len(faithful), 4),
        "faithful_flag_rate": round(sum(v in FLAGS for v in faithful) / len(faithful), 4),
        "per_kind": kinds,
        "confusion": {label: dict(c) for label, c in sorted(confusion.items())},
    }


class TimedEmbedder:
    """The real embedder, with the time spent in ``embed`` added up (to separate the aligner's own work)."""

    def __init__(self, inner: OnnxMiniLMEmbedder) -> None:
        self.inner = inner
        self.spent_ms = 0.0

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed(self, texts: Sequence[str], batch_size: int = 32) -> npt.NDArray[np.float32]:
        start = time.perf_counter()
        try:
            return self.inner.embed(texts, batch_size)
        finally:
            self.spent_ms += (time.perf_counter() - start) * 1000


def run(rows: list[dict[str, Any]], aligner: OfflineAligner, timed: TimedEmbedder) -> dict[str, list[Any]]:
    """Align every row; per claim: total ms, ms inside the embedder, and a bare ``embed([claim])`` (the
    baseline) measured right before, so load on the machine hits both alike."""
    out: dict[str, list[Any]] = {"total": [], "embed": [], "own": [], "baseline": [], "verdict": [], "reasons": []}
    for row in rows:
        claim = str(row["claim"])
        ev = passages(row)
        start = time.perf_counter()
        timed.inner.embed([claim])
        out["baseline"].append((time.perf_counter() - start) * 1000)
        timed.spent_ms = 0.0
        start = time.perf_counter()
        a = aligner.align(claim, ev)
        total = (time.perf_counter() - start) * 1000
        out["total"].append(total)
        out["embed"].append(timed.spent_ms)
        out["own"].append(total - timed.spent_ms)
        out["verdict"].append(a.verdict)
        out["reasons"].append(list(a.reasons))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--threads", type=int, default=None, help="torch threads (default: the CPUs available)")
    ap.add_argument("--show-errors", action="store_true", help="print every misjudged claim with its reasons")
    ap.add_argument("--data", type=Path, default=DATA)
    args = ap.parse_args(argv)

    rows = load(args.data)
    embedder = OnnxMiniLMEmbedder()
    embedder.open()
    embedder.embed(["warm-up"])
    timed = TimedEmbedder(embedder)
    aligner = OfflineAligner(timed)
    aligner.align("warm-up claim about murder", passages(rows[0]))  # citation extractor, caches

    cold = run(rows, aligner, timed)  # evidence windows embedded on first sight
    warm = run(rows, aligner, timed)  # windows cached: the claim is the only new embedding
    verdicts: list[Verdict] = cold["verdict"]
    report = score(rows, verdicts)

    def ms(xs: list[float]) -> dict[str, float]:
        return {"p50": round(pct(xs, 50), 2), "p95": round(pct(xs, 95), 2)}

    base = pct(warm["baseline"], 50)
    report["latency_ms"] = {
        "evidence_passages_per_claim": round(sum(len(r["evidence"]) for r in rows) / len(rows), 2),
        "cold_total": ms(cold["total"]), "warm_total": ms(warm["total"]), "warm_own_work": ms(warm["own"]),
        "warm_in_embedder": ms(warm["embed"]), "baseline_embed_claim": ms(warm["baseline"]),
        "warm_total_over_baseline_p50": round(pct(warm["total"], 50) / base, 2),
        "warm_own_work_over_baseline_p50": round(pct(warm["own"], 50) / base, 3),
    }  # fmt: skip
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{report['claims']} claims from {args.data.name}")
    print(f"detection: precision {report['precision']:.3f}  recall {report['recall']:.3f}  "
          f"(flag = CONTRADICTED or UNSUPPORTED on a contradicted/unsupported claim)")  # fmt: skip
    print(f"faithful paraphrases: SUPPORTED {report['faithful_supported_rate']:.3f}, "
          f"flagged {report['faithful_flag_rate']:.3f}")  # fmt: skip
    print("\nper kind                 n   flagged  supported  contradicted")
    for kind, k in report["per_kind"].items():
        rates = f"{k['flag_rate']:.3f}    {k['supported_rate']:.3f}     {k['contradicted_rate']:.3f}"
        print(f"  {kind:20s} {k['n']:4d}   {rates}")
    print("\nconfusion (gold -> verdict)")
    cols = [v.value for v in Verdict]
    print("  " + " " * 14 + "".join(f"{c[:12]:>14s}" for c in cols))
    for label, c in report["confusion"].items():
        print(f"  {label:14s}" + "".join(f"{c.get(v, 0):14d}" for v in cols))
    lat: dict[str, Any] = report["latency_ms"]
    print(f"\nlatency per claim, {lat['evidence_passages_per_claim']} passages each (ms, p50 / p95):")
    for key in ("cold_total", "warm_total", "warm_in_embedder", "warm_own_work", "baseline_embed_claim"):
        print(f"  {key:22s} {lat[key]['p50']:8.2f} / {lat[key]['p95']:8.2f}")
    print(f"  warm total / baseline p50: {lat['warm_total_over_baseline_p50']}x; "
          f"own work / baseline p50: {lat['warm_own_work_over_baseline_p50']}x")  # fmt: skip
    if args.show_errors:
        print("\nmisjudged:")
        for row, v, why in zip(rows, verdicts, cold["reasons"], strict=True):
            if (row["label"] != "supported") != (v in FLAGS):
                print(f"  [{row['id']} {row['label']}/{row['kind']} -> {v.value}] {row['claim']}\n      {why}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
