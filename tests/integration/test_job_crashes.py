"""An ingest job killed (``kill -9`` of real processes) at each of its stages, then the processes
restarted: the job is re-run to the end, and the graph and the retrieval index agree (every Act in
the graph is searchable, nothing stale is served), whichever process died where.

The job is stopped at a stage by the test-only hook ``LEGAL_RAG_JOBS__PAUSE_AT`` (the worker writes
``<state dir>/paused/<job id>.<stage>`` and waits while it exists). The server and workers are
real ``legal-rag serve`` / ``legal-rag worker`` processes on the session's embedded FalkorDB, whose
Redis is the broker. The visibility timeout stays at its default (an hour), so what re-runs a job
here is the start-up recovery, not Celery's redelivery.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from graph_schema.embedded import EmbeddedFalkorDB
from graph_schema.store import FalkorGraphStore
from ingestion.pipeline import ingest
from legal_rag.records import Role, open_records
from legal_rag.retrieval.build import graph_chunks, index_root, open_index
from legal_rag.retrieval.snapshot import IndexDirectory
from legal_rag.settings import ApiSettings, GraphBackend, GraphSettings, JobSettings, Settings
from tests.conftest import CORPUS
from tests.integration.conftest import Server, http, start_server, stop_server

pytestmark = [pytest.mark.integration, pytest.mark.slow]

GRAPH = "crashes"
QUEUE = "legal_rag_crash_tests"


@dataclass
class Deployment:
    env: dict[str, str]
    settings: Settings
    store: FalkorGraphStore
    key: str
    logs: Path


@pytest.fixture(scope="module")
def deployment(falkor_server: EmbeddedFalkorDB, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    """A graph of its own holding the Evidence Act (so a server's first run loads nothing more), its own
    records database and queue; a data engineer's key."""
    folder = tmp_path_factory.mktemp("crashes")
    db = f"sqlite:///{folder / 'records.sqlite3'}"
    state = falkor_server.data_dir.parent
    env = dict(os.environ)
    env.update(LEGAL_RAG_STATE_DIR=str(state), LEGAL_RAG_CORPUS_DIR=str(CORPUS),
               LEGAL_RAG_GRAPH__BACKEND="embedded", LEGAL_RAG_GRAPH__GRAPH_NAME=GRAPH, LEGAL_RAG_DATABASE_URL=db,
               LEGAL_RAG_API__RATE_LIMIT_PER_MINUTE="100000", LEGAL_RAG_JOBS__QUEUE=QUEUE)
    env.pop("LEGAL_RAG_JOBS__PAUSE_AT", None)
    settings = Settings(state_dir=state, corpus_dir=CORPUS, database_url=db,
                        graph=GraphSettings(backend=GraphBackend.EMBEDDED, graph_name=GRAPH),
                        api=ApiSettings(rate_limit_per_minute=100_000), jobs=JobSettings(queue=QUEUE))
    store = FalkorGraphStore(graph=GRAPH, unix_socket_path=falkor_server.socket_path)
    store.open()
    store.clear()
    store.ensure_schema()
    ingest(store, [CORPUS / "legacy" / "iea.json"])
    with open_records(settings) as records:
        _, key = records.keys.create("crash-tester", Role.DATA_ENGINEER)
    try:
        yield Deployment(env, settings, store, key, folder)
    finally:
        store.clear()
        store.close()


def _records(code: str) -> bytes:
    """An Act of two sections in the generic format (text of the Karnataka Rent Act, 1999, s. 27 and 31,
    under a test code, so that its chunks are new to the index and must be embedded)."""
    rows = [
        {"record": "act", "code": code, "title": f"The Karnataka Rent ({code} Crash Test) Act, 1999", "year": 1999,
         "in_force_from": "2001-12-31"},
        {"act": code, "section": "27", "title": "Protection of tenants against eviction",
         "text": "(1) Notwithstanding anything to the contrary contained in any other law or contract, "
                 "no order or decree for the recovery of possession of any premises shall be made by any court "
                 "or other authority in favour of the landlord against a tenant: Provided that the Court may, "
                 "on an application made to it, make an order for the recovery of possession of a premises on "
                 "the ground that the tenant has neither paid nor tendered the whole of the arrears of the rent "
                 "legally recoverable from him within two months of the date on which a notice of demand has "
                 f"been served on him by the landlord. (Test copy {code}.)"},
        {"act": code, "section": "31", "title": "Recovery of possession for repairs and rebuilding",
         "text": "(1) The court may, on an application made by the landlord, make an order for the "
                 "recovery of possession of the premises on being satisfied that the premises are bona fide "
                 "required by the landlord for carrying out repairs which cannot be carried out without the "
                 f"premises being vacated. (Test copy {code}.)"},
    ]
    return ("\n".join(json.dumps(r) for r in rows) + "\n").encode()


def _upload(server: Server, key: str, code: str) -> str:
    status, _, body = http("POST", f"{server.url}/v1/ingest?filename={code.lower()}.jsonl", key, _records(code),
                           headers={"Content-Type": "application/x-ndjson"})
    assert status == 202, body
    job_id: str = json.loads(body)["job_id"]
    return job_id


def _job(server: Server, key: str, job_id: str) -> dict[str, Any]:
    status, _, body = http("GET", f"{server.url}/v1/jobs/{job_id}", key)
    assert status == 200, body
    doc: dict[str, Any] = json.loads(body)
    return doc


def _wait_finished(server: Server, key: str, job_id: str, timeout: float = 300) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    job = _job(server, key, job_id)
    while job["state"] not in ("succeeded", "succeeded_with_rejects", "failed"):
        assert time.monotonic() < deadline, f"job never finished: {job}"
        time.sleep(0.5)
        job = _job(server, key, job_id)
    return job


def _wait_paused(d: Deployment, job_id: str, stage: str, procs: list[subprocess.Popen[bytes]],
                 timeout: float = 300) -> Path:
    marker = d.settings.state_dir / "paused" / f"{job_id}.{stage}"
    deadline = time.monotonic() + timeout
    while not marker.exists():
        for p in procs:
            assert p.poll() is None, f"a process exited ({p.returncode}) before the job reached {stage}"
        assert time.monotonic() < deadline, f"job {job_id} never reached stage {stage}"
        time.sleep(0.1)
    return marker


def _start_worker(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with open(log, "ab") as fh:
        return subprocess.Popen([sys.executable, "-m", "legal_rag.cli", "worker", "--loglevel", "WARNING"], env=env,
                                stdout=fh, stderr=subprocess.STDOUT, start_new_session=True)


def disagreement(d: Deployment) -> dict[str, list[str]]:
    """Where the index differs from the graph: chunks the graph implies but the index lacks (an Act
    that can be verified but not found), chunks the index serves that the graph no longer has, and
    chunks whose text or metadata differ."""
    index = open_index(d.settings)
    try:
        have = {c.id: c for c in index.chunks()}
    finally:
        index.close()
    want = {c.id: c for c in graph_chunks(d.store)}
    return {"missing": sorted(set(want) - set(have)), "stale": sorted(set(have) - set(want)),
            "different": sorted(i for i in set(want) & set(have) if want[i] != have[i])}


def _published(d: Deployment) -> int:
    cur = IndexDirectory(index_root(d.settings)).current()
    return cur[0] if cur else 0


def _before_restart(d: Deployment, code: str, stage: str) -> None:
    """The crash point is real: what the graph and index hold when the process dies at ``stage``."""
    sections = d.store.section_numbers(code)
    gap = disagreement(d)
    if stage == "parse":
        assert sections == set() and not any(i.startswith(f"{code}:") for i in gap["missing"])
    elif stage == "write":  # the Act's batch landed, its sections' batch did not
        assert code in {a.code for a in d.store.all_acts()} and sections == set()
    else:  # index, embed: the graph holds the Act, the index does not (found by no search)
        assert sections == {"27", "31"}
        assert any(i.startswith(f"{code}:") for i in gap["missing"]), gap


def _after_restart(d: Deployment, server: Server, job: dict[str, Any], code: str) -> None:
    assert job["state"] == "succeeded", job
    assert job["attempts"] == 2, job  # the dead worker's attempt and the re-run
    assert d.store.section_numbers(code) == {"27", "31"}
    assert disagreement(d) == {"missing": [], "stale": [], "different": []}
    status, _, body = http("GET", f"{server.url}/ready")
    assert status == 200 and json.loads(body)["index_version"] == _published(d), body
    index = open_index(d.settings)
    try:
        assert {c.section for c in index.chunks() if c.act == code} == {"27", "31"}
        assert {c.source for c in index.chunks() if c.act == code} == {f"{code.lower()}.jsonl:2",
                                                                       f"{code.lower()}.jsonl:3"}
    finally:
        index.close()


@pytest.fixture(scope="module")
def api(deployment: Deployment) -> Iterator[Server]:
    """A server with no worker of its own: the worker-kill cases run their workers beside it."""
    server = start_server(deployment.env, deployment.logs / "serve.log", "--no-worker")
    try:
        yield server
    finally:
        stop_server(server.proc)


@pytest.mark.parametrize("stage", ["parse", "write", "index", "embed"])
def test_a_worker_killed_at_each_stage_is_recovered_when_a_worker_starts(
        deployment: Deployment, api: Server, stage: str) -> None:
    d = deployment
    code = f"KW{stage.upper()}"
    worker = _start_worker({**d.env, "LEGAL_RAG_JOBS__PAUSE_AT": stage}, d.logs / f"worker-{stage}.log")
    try:
        job_id = _upload(api, d.key, code)
        marker = _wait_paused(d, job_id, stage, [worker])
        running = _job(api, d.key, job_id)
        assert running["state"] == "running", running
    finally:
        stop_server(worker, signal.SIGKILL)  # the worker and its pool child, mid-job
    marker.unlink()
    assert _job(api, d.key, job_id)["state"] == "running"  # nothing else knows yet
    _before_restart(d, code, stage)

    worker = _start_worker(d.env, d.logs / f"worker-{stage}-2.log")
    try:
        job = _wait_finished(api, d.key, job_id)
    finally:
        stop_server(worker)
    _after_restart(d, api, job, code)


@pytest.mark.parametrize("stage", ["parse", "write", "index"])
def test_the_server_killed_with_its_worker_at_each_stage_is_recovered_when_it_starts(
        deployment: Deployment, stage: str) -> None:
    d = deployment
    code = f"KS{stage.upper()}"
    server = start_server({**d.env, "LEGAL_RAG_JOBS__PAUSE_AT": stage}, d.logs / f"serve-{stage}.log")
    try:
        job_id = _upload(server, d.key, code)
        marker = _wait_paused(d, job_id, stage, [server.proc])
    finally:
        stop_server(server.proc, signal.SIGKILL)  # uvicorn and its worker child: kill -9 of the group
    marker.unlink()
    _before_restart(d, code, stage)

    # The server alone, no worker yet: once ready it serves an index that matches the graph (the
    # Act written before the crash is searchable), and the job waits in the queue for a worker.
    server = start_server(d.env, d.logs / f"serve-{stage}-2.log", "--no-worker")
    try:
        assert disagreement(d) == {"missing": [], "stale": [], "different": []}
        status, _, body = http("GET", f"{server.url}/ready")
        assert status == 200 and json.loads(body)["index_version"] == _published(d), body
        queued = _job(server, d.key, job_id)
        assert queued["state"] == "queued" and "re-queued at start-up" in queued["error"], queued
        worker = _start_worker(d.env, d.logs / f"worker-after-{stage}.log")
        try:
            job = _wait_finished(server, d.key, job_id)
        finally:
            stop_server(worker)
        _after_restart(d, server, job, code)
    finally:
        stop_server(server.proc)
