"""The Celery application, built from Settings (``make_celery``)."""

from __future__ import annotations

from typing import Any

from celery import Celery

from finetune import tasks as finetune_tasks
from graph_schema.store import GraphStore
from ingestion import tasks
from legal_rag.settings import Settings
from legal_rag.stores import broker_url, open_graph_store, result_backend_url


def make_celery(settings: Settings) -> Celery:
    app = Celery("legal_rag", broker=broker_url(settings), backend=result_backend_url(settings))
    app.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_track_started=True,
        result_extended=True,
        broker_connection_retry_on_startup=True,
        task_default_queue=settings.jobs.queue,
        worker_hijack_root_logger=False,
        broker_transport_options={"visibility_timeout": settings.jobs.visibility_timeout_s},
        result_backend_transport_options={"visibility_timeout": settings.jobs.visibility_timeout_s},
    )
    tasks.register(app, lambda: open_graph_store(settings), batch_size=settings.ingest.batch_size,
                   after_ingest=_index_sync(settings), tracker=RecordsJobTracker(settings))
    finetune_tasks.register(app, lambda: open_graph_store(settings), corpus_dir=settings.corpus_dir,
                            tracker=FinetuneJobTracker(settings))
    return app


class RecordsJobTracker:
    """Writes a job's state, progress and report to its row in the records database.

    The records are opened on first use inside the worker process (never at import or in the
    parent of a prefork pool).
    """

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._records: Any = None

    def _jobs(self) -> Any:
        if self._records is None:
            from legal_rag.records import open_records

            self._records = open_records(self._settings)
        return self._records.jobs

    def running(self, job_id: str, stage: str, done: int, total: int) -> None:
        from legal_rag.records import JobState

        self._jobs().update(job_id, state=JobState.RUNNING, stage=stage, done=done, total=total)

    def succeeded(self, job_id: str, result: dict[str, Any]) -> None:
        from legal_rag.records import JobState

        jobs = self._jobs()
        row = jobs.get(job_id)
        total = row.total if row is not None and row.total else 0
        jobs.update(job_id, state=JobState.SUCCEEDED, stage="done", done=total, total=total,
                    report=job_report(result))

    def failed(self, job_id: str, error: str, *, final: bool) -> None:
        from legal_rag.records import JobState

        self._jobs().update(job_id, state=JobState.FAILED if final else JobState.QUEUED,
                            error=error if final else f"will retry: {error}")


class FinetuneJobTracker(RecordsJobTracker):
    """The job row of a ``finetune.build`` job: kind ``finetune``, its build report as the report."""

    def running(self, job_id: str, stage: str, done: int, total: int) -> None:
        from legal_rag.records import JobKind, JobState

        self._jobs().update(job_id, kind=JobKind.FINETUNE, state=JobState.RUNNING, stage=stage, done=done,
                            total=total)

    def succeeded(self, job_id: str, result: dict[str, Any]) -> None:
        from legal_rag.records import JobKind, JobState

        kept = sum(result.get("totals", {}).values())
        self._jobs().update(job_id, kind=JobKind.FINETUNE, state=JobState.SUCCEEDED, stage="done", done=kept,
                            total=kept, report=result)


def job_report(result: dict[str, Any]) -> dict[str, Any]:
    """An ingest result as a job report: totals at the top, each reject with its line and reason."""
    totals = result.get("totals", {})
    report: dict[str, Any] = {k: int(totals.get(k, 0)) for k in ("added", "updated", "unchanged", "rejected")}
    report["rejects"] = [{"line": int(r.get("line") or 0), "reason": str(r.get("reason", "")),
                          "file": r.get("file"), "act": r.get("act")} for r in result.get("rejects", [])]
    report["empty_files"] = list(result.get("empty_files", []))
    report["per_act"] = result.get("per_act", {})
    if "index" in result:
        report["index"] = result["index"]
    return report


def _index_sync(settings: Settings) -> tasks.AfterIngest:
    """After a job's graph writes: bring the shared retrieval index up to date (new version published)."""

    def sync(store: GraphStore, progress: tasks.Progress) -> dict[str, Any]:
        from legal_rag.retrieval.build import open_index, sync_from_graph

        index = open_index(settings)
        try:
            return sync_from_graph(index, store, progress).as_dict()
        finally:
            index.close()

    return sync


def job_status(app: Celery, job_id: str) -> dict[str, Any]:
    """State of a job: PENDING (unknown or queued), STARTED, PROGRESS, SUCCESS, FAILURE, RETRY."""
    res = app.AsyncResult(job_id)
    state = res.state
    out: dict[str, Any] = {"id": job_id, "state": state}
    info = res.info
    if state == "PROGRESS" and isinstance(info, dict):
        out.update(stage=info.get("stage"), done=info.get("done"), total=info.get("total"))
    elif state == "SUCCESS":
        out["result"] = res.result
    elif state in ("FAILURE", "RETRY"):
        out["error"] = f"{type(info).__name__}: {info}"
    return out
