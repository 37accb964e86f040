"""What the benchmark scripts share: percentiles and a throw-away embedded graph with the corpus."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from graph_schema.embedded import EmbeddedFalkorDB
from graph_schema.store import FalkorGraphStore
from ingestion.pipeline import default_paths, ingest
from legal_rag.settings import PROJECT_ROOT

CORPUS = PROJECT_ROOT / "data" / "corpus"


def pct(xs: list[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank)."""
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


@contextmanager
def scratch_graph(
    load_corpus: bool = True, prefix: str = "legal-rag-bench-"
) -> Iterator[tuple[FalkorGraphStore, Path]]:
    """A private embedded FalkorDB in a temporary directory (optionally with the shipped corpus),
    stopped and deleted afterwards. Yields the open store and the temporary directory."""
    tmp = Path(tempfile.mkdtemp(prefix=prefix))
    server = EmbeddedFalkorDB(tmp / "falkordb")
    server.start()
    store = FalkorGraphStore(graph="bench", unix_socket_path=server.socket_path)
    try:
        store.open()
        store.ensure_schema()
        if load_corpus:
            ingest(store, default_paths(CORPUS))
        yield store, tmp
    finally:
        store.close()
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
