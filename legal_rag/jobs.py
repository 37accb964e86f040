"""The Celery application, built from Settings (``make_celery``), and the job rows its tasks keep."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from celery import Celery

from finetune import TokenizerFile
from finetune import tasks as finetune_tasks
from finetune.examples import Neighbours
from graph_schema.store import GraphStore
from ingestion import tasks
from legal_rag.retrieval.onnx_minilm import TOKENIZER, TOKENIZER_NAME
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
    pause = tasks.StagePause(settings.jobs.pause_at, settings.state_dir / "paused") if settings.jobs.pause_at else None
    tasks.register(app, lambda: open_graph_store(settings), batch_size=settings.ingest.batch_size,
                   after_ingest=_index_sync(settings), tracker=RecordsJobTracker(settings), pause=pause)
    finetune_tasks.register(app, lambda: open_graph_store(settings), corpus_dir=settings.corpus_dir,
                            tokenizer=TokenizerFile(TOKENIZER, TOKENIZER_NAME),
                            tracker=FinetuneJobTracker(settings), neighbours=_retriever(settings))
    return app


def _retriever(settings: Settings) -> Callable[[GraphStore], Neighbours]:
    """The product's retriever over the shared index, for a build job's contexts (as ``finetune build`` has them
    from the CLI). The index is opened in the worker process, once, on the first job."""
    opened: list[Any] = []
    lock = threading.Lock()

    def neighbours(store: GraphStore) -> Neighbours:
        from finetune.examples import from_retriever
        from legal_rag.retrieval.build import build_retriever, open_index

        with lock:
            if not opened:
                opened.append(open_index(settings))
            return from_retriever(build_retriever(settings, opened[0], store))

    return neighbours


class RecordsJobTracker:
    """Writes a job's state, progress and report to its row in the records database.

    The records are opened on first use inside the worker process (never at import or in the
    parent of a prefork pool). While this process runs a job, a thread marks the row every
    ``jobs.heartbeat_s`` (how a process on another machine tells the job is not orphaned).
    """

    kind = "ingest"

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._records: Any = None
        self._beats: dict[str, threading.Event] = {}

    def _jobs(self) -> Any:
        if self._records is None:
            from legal_rag.records import open_records

            self._records = open_records(self._settings)
        return self._records.jobs

    def claim(self, job_id: str, params: dict[str, Any]) -> bool:
        from legal_rag.records import Claim
        from legal_rag.recovery import runner_alive, this_runner

        runner = this_runner()
        stale = self._settings.jobs.stale_after_s
        got = self._jobs().claim(job_id, runner, kind=self.kind, params=params,
                                 holder_alive=lambda row: runner_alive(row, stale))
        if got is not Claim.CLAIMED:
            return False
        stop = threading.Event()
        self._beats[job_id] = stop
        threading.Thread(target=self._beat, args=(job_id, runner, stop), name=f"job-heartbeat-{job_id[:8]}",
                         daemon=True).start()
        return True

    def _beat(self, job_id: str, runner: str, stop: threading.Event) -> None:
        from graph_schema.errors import RecordsUnavailableError

        while not stop.wait(self._settings.jobs.heartbeat_s):
            try:
                if not self._jobs().heartbeat(job_id, runner):
                    return  # finished, or taken over: nothing more to mark
            except RecordsUnavailableError:
                continue  # a missed beat; the next one tries again

    def release(self, job_id: str) -> None:
        stop = self._beats.pop(job_id, None)
        if stop is not None:
            stop.set()

    def running(self, job_id: str, stage: str, done: int, total: int) -> None:
        from legal_rag.records import JobState

        self._jobs().update(job_id, kind=self.kind, state=JobState.RUNNING, stage=stage, done=done, total=total)

    def succeeded(self, job_id: str, result: dict[str, Any]) -> None:
        """Finished: ``succeeded``, ``succeeded_with_rejects`` (some records refused, listed in the
        report) or ``failed`` when every record was rejected (nothing loaded)."""
        from legal_rag.records import JobState

        jobs = self._jobs()
        row = jobs.get(job_id)
        total = row.total if row is not None and row.total else 0
        report = job_report(result)
        rejected = report["rejected"]
        loaded = report["added"] + report["updated"] + report["unchanged"]
        if rejected and not loaded:
            jobs.update(job_id, state=JobState.FAILED, stage="done", done=total, total=total, report=report,
                        error=f"every record was rejected ({rejected}); nothing was loaded (see the report)")
            return
        state = JobState.SUCCEEDED_WITH_REJECTS if rejected else JobState.SUCCEEDED
        jobs.update(job_id, state=state, stage="done", done=total, total=total, report=report, clear_error=True)

    def failed(self, job_id: str, error: str, *, final: bool) -> None:
        from legal_rag.records import JobState

        self._jobs().update(job_id, kind=self.kind, state=JobState.FAILED if final else JobState.QUEUED,
                            error=error if final else f"will retry: {error}")


class FinetuneJobTracker(RecordsJobTracker):
    """The job row of a ``finetune.build`` job: kind ``finetune``, its build report as the report."""

    kind = "finetune"

    def succeeded(self, job_id: str, result: dict[str, Any]) -> None:
        from legal_rag.records import JobKind, JobState

        kept = sum(result.get("totals", {}).values())
        self._jobs().update(job_id, kind=JobKind.FINETUNE, state=JobState.SUCCEEDED, stage="done", done=kept,
                            total=kept, report=result, clear_error=True)


def job_report(result: dict[str, Any]) -> dict[str, Any]:
    """An ingest result as a job report: totals at the top, each reject with its line and reason."""
    totals = result.get("totals", {})
    report: dict[str, Any] = {k: int(totals.get(k, 0)) for k in ("added", "updated", "unchanged", "rejected")}
    report["rejects"] = [{"line": int(r.get("line") or 0), "column": r.get("column"),
                          "reason": str(r.get("reason", "")), "file": r.get("file"), "act": r.get("act"),
                          "problems": list(r.get("problems") or [])} for r in result.get("rejects", [])]
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
