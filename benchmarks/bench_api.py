"""Benchmark: ``POST /v1/ask`` under 20 concurrent clients and the stream's time to first ``stage``
event, against the in-process ``Application.ask`` measured in the same run (the baseline).

Run (after ``legal-rag ingest --default``; uses the default state dir and a scratch records file):
``python benchmarks/bench_api.py [--clients 20] [--rounds 2] [--json]``

Reported: in-process ask p50/p95 (one caller), HTTP ask p50/p95 with ``--clients`` concurrent
clients (each latency includes queueing behind the others on a 2-core machine), throughput
(answers/s, both ways), stream time to first ``stage`` and to the ``answer`` event, and the ratios
HTTP/in-process. The questions are the 48 of ``tests/data/ask_questions.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from support import pct

from legal_rag.app import Application
from legal_rag.settings import PROJECT_ROOT, Settings

QUESTIONS = [json.loads(line) for line in
             (PROJECT_ROOT / "tests" / "data" / "ask_questions.jsonl").read_text().splitlines()]


def _post(url: str, key: str, body: dict[str, object], timeout: float = 300) -> bytes:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",  # noqa: S310
                                 headers={"Content-Type": "application/json", "X-API-Key": key})
    with urllib.request.urlopen(req, timeout=timeout) as r:  # noqa: S310 - our own server
        data: bytes = r.read()
        return data


def _stream_times(url: str, key: str, question: dict[str, str]) -> tuple[float, float]:
    """Seconds to the first ``stage`` event and to the ``answer`` event."""
    req = urllib.request.Request(url, data=json.dumps({"question": question["question"],  # noqa: S310
                                                       "as_of": question["as_of"]}).encode(),
                                 method="POST", headers={"Content-Type": "application/json", "X-API-Key": key})
    t0 = time.perf_counter()
    first = answer = 0.0
    with urllib.request.urlopen(req, timeout=300) as r:  # noqa: S310
        for raw in r:
            line = raw.decode().strip()
            if line == "event: stage" and not first:
                first = time.perf_counter() - t0
            elif line == "event: answer":
                answer = time.perf_counter() - t0
                break
    return first, answer


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="legal-rag-bench-api-"))
    env = dict(os.environ, LEGAL_RAG_DATABASE_URL=f"sqlite:///{scratch / 'records.sqlite3'}",
               LEGAL_RAG_API__RATE_LIMIT_PER_MINUTE="1000000")
    os.environ.update(env)
    questions = QUESTIONS * args.rounds

    # Baseline: the same application in this process, one caller.
    with Application(Settings(), first_run=False) as application:
        application.open()
        for q in QUESTIONS[:5]:
            application.ask(q["question"], q["as_of"])
        in_proc = []
        t_in = time.perf_counter()
        for q in questions:
            t = time.perf_counter()
            application.ask(q["question"], q["as_of"])
            in_proc.append(time.perf_counter() - t)
        t_in = time.perf_counter() - t_in

    key = subprocess.run([sys.executable, "-m", "legal_rag.cli", "keys", "create", "--role", "lawyer", "--name",
                          "bench"], env=env, capture_output=True, text=True, check=True).stdout.split()[-1]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "legal_rag.cli", "serve", "--port", str(port), "--no-worker",
                               "--log-level", "warning"], env=env, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        t_start = time.perf_counter()
        while True:
            try:
                with urllib.request.urlopen(base + "/ready", timeout=5) as r:  # noqa: S310
                    if r.status == 200:
                        break
            except OSError:
                pass
            if server.poll() is not None or time.perf_counter() - t_start > 600:
                raise SystemExit("the server did not become ready")
            time.sleep(0.3)
        for q in QUESTIONS[:5]:
            _post(base + "/v1/ask", key, {"question": q["question"], "as_of": q["as_of"]})

        def one(q: dict[str, str]) -> float:
            t = time.perf_counter()
            _post(base + "/v1/ask", key, {"question": q["question"], "as_of": q["as_of"]})
            return time.perf_counter() - t

        t_http = time.perf_counter()
        with ThreadPoolExecutor(args.clients) as pool:
            http_lat = list(pool.map(one, questions))
        t_http = time.perf_counter() - t_http
        streams = [_stream_times(base + "/v1/ask/stream", key, q) for q in QUESTIONS[:20]]
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=60)

    ms = lambda xs, p: round(pct(xs, p) * 1000, 1)  # noqa: E731
    report = {
        "questions": len(questions), "clients": args.clients,
        "in_process_ms": {"p50": ms(in_proc, 50), "p95": ms(in_proc, 95)},
        "http_ms": {"p50": ms(http_lat, 50), "p95": ms(http_lat, 95)},
        "throughput_per_s": {"in_process": round(len(questions) / t_in, 2), "http": round(len(questions) / t_http, 2)},
        "stream_ms": {"first_stage_p50": ms([f for f, _ in streams], 50),
                      "first_stage_p95": ms([f for f, _ in streams], 95),
                      "answer_p50": ms([a for _, a in streams], 50)},
    }
    report["ratios"] = {
        "http_p50_over_in_process_p50": round(report["http_ms"]["p50"] / report["in_process_ms"]["p50"], 2),
        "http_p95_over_in_process_p95": round(report["http_ms"]["p95"] / report["in_process_ms"]["p95"], 2),
        "throughput_http_over_in_process": round(report["throughput_per_s"]["http"]
                                                 / report["throughput_per_s"]["in_process"], 2),
        "first_stage_over_in_process_p50": round(report["stream_ms"]["first_stage_p50"]
                                                 / report["in_process_ms"]["p50"], 3),
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    for k, v in report.items():
        print(f"{k:>18}: {v}")


if __name__ == "__main__":
    main()
