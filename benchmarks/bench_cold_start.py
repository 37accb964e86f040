"""Benchmark: first run and warm start, as separate processes, against baselines from the same run.

Run: ``python benchmarks/bench_cold_start.py [--runs 5] [--json]``

* First run: ``legal-rag ingest --default`` on an empty state dir (graph + retrieval index, the
  index's vectors taken from ``data/vectors``) against ``legal-rag ingest --default --no-index``
  (graph only) on another empty state dir. Target (issue 10): full <= 2x graph-only.
* Warm start: wall time of whole ``legal-rag retrieve`` and ``legal-rag ask`` processes (import,
  open graph and index, load the encoder, answer) against a ``legal-rag section IPC 302`` process,
  median of ``--runs``, plus peak RSS. Target: retrieve/ask first result within 3 s (goal 1 s).

Each process is a fresh interpreter (``python -m legal_rag.cli``); the embedded graph server stays
up between them, as it does for a user.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from legal_rag.settings import PROJECT_ROOT

CLI = [sys.executable, "-m", "legal_rag.cli"]


def run(env: dict[str, str], *args: str) -> tuple[float, int]:
    """Wall seconds and peak RSS (KB) of one CLI process (fails loudly on a non-zero exit)."""
    t0 = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-f", "%M", *CLI, *args], env=env, capture_output=True, text=True,
                          timeout=900)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    rss = int(proc.stderr.strip().splitlines()[-1])
    return wall, rss


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="legal-rag-bench-cold-"))
    base = dict(os.environ, LEGAL_RAG_CORPUS_DIR=str(PROJECT_ROOT / "data" / "corpus"),
                LEGAL_RAG_GRAPH__BACKEND="embedded")
    graph_only = dict(base, LEGAL_RAG_STATE_DIR=str(tmp / "graph-only"))
    full = dict(base, LEGAL_RAG_STATE_DIR=str(tmp / "full"))
    result: dict[str, object] = {}
    try:
        g, _ = run(graph_only, "ingest", "--default", "--no-index", "--json")
        f, _ = run(full, "ingest", "--default", "--json")
        result["first_run_s"] = {"graph_only": round(g, 1), "graph_and_index": round(f, 1),
                                 "ratio": round(f / g, 2)}
        commands = {
            "section (baseline)": ["section", "IPC", "302"],
            "retrieve": ["retrieve", "punishment for extortion", "-k", "5"],
            "ask": ["ask", "What is the punishment for extortion?"],
        }
        times: dict[str, list[float]] = {k: [] for k in commands}
        rss: dict[str, int] = {}
        for _ in range(args.runs):  # interleaved, so load on the machine hits every command alike
            for name, cmd in commands.items():
                wall, kb = run(full, *cmd)
                times[name].append(wall)
                rss[name] = max(rss.get(name, 0), kb)
        baseline = statistics.median(times["section (baseline)"])
        result["process_s"] = {
            name: {"median": round(statistics.median(ts), 2), "max": round(max(ts), 2),
                   "ratio_to_section": round(statistics.median(ts) / baseline, 2), "peak_rss_mb": rss[name] // 1024}
            for name, ts in times.items()
        }
    finally:
        for env in (graph_only, full):
            subprocess.run([*CLI, "server", "stop"], env=env, capture_output=True, timeout=60)
        shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        print(json.dumps(result))
        return
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
