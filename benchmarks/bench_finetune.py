"""Benchmark: build the Finetune-RAG dataset (n=1000 by default) from the shipped corpus, with progress.

Run: ``python benchmarks/bench_finetune.py [--n 1000] [--seed 7] [--json]``

Loads the corpus into a throw-away embedded graph, then times ``build_dataset`` end to end (progress
lines on stderr). Baselines measured in the same run: reading the graph as the builder does
(``StatuteView.read``) and re-verifying every kept chosen and rejected answer (``validate_dataset``
with the judge), i.e. the floor of any builder that must verify what it writes. Target (issue 12):
n=1000 in under 5 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from support import CORPUS, scratch_graph

from finetune import BuildConfig, Judge, TokenizerFile, build_dataset
from finetune.statutes import StatuteView
from finetune.validate import validate_dataset
from legal_rag.cli.progress import ProgressLines
from legal_rag.retrieval.onnx_minilm import TOKENIZER, TOKENIZER_NAME
from verification import Verifier


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with scratch_graph() as (store, tmp), tempfile.TemporaryDirectory() as out_dir:
        out = Path(out_dir) / "ds"
        t = time.perf_counter()
        view = StatuteView.read(store)
        read_s = time.perf_counter() - t
        verifier = Verifier(store)
        progress = ProgressLines({"examples": "examples verified"}, sys.stderr, every_s=5.0)
        t = time.perf_counter()
        report = build_dataset(store, verifier, out, BuildConfig(n=args.n, seed=args.seed), corpus_dir=CORPUS,
                               progress=progress, tokenizer=TokenizerFile(TOKENIZER, TOKENIZER_NAME))  # fmt: skip
        build_s = time.perf_counter() - t
        t = time.perf_counter()
        problems = validate_dataset(out, judge=Judge(verifier, store), family=view.family)
        verify_s = time.perf_counter() - t
        d = report.as_dict()
        res = {
            "n": args.n, "kept": sum(d["totals"].values()), "candidates": d["candidates"],
            "chosen_failed": d["chosen_failed"], "rejected_not_failing": d["rejected_not_failing"],
            "build_s": round(build_s, 1), "read_graph_s": round(read_s, 1), "reverify_all_s": round(verify_s, 1),
            "build_vs_reverify": round(build_s / verify_s, 2), "valid": not problems,
            "per_example_ms": round(1000 * build_s / max(1, args.n), 1),
        }  # fmt: skip
    if args.json:
        print(json.dumps(res, indent=2))
        return
    print(f"examples kept             {res['kept']} of {res['candidates']} candidates "
          f"({res['chosen_failed']} chosen failed, {res['rejected_not_failing']} rejected did not fail as named)")
    print(f"build n={args.n}              {res['build_s']} s ({res['per_example_ms']} ms/example)   target < 300 s")
    print(f"  read graph (baseline)   {res['read_graph_s']} s")
    print(f"  re-verify all (baseline) {res['reverify_all_s']} s   (build = {res['build_vs_reverify']}x)")
    print(f"validate                  {'valid' if res['valid'] else 'PROBLEMS'}")


if __name__ == "__main__":
    main()
