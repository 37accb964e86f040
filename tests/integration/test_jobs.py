"""Celery ingestion with a real worker process on the embedded server's Redis (no mocks)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graph_schema.embedded import EmbeddedFalkorDB
from graph_schema.store import FalkorGraphStore
from ingestion.pipeline import ingest
from legal_rag.jobs import job_status, make_celery
from legal_rag.settings import Settings
from tests.conftest import CORPUS, Loaded

pytestmark = [pytest.mark.integration, pytest.mark.slow]

GRAPH = "jobs"


@pytest.fixture
def job_env(falkor_server: EmbeddedFalkorDB) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        LEGAL_RAG_STATE_DIR=str(falkor_server.data_dir.parent),
        LEGAL_RAG_CORPUS_DIR=str(CORPUS),
        LEGAL_RAG_GRAPH__BACKEND="embedded",
        LEGAL_RAG_GRAPH__GRAPH_NAME=GRAPH,
        LEGAL_RAG_JOBS__VISIBILITY_TIMEOUT_S="3",
    )
    return env


@pytest.fixture
def celery_settings(job_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> Settings:
    for k, v in job_env.items():
        if k.startswith("LEGAL_RAG_"):
            monkeypatch.setenv(k, v)
    return Settings()


@pytest.fixture
def jobs_store(falkor_server: EmbeddedFalkorDB) -> Iterator[FalkorGraphStore]:
    store = FalkorGraphStore(graph=GRAPH, unix_socket_path=falkor_server.socket_path)
    store.open()
    store.clear()
    store.ensure_schema()
    yield store
    store.clear()
    store.close()


def start_worker(env: dict[str, str]) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "legal_rag.cli", "worker", "--loglevel", "WARNING"],
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return proc


def kill_group(proc: subprocess.Popen[bytes], sig: int = signal.SIGKILL) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, sig)
    proc.wait(timeout=30)


def wait_for(app: Any, job_id: str, pred: Any, timeout: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    status = job_status(app, job_id)
    while time.monotonic() < deadline:
        status = job_status(app, job_id)
        if pred(status):
            return status
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} never reached the expected state; last: {status}")


def test_async_ingest_reports_progress_and_result(
    job_env: dict[str, str], celery_settings: Settings, jobs_store: FalkorGraphStore, tmp_path: Path
) -> None:
    src = tmp_path / "kra.jsonl"
    src.write_text(
        "\n".join(
            json.dumps(r)
            for r in [
                {"record": "act", "code": "KRA", "title": "The Karnataka Rent Act, 1999"},
                {"act": "KRA", "section": "27", "title": "Recovery of possession", "text": "(1) No order ... (2) ..."},
                {"act": "NOPE", "section": "1"},
            ]
        )
        + "\n"
    )
    # the CLI enqueues and prints the id
    out = subprocess.run(
        [sys.executable, "-m", "legal_rag.cli", "ingest", "--async", "--json", str(src)],
        env=job_env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    job_id = json.loads(out.stdout)["job_id"]
    app = make_celery(celery_settings)
    assert job_status(app, job_id)["state"] == "PENDING"  # queued, no worker yet
    queued = subprocess.run([sys.executable, "-m", "legal_rag.cli", "jobs", job_id, "--json"], env=job_env,
                            capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(queued.stdout)["state"] == "queued"  # the row exists before any worker runs
    # a job whose input vanished before the worker ran it: bad input is not transient, so no retry
    gone = app.send_task("legal_rag.ingest", args=[[str(tmp_path / "gone.jsonl")], False])
    worker = start_worker(job_env)
    try:
        done = wait_for(app, job_id, lambda s: s["state"] in ("SUCCESS", "FAILURE"), 90)
        failed = wait_for(app, gone.id, lambda s: s["state"] in ("SUCCESS", "FAILURE", "RETRY"), 60)
    finally:
        kill_group(worker, signal.SIGTERM)
    assert failed["state"] == "FAILURE"
    assert "IngestError" in failed["error"] and "no such file" in failed["error"]
    assert done["state"] == "SUCCESS", done
    assert done["result"]["totals"] == {"added": 2, "updated": 0, "unchanged": 0, "rejected": 1}
    assert done["result"]["rejects"][0]["reason"] == "unknown Act 'NOPE'"
    assert jobs_store.get_section("KRA", "27") is not None
    shown = subprocess.run(
        [sys.executable, "-m", "legal_rag.cli", "jobs", job_id, "--json"],
        env=job_env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    row = json.loads(shown.stdout)  # the job's row in the records database, written by the worker
    assert row["state"] == "succeeded_with_rejects" and row["kind"] == "ingest", row
    assert {k: row["report"][k] for k in ("added", "updated", "unchanged", "rejected")} == {
        "added": 2, "updated": 0, "unchanged": 0, "rejected": 1}
    assert row["report"]["rejects"][0]["reason"] == "unknown Act 'NOPE'"
    assert row["report"]["rejects"][0]["line"] == 3


def test_worker_killed_mid_ingest_then_rerun_loses_nothing_and_duplicates_nothing(
    job_env: dict[str, str], celery_settings: Settings, jobs_store: FalkorGraphStore, loaded: Loaded
) -> None:
    app = make_celery(celery_settings)
    job = app.send_task("legal_rag.ingest", args=[[str(CORPUS)], False])
    worker = start_worker(job_env)
    try:
        # Acts and chapters are the first batches: wait until some sections are in the graph too.
        mid = wait_for(
            app,
            job.id,
            lambda s: s["state"] == "PROGRESS" and s.get("stage") == "write" and 0 < (s["done"] or 0) < s["total"]
            and jobs_store.counts().get("Section", 0) > 0,
            180,
        )
    finally:
        kill_group(worker)  # SIGKILL the worker and its pool child mid-write
    assert mid["done"] < mid["total"]
    partial = jobs_store.counts()
    assert 0 < partial.get("Section", 0) < loaded.store.counts()["Section"]

    # acks_late + reject-on-worker-lost: a new worker gets the same job again and finishes it.
    worker = start_worker(job_env)
    try:
        done = wait_for(app, job.id, lambda s: s["state"] in ("SUCCESS", "FAILURE"), 300)
    finally:
        kill_group(worker, signal.SIGTERM)
    assert done["state"] == "SUCCESS", done
    assert done["result"]["totals"]["unchanged"] > 0  # batches written before the kill were kept

    # and a further manual re-run changes nothing
    rerun = ingest(jobs_store, [CORPUS])
    assert not rerun.changed
    assert jobs_store.counts() == loaded.store.counts()
    dupes = jobs_store._read("MATCH (s:Section) WITH s.key AS k, count(*) AS c WHERE c > 1 RETURN count(k) AS n")
    assert dupes[0]["n"] == 0


# -- one index, many processes: readers query while a job's ingest publishes a new version --------

KRA_RECORDS = [
    {"record": "act", "code": "KRA", "title": "The Karnataka Rent Act, 1999", "year": 1999,
     "in_force_from": "2001-12-31", "aliases": ["Karnataka Rent Act"]},
    {"act": "KRA", "section": "27", "title": "Recovery of possession", "in_force_from": "2001-12-31",
     "status": "in_force",
     "text": "(1) No order or decree for the recovery of possession of any premises shall be made by any court "
             "or other authority in favour of the landlord against any tenant except on an application made "
             "to the Court. (2) The Court may, on an application made to it, make an order for the recovery "
             "of possession of the premises on the ground that the tenant has not paid the rent lawfully due."},
]
KRA_QUERY = "recovery of possession of premises from a tenant who has not paid the rent lawfully due"


def _reader(env: dict[str, str], written: Any, queue: Any) -> None:
    """One reader process: query the shared index in a loop until the new Act is found.

    ``written`` is set by the test once the job has finished: a query that starts after that must
    find the new Act (``stale`` otherwise). The short sleep leaves the worker CPU on a 2-core
    machine; the deadline only bounds a hung run.
    """
    try:
        os.environ.update(env)
        from legal_rag.retrieval.build import build_retriever, open_index
        from legal_rag.stores import open_graph_store

        settings = Settings()
        store = open_graph_store(settings)
        index = open_index(settings)
        retriever = build_retriever(settings, index, store)
        queries, versions = 0, {index.snapshot}
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            after_job = written.is_set()
            results = retriever.retrieve(KRA_QUERY, 5, include_repealed=True)  # refreshes the index first
            queries += 1
            versions.add(index.snapshot)
            if queries == 1:
                queue.put(("ready", index.snapshot, []))
            if any(r.chunk.act == "KRA" for r in results):
                queue.put(("found", queries, sorted(versions)))
                return
            if after_job:
                queue.put(("stale", queries, sorted(versions)))
                return
            time.sleep(0.05)
        queue.put(("timeout", queries, sorted(versions)))
    except Exception as exc:  # noqa: BLE001 - reported to the test, which fails on it
        queue.put(("error", repr(exc), []))


def test_four_readers_query_while_an_ingest_job_adds_an_act(
    job_env: dict[str, str], celery_settings: Settings, jobs_store: FalkorGraphStore, tmp_path: Path
) -> None:
    import multiprocessing as mp

    from legal_rag.retrieval.build import open_index, sync_from_graph

    ingest(jobs_store, [CORPUS / "legacy" / "ipc.json"])
    index = open_index(celery_settings)
    first = sync_from_graph(index, jobs_store)
    assert first.version >= 1 and len(index) > 500
    src = tmp_path / "kra.jsonl"
    src.write_text("\n".join(json.dumps(r) for r in KRA_RECORDS) + "\n", encoding="utf-8")

    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    written = ctx.Event()
    readers = [ctx.Process(target=_reader, args=(job_env, written, queue)) for _ in range(4)]
    for p in readers:
        p.start()
    app = make_celery(celery_settings)
    worker = start_worker(job_env)
    try:
        ready = [queue.get(timeout=300) for _ in readers]  # every reader has queried the old version
        assert [r[0] for r in ready] == ["ready"] * 4 and {r[1] for r in ready} == {first.version}, ready
        job = app.send_task("legal_rag.ingest", args=[[str(src)], False])
        done = wait_for(app, job.id, lambda s: s["state"] in ("SUCCESS", "FAILURE"), 300)
        written.set()
        results = [queue.get(timeout=600) for _ in readers]
    finally:
        kill_group(worker, signal.SIGTERM)
        for p in readers:
            p.join(timeout=30)
            if p.is_alive():
                p.kill()
    assert done["state"] == "SUCCESS", done
    assert done["result"]["index"]["added"] >= 1 and done["result"]["index"]["version"] > first.version
    assert [r[0] for r in results] == ["found"] * 4, results
    assert all(first.version in r[2] and max(r[2]) > first.version for r in results), results
    assert all(p.exitcode == 0 for p in readers)
    assert index.refresh() and any(c.act == "KRA" for c in index.chunks()), "this process picks it up too"
    index.close()
