"""Shared fixtures: a real embedded FalkorDB server for the whole session, Neo4j when NEO4J_URI is set,
and the shipped corpus loaded once."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from graph_schema.embedded import EmbeddedFalkorDB
from graph_schema.store import FalkorGraphStore, GraphStore, Neo4jGraphStore
from legal_rag.settings import PROJECT_ROOT, Settings

CORPUS = PROJECT_ROOT / "data" / "corpus"


@pytest.fixture(scope="session")
def falkor_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedFalkorDB]:
    server = EmbeddedFalkorDB(tmp_path_factory.mktemp("state") / "falkordb")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def settings(falkor_server: EmbeddedFalkorDB) -> Settings:
    """Settings whose embedded state dir is the session's server."""
    return Settings(corpus_dir=CORPUS, state_dir=falkor_server.data_dir.parent)


def _falkor(server: EmbeddedFalkorDB, graph: str) -> FalkorGraphStore:
    store = FalkorGraphStore(graph=graph, unix_socket_path=server.socket_path)
    store.open()
    store.ensure_schema()
    return store


def _neo4j() -> Neo4jGraphStore:
    store = Neo4jGraphStore(
        uri=os.environ["NEO4J_URI"],
        user=os.environ.get("NEO4J_USER", "neo4j"),
        password=os.environ.get("NEO4J_PASSWORD", ""),
    )
    store.open()
    store.clear()
    store.ensure_schema()
    return store


BACKENDS = ["falkordb"] + (["neo4j"] if os.environ.get("NEO4J_URI") else [])


@pytest.fixture(params=BACKENDS)
def graph_store(request: pytest.FixtureRequest, falkor_server: EmbeddedFalkorDB) -> Iterator[GraphStore]:
    """An empty graph on every backend we can run."""
    store: GraphStore
    store = _neo4j() if request.param == "neo4j" else _falkor(falkor_server, f"t_{uuid.uuid4().hex[:12]}")
    try:
        yield store
    finally:
        store.clear()
        store.close()


@pytest.fixture
def empty_store(falkor_server: EmbeddedFalkorDB) -> Iterator[FalkorGraphStore]:
    store = _falkor(falkor_server, f"e_{uuid.uuid4().hex[:12]}")
    try:
        yield store
    finally:
        store.clear()
        store.close()


class Loaded:
    def __init__(self, store: FalkorGraphStore, report: object) -> None:
        self.store = store
        self.report = report


@pytest.fixture(scope="session")
def loaded(falkor_server: EmbeddedFalkorDB) -> Iterator[Loaded]:
    """The whole shipped corpus, loaded once for the session (read-only for tests)."""
    from ingestion.pipeline import default_paths, ingest

    store = _falkor(falkor_server, "corpus")
    report = ingest(store, default_paths(CORPUS))
    try:
        yield Loaded(store, report)
    finally:
        store.close()


@pytest.fixture
def loaded_copy(falkor_server: EmbeddedFalkorDB) -> Iterator[FalkorGraphStore]:
    """A private graph with the whole default corpus, for tests that write to it."""
    from ingestion.pipeline import default_paths, ingest

    store = _falkor(falkor_server, f"c_{uuid.uuid4().hex[:12]}")
    ingest(store, default_paths(CORPUS))
    try:
        yield store
    finally:
        store.clear()
        store.close()


@pytest.fixture
def cli_env(falkor_server: EmbeddedFalkorDB, loaded: Loaded) -> dict[str, str]:
    """Environment for running ``legal-rag`` as a subprocess against the session's loaded corpus."""
    env = dict(os.environ)
    env.update(
        LEGAL_RAG_STATE_DIR=str(falkor_server.data_dir.parent),
        LEGAL_RAG_CORPUS_DIR=str(CORPUS),
        LEGAL_RAG_GRAPH__BACKEND="embedded",
        LEGAL_RAG_GRAPH__GRAPH_NAME="corpus",
        COLUMNS="200",
    )
    return env


@pytest.fixture
def stoppable_store(tmp_path: Path) -> Iterator[tuple[EmbeddedFalkorDB, FalkorGraphStore]]:
    """A private server (IPC + the case registry loaded) that a test may stop mid-run."""
    from ingestion.pipeline import ingest

    server = EmbeddedFalkorDB(tmp_path / "stoppable")
    server.start()
    try:
        store = FalkorGraphStore(unix_socket_path=server.socket_path)
        store.open()
        store.ensure_schema()
        ingest(store, [real_corpus_path("legacy", "ipc.json"), real_corpus_path("cases", "landmark_cases.jsonl")])
        yield server, store
    finally:
        server.stop()  # a no-op when the test already stopped it


def run_cli(env: dict[str, str], *args: str, stdin: str | None = None,
            timeout: float = 180) -> subprocess.CompletedProcess[str]:
    """Run ``legal-rag`` as a user would: a separate process, text in and out (``timeout``: a hang guard)."""
    return subprocess.run(
        [sys.executable, "-m", "legal_rag.cli", *args],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def real_corpus_path(*parts: str) -> Path:
    return CORPUS.joinpath(*parts)


# Acts the retrieval and workflow tests index (embedding the whole corpus would take minutes): the
# criminal codes old and new, marriage, cheques, dowry, domestic violence, the IT Act and the general law of limitation.
INDEX_ACTS = frozenset({"BNS", "BNSS", "BSA", "IPC", "CRPC", "IEA", "HMA", "NIA", "DPA", "PWDVA", "ITA", "LIMA"})


@pytest.fixture(scope="session")
def statute_index(loaded: Loaded, falkor_server: EmbeddedFalkorDB) -> Iterator[object]:
    """A real chunk index of ``INDEX_ACTS``, embedded once per session, where the CLI looks for it
    (``<state dir>/index/corpus``), so CLI tests can use it after ``closed_index``."""
    from legal_rag.retrieval.build import graph_chunks, open_index

    settings = Settings(state_dir=falkor_server.data_dir.parent)
    root = falkor_server.data_dir.parent / "index" / "corpus"
    idx = open_index(settings, root)
    report = idx.sync([c for c in graph_chunks(loaded.store) if c.act in INDEX_ACTS])
    assert report.added == len(idx) > 4000
    try:
        yield idx
    finally:
        idx.close()
