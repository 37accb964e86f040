"""Celery tasks: thin, idempotent adapters over ``ingestion.pipeline.ingest``.

Tasks take paths, open a store through the injected factory, and report progress through the
result backend (state ``PROGRESS`` with ``stage``, ``done``, ``total``). ``acks_late`` with
``task_reject_on_worker_lost`` (set on the app) means a worker killed mid-ingest leaves the message
to be redelivered; re-running is harmless because every write is a MERGE on a stable key and
unchanged records are skipped. Only ``RetryableError`` (graph or broker down) is retried.

A job's message may arrive twice (Celery's redelivery after the visibility timeout, and the
re-queue of a job whose worker died, done when a server or worker starts): the task first claims
its job through the tracker, and a second delivery of a finished job, or of one a live worker is
running, does nothing (``Ignore``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from celery.exceptions import Ignore

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

    def claim(self, job_id: str, params: dict[str, Any]) -> bool:
        """Take the job for this process (and keep marking it alive until ``release``). False: it is
        finished, or a live worker runs it; this delivery must do nothing. ``params``: the task's
        arguments, kept so that the job can be re-run if this process dies."""

    def release(self, job_id: str) -> None:
        """This process is done with the job (stop marking it alive)."""

    def running(self, job_id: str, stage: str, done: int, total: int) -> None: ...

    def succeeded(self, job_id: str, result: dict[str, Any]) -> None: ...

    def failed(self, job_id: str, error: str, *, final: bool) -> None:
        """``final``: no retry follows (otherwise the job goes back to queued)."""


PROGRESS_EVERY_S = 0.5
"""At most this often a job's progress is written out (the last report of a stage always is)."""


class StagePause:
    """A test hook, off unless a stage is named: the job waits at ``stage`` while a marker file exists.

    On reaching the stage the job writes ``<folder>/<job id>.<stage>`` and polls until the file is
    gone, so a test can kill the worker or the server at a known point of a job (and delete the
    file to let the job go on). Explicit stages (``parse``, ``index``) pause where the task names
    them; a progress stage (``write``, ``embed``) pauses at its first report with work done (after
    the first batch). Each process pauses once per job and stage.
    """

    def __init__(self, stage: str | None, folder: Path) -> None:
        self.stage = stage
        self.folder = folder
        self._done: set[str] = set()

    def __call__(self, job_id: str, stage: str, done: int = 1) -> None:
        if stage != self.stage or done < 1 or job_id in self._done:
            return
        self._done.add(job_id)
        self.folder.mkdir(parents=True, exist_ok=True)
        marker = self.folder / f"{job_id}.{stage}"
        marker.write_text(f"{stage}\n", encoding="utf-8")
        while marker.exists():
            time.sleep(0.1)


def job_progress(task: Any, tracker: JobTracker | None, every_s: float = PROGRESS_EVERY_S,
                 pause: StagePause | None = None) -> Progress:
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
        if pause is not None:
            pause(job_id, stage, done)

    return progress


def claim_job(task: Any, tracker: JobTracker | None, params: dict[str, Any]) -> None:
    """Claim the task's job, or stop this delivery (Celery ``Ignore``: acknowledged, no result
    written) when the job is finished or a live worker runs it."""
    if tracker is not None and not tracker.claim(str(task.request.id), params):
        raise Ignore()


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
    pause: StagePause | None = None,
) -> Any:
    """Register the ingestion task on ``app`` and return it.

    Args:
        after_ingest: Run with the open store once the graph is written (the application brings
            its retrieval index up to date there, so an Act loaded by a job is searchable); its
            result is returned under ``"index"``. This package cannot import the application.
        tracker: Told when the job starts, how far it is, and how it ended.
        pause: The test hook that stops a job at a named stage (:class:`StagePause`); None in use.
    """

    @app.task(name=INGEST_TASK, **RETRYING_TASK)  # type: ignore[untyped-decorator]
    def ingest_task(self: Any, paths: list[str], strict: bool = False) -> dict[str, Any]:
        job_id = str(self.request.id)
        claim_job(self, tracker, {"paths": list(paths), "strict": strict})
        try:
            return _run_ingest(self, job_id, paths, strict)
        finally:
            if tracker is not None:
                tracker.release(job_id)

    def _run_ingest(task: Any, job_id: str, paths: list[str], strict: bool) -> dict[str, Any]:
        progress = job_progress(task, tracker, pause=pause)
        if tracker is not None:
            tracker.running(job_id, "parse", 0, len(paths))
        try:
            if pause is not None:
                pause(job_id, "parse")
            store = open_store()
            try:
                report = ingest(store, [Path(p) for p in paths], strict=strict, batch_size=batch_size,
                                progress=progress)
                result = report.as_dict()
                if after_ingest is not None:
                    if tracker is not None:
                        tracker.running(job_id, "index", 0, 0)
                    if pause is not None:
                        pause(job_id, "index")
                    result["index"] = after_ingest(store, progress)
            finally:
                store.close()
        except Exception as exc:
            job_failed(task, tracker, exc)
            raise
        if tracker is not None:
            tracker.succeeded(job_id, result)
        return result

    return ingest_task
