"""Celery tasks: thin, idempotent adapters over ``ingestion.pipeline.ingest``.

Tasks take paths, open a store through the injected factory, and report progress through the
result backend (state ``PROGRESS`` with ``stage``, ``done``, ``total``). ``acks_late`` with
``task_reject_on_worker_lost`` (set on the app) means a worker killed mid-ingest leaves the message
to be redelivered; re-running is harmless because every write is a MERGE on a stable key and
unchanged records are skipped. Only ``RetryableError`` (graph or broker down) is retried.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from graph_schema.errors import RetryableError
from graph_schema.store import GraphStore
from ingestion.pipeline import ingest

INGEST_TASK = "legal_rag.ingest"


Progress = Callable[[str, int, int], None]
AfterIngest = Callable[[GraphStore, Progress], dict[str, Any]]


def register(
    app: Any, open_store: Callable[[], GraphStore], batch_size: int = 1000, after_ingest: AfterIngest | None = None
) -> Any:
    """Register the ingestion task on ``app`` and return it.

    Args:
        after_ingest: Run with the open store once the graph is written (the application brings
            its retrieval index up to date there, so an Act loaded by a job is searchable); its
            result is returned under ``"index"``. This package cannot import the application.
    """

    @app.task(  # type: ignore[misc]
        name=INGEST_TASK,
        bind=True,
        acks_late=True,
        autoretry_for=(RetryableError,),
        retry_backoff=2,
        retry_backoff_max=60,
        retry_jitter=True,
        max_retries=5,
    )
    def ingest_task(self: Any, paths: list[str], strict: bool = False) -> dict[str, Any]:
        def progress(stage: str, done: int, total: int) -> None:
            self.update_state(state="PROGRESS", meta={"stage": stage, "done": done, "total": total})

        store = open_store()
        try:
            report = ingest(store, [Path(p) for p in paths], strict=strict, batch_size=batch_size, progress=progress)
            result = report.as_dict()
            if after_ingest is not None:
                result["index"] = after_ingest(store, progress)
        finally:
            store.close()
        return result

    return ingest_task
