"""The Celery application, built from Settings (``make_celery``)."""

from __future__ import annotations

from typing import Any

from celery import Celery

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
        task_default_queue="legal_rag",
        worker_hijack_root_logger=False,
        broker_transport_options={"visibility_timeout": settings.jobs.visibility_timeout_s},
        result_backend_transport_options={"visibility_timeout": settings.jobs.visibility_timeout_s},
    )
    tasks.register(app, lambda: open_graph_store(settings), batch_size=settings.ingest.batch_size,
                   after_ingest=_index_sync(settings))
    return app


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
