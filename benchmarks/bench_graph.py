"""Benchmark: default-corpus ingest, unchanged re-ingest, and provision lookups on the embedded graph.

Run: ``python benchmarks/bench_graph.py [--lookups 1000] [--json]``

Each figure is reported with a baseline measured in the same run on the same machine, as a ratio:

* ingest and re-ingest against parsing alone (the pure part of the pipeline, no graph I/O);
* lookup latency against the floor of one round trip to the server (``RETURN 1``) and against a bare
  indexed ``MATCH (s:Section {key: $k}) RETURN s.text``.

Targets (issue 2): full ingest < 60 s, unchanged re-ingest < 15 s, lookup p95 < 5 ms.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from support import pct

from graph_schema.embedded import EmbeddedFalkorDB
from graph_schema.store import FalkorGraphStore
from ingestion.pipeline import default_paths, expand, ingest, parse_and_merge
from legal_rag.lookup import LookupService
from legal_rag.settings import PROJECT_ROOT

CORPUS = PROJECT_ROOT / "data" / "corpus"


class _NoGraph:
    """Stands in for an empty graph so that parsing can be timed without I/O."""

    def all_acts(self) -> list[object]:
        return []

    def section_numbers(self, act: str) -> set[str]:
        return set()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lookups", type=int, default=1000)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="legal-rag-bench-"))
    server = EmbeddedFalkorDB(tmp / "falkordb")
    server.start()
    try:
        store = FalkorGraphStore(graph="bench", unix_socket_path=server.socket_path)
        store.open()
        store.ensure_schema()

        t = time.perf_counter()
        parse_and_merge(expand(default_paths(CORPUS)), _NoGraph())  # type: ignore[arg-type]
        parse_s = time.perf_counter() - t

        t = time.perf_counter()
        first = ingest(store, default_paths(CORPUS))
        ingest_s = time.perf_counter() - t

        t = time.perf_counter()
        again = ingest(store, default_paths(CORPUS))
        reingest_s = time.perf_counter() - t
        assert not again.changed, "re-ingest of unchanged data wrote something"

        svc = LookupService(store)
        svc.refresh()
        rng = random.Random(7)
        keys = [r["key"] for r in store._read("MATCH (s:Section) RETURN s.key AS key")]
        sample = [rng.choice(keys) for _ in range(args.lookups)]
        dates = ["2019-03-01", "2023-05-01", "2024-07-01", "2025-01-01", None]

        floor, bare, lookup = [], [], []
        for key in sample:
            t = time.perf_counter()
            store._read("RETURN 1 AS one")
            floor.append(time.perf_counter() - t)
            t = time.perf_counter()
            store._read("MATCH (s:Section {key: $k}) RETURN s.text AS text", {"k": key})
            bare.append(time.perf_counter() - t)
            act, number = key.split(":", 1)
            t = time.perf_counter()
            r = svc.lookup(act, number, rng.choice(dates))
            lookup.append(time.perf_counter() - t)
            assert r["found"], key

        ms = 1000.0
        res = {
            "corpus": {"records": first.totals()["added"], "rejected": first.totals()["rejected"]},
            "ingest_s": round(ingest_s, 2),
            "reingest_unchanged_s": round(reingest_s, 2),
            "parse_only_s": round(parse_s, 2),
            "ingest_vs_parse": round(ingest_s / parse_s, 2),
            "reingest_vs_parse": round(reingest_s / parse_s, 2),
            "lookups": args.lookups,
            "lookup_ms": {"p50": round(pct(lookup, 50) * ms, 3), "p95": round(pct(lookup, 95) * ms, 3)},
            "bare_match_ms": {"p50": round(pct(bare, 50) * ms, 3), "p95": round(pct(bare, 95) * ms, 3)},
            "round_trip_ms": {"p50": round(pct(floor, 50) * ms, 3), "p95": round(pct(floor, 95) * ms, 3)},
            "lookup_p95_vs_round_trip": round(pct(lookup, 95) / pct(floor, 95), 1),
            "lookup_p95_vs_bare_match": round(pct(lookup, 95) / pct(bare, 95), 1),
            "lookup_mean_ms": round(statistics.mean(lookup) * ms, 3),
        }
        store.close()
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)

    if args.json:
        print(json.dumps(res, indent=2))
        return
    print(f"records loaded            {res['corpus']['records']} ({res['corpus']['rejected']} rejected)")
    print(f"parse only (baseline)     {res['parse_only_s']} s")
    print(f"full ingest               {res['ingest_s']} s   ({res['ingest_vs_parse']}x parse)   target < 60 s")
    print(f"re-ingest, unchanged      {res['reingest_unchanged_s']} s   ({res['reingest_vs_parse']}x parse)   "
          "target < 15 s")
    print(f"lookup x{args.lookups}              p50 {res['lookup_ms']['p50']} ms  p95 {res['lookup_ms']['p95']} ms"
          "   target p95 < 5 ms")
    print(f"  bare indexed MATCH      p50 {res['bare_match_ms']['p50']} ms  p95 {res['bare_match_ms']['p95']} ms"
          f"   (lookup p95 = {res['lookup_p95_vs_bare_match']}x)")
    print(f"  server round trip       p50 {res['round_trip_ms']['p50']} ms  p95 {res['round_trip_ms']['p95']} ms"
          f"   (lookup p95 = {res['lookup_p95_vs_round_trip']}x)")


if __name__ == "__main__":
    main()
