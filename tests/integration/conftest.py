"""A real ``legal-rag serve`` (uvicorn + its Celery worker child) on the session's embedded server,
with its own graph (``api``, loaded by the server's first run), index and records database; and
the same application in process for TestClient and schemathesis."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from graph_schema.embedded import EmbeddedFalkorDB
from legal_rag.records import Role
from legal_rag.settings import ApiSettings, GraphBackend, GraphSettings, JobSettings, Settings
from tests.conftest import CORPUS, Loaded

if TYPE_CHECKING:
    from fastapi.testclient import TestClient

    from legal_rag.retrieval.index import ChunkIndex
    from legal_rag.workflow.service import AskService

API_GRAPH = "api"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    url: str
    proc: subprocess.Popen[bytes]
    log: Path
    keys: dict[str, str] = field(default_factory=dict)


def start_server(env: dict[str, str], log: Path, *extra: str, timeout: float = 600) -> Server:
    """``legal-rag serve`` as a user starts it; returns once ``/ready`` says ready."""
    port = free_port()
    with open(log, "ab") as fh:
        proc = subprocess.Popen([sys.executable, "-m", "legal_rag.cli", "serve", "--port", str(port), *extra],
                                env=env, stdout=fh, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"legal-rag serve exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        with contextlib.suppress(OSError), urllib.request.urlopen(url + "/ready", timeout=5) as r:  # noqa: S310
            if r.status == 200:
                return Server(url, proc, log)
        time.sleep(0.5)
    stop_server(proc)
    raise AssertionError(f"legal-rag serve not ready after {timeout} s:\n{log.read_text()[-3000:]}")


def stop_server(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, sig)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)


def create_key(env: dict[str, str], role: str, name: str) -> str:
    """``legal-rag keys create``: the key is alone on the last line of stdout."""
    done = subprocess.run([sys.executable, "-m", "legal_rag.cli", "keys", "create", "--role", role, "--name", name],
                          env=env, capture_output=True, text=True, timeout=120, check=True)
    return done.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="session")
def api_env(falkor_server: EmbeddedFalkorDB, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    db = tmp_path_factory.mktemp("api-records") / "records.sqlite3"
    env = dict(os.environ)
    env.update(
        LEGAL_RAG_STATE_DIR=str(falkor_server.data_dir.parent),
        LEGAL_RAG_CORPUS_DIR=str(CORPUS),
        LEGAL_RAG_GRAPH__BACKEND="embedded",
        LEGAL_RAG_GRAPH__GRAPH_NAME=API_GRAPH,
        LEGAL_RAG_DATABASE_URL=f"sqlite:///{db}",
        LEGAL_RAG_API__RATE_LIMIT_PER_MINUTE="100000",
        LEGAL_RAG_JOBS__QUEUE="legal_rag_api_tests",  # the job tests' workers use the default queue
    )
    return env


@pytest.fixture(scope="session")
def api_server(api_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The server a user runs, with one key per role (made with ``legal-rag keys create``)."""
    server = start_server(api_env, tmp_path_factory.mktemp("serve") / "serve.log")
    try:
        server.keys = {role.value: create_key(api_env, role.value, f"test-{role.value}") for role in Role}
        yield server
    finally:
        stop_server(server.proc)


@pytest.fixture(scope="session")
def api_settings(api_env: dict[str, str], api_server: Server) -> Settings:
    """Settings of the same deployment (graph, index, records), for an in-process app beside the server."""
    return Settings(
        state_dir=Path(api_env["LEGAL_RAG_STATE_DIR"]), corpus_dir=CORPUS,
        graph=GraphSettings(backend=GraphBackend.EMBEDDED, graph_name=API_GRAPH),
        database_url=api_env["LEGAL_RAG_DATABASE_URL"], api=ApiSettings(rate_limit_per_minute=100_000),
        jobs=JobSettings(queue=api_env["LEGAL_RAG_JOBS__QUEUE"]))


def http(method: str, url: str, key: str | None = None, body: object = None,
         headers: dict[str, str] | None = None, timeout: float = 120) -> tuple[int, dict[str, str], bytes]:
    """One request with the standard library (status, headers, body), errors included."""
    data = json.dumps(body).encode() if body is not None and not isinstance(body, bytes) else body
    req = urllib.request.Request(url, data=data, method=method)  # noqa: S310 - our own server
    if body is not None:
        req.add_header("Content-Type", "application/json")
    if key:
        req.add_header("X-API-Key", key)
    for k, v in (headers or {}).items():
        req.add_header(k, v)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:  # noqa: S310
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


@pytest.fixture(scope="module")
def client(api_settings: Settings) -> Iterator[TestClient]:
    """The API app in process over the served state (one per test module), once it reports ready."""
    from fastapi.testclient import TestClient

    from legal_rag.api.app import create_app
    from legal_rag.app import Application

    application = Application(api_settings, first_run=False)
    with TestClient(create_app(api_settings, application)) as c:
        deadline = time.monotonic() + 300
        while c.get("/ready").status_code != 200:
            assert time.monotonic() < deadline, c.get("/ready").json()
            time.sleep(0.2)
        yield c
    application.close()


@pytest.fixture(scope="module")
def keys(api_server: Server) -> dict[str, str]:
    return api_server.keys


@pytest.fixture(scope="module")
def service(loaded: Loaded, statute_index: ChunkIndex) -> AskService:
    """The ask service a user gets (graph, retriever and embedder as configured) over the shared statute index."""
    from legal_rag.retrieval.build import build_retriever, embedder
    from legal_rag.workflow.service import build_service

    settings = Settings()
    return build_service(settings, loaded.store, build_retriever(settings, statute_index, loaded.store),
                         embedder(settings))
