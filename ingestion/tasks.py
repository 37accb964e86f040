"""Celery tasks: thin, idempotent adapters over ``ingestion.pipeline.ingest``.

Tasks take paths, open a store through the injected factory, and report progress through the
result backend (state ``PROGRESS`` with ``stage``, ``done``, ``total``). ``acks_late`` with
``task_reject_on_worker_lost`` (set on the app) means a worker killed mid-ingest leaves the message
to be redelivered; re-running is harmless because every write is a MERGE on a stable key and
unchanged records are skipped. Only ``RetryableError`` (graph or broker down) is retried.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from graph_schema.errors import RetryableError
from graph_schema.store import GraphStore
from ingestion.pipeline import ingest

INGEST_TASK = "legal_rag.ingest"
RETRYING_TASK: dict[str, Any] = {
    "bind": True,
    "acks_late": True,  # a worker killed mid-job leaves the message for the next worker
    "autoretry_for": (RetryableError,),  # only transient faults (graph down); bad input fails at once
    "retry_backoff": 2,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 5,
}
"""Celery options shared by every job task (ingest, finetune build)."""


Progress = Callable[[str, int, int], None]
AfterIngest = Callable[[GraphStore, Progress], dict[str, Any]]


class JobTracker(Protocol):
    """Where a task records its job's life (the application's job rows; this package cannot import them)."""

    def running(self, job_id: str, stage: str, done: int, total: int) -> None: ...

    def succeeded(self, job_id: str, result: dict[str, Any]) -> None: ...

    def failed(self, job_id: str, error: str, *, final: bool) -> None:
        """``final``: no retry follows (otherwise the job goes back to queued)."""


PROGRESS_EVERY_S = 0.5
"""At most this often a job's progress is written out (the last report of a stage always is)."""


def job_progress(task: Any, tracker: JobTracker | None, every_s: float = PROGRESS_EVERY_S) -> Progress:
    """Progress of the running Celery ``task``: every report to its result backend (state ``PROGRESS``),
    and to ``tracker`` at most every ``every_s`` seconds and at the end of each stage."""
    job_id = str(task.request.id)
    last = [0.0]

    def progress(stage: str, done: int, total: int) -> None:
        task.update_state(state="PROGRESS", meta={"stage": stage, "done": done, "total": total})
        now = time.monotonic()
        if tracker is not None and (now - last[0] >= every_s or done >= total):
            last[0] = now
            tracker.running(job_id, stage, done, total)

    return progress


def job_failed(task: Any, tracker: JobTracker | None, exc: BaseException) -> None:
    """Tell ``tracker`` the job failed; final unless Celery will retry it (a retryable error with retries left)."""
    if tracker is not None:
        final = not isinstance(exc, RetryableError) or task.request.retries >= task.max_retries
        tracker.failed(str(task.request.id), f"{type(exc).__name__}: {exc}", final=final)


def register(
    app: Any,
    open_store: Callable[[], GraphStore],
    batch_size: int = 1000,
    after_ingest: AfterIngest | None = None,
    tracker: JobTracker | None = None,
) -> Any:
    """Register the ingestion task on ``app`` and return it.

    Args:
        after_ingest: Run with the open store once the graph is written (the application brings
            its retrieval index up to date there, so an Act loaded by a job is searchable); its
            result is returned under ``"index"``. This package cannot import the application.
        tracker: Told when the job starts, how far it is, and how it ended.
    """

    @app.task(name=INGEST_TASK, **RETRYING_TASK)  # type: ignore[untyped-decorator]
    def ingest_task(self: Any, paths: list[str], strict: bool = False) -> dict[str, Any]:
        job_id = str(self.request.id)
        progress = job_progress(self, tracker)
        if tracker is not None:
            tracker.running(job_id, "start", 0, 0)
        try:
            store = open_store()
            try:
                report = ingest(store, [Path(p) for p in paths], strict=strict, batch_size=batch_size,
                                progress=progress)
                result = report.as_dict()
                if after_ingest is not None:
                    result["index"] = after_ingest(store, progress)
            finally:
                store.close()
        except Exception as exc:
            job_failed(self, tracker, exc)
            raise
        if tracker is not None:
            tracker.succeeded(job_id, result)
        return result

    return ingest_task
