"""Celery task: a thin, idempotent adapter over ``build_dataset``.

Paths and numbers in, the dataset written to ``out``, its report returned. Re-running with the same
arguments on the same graph writes byte-identical files (each file is replaced whole), so a
redelivered message (``acks_late``) is harmless; a second delivery of a finished job, or of one a
live worker runs, does nothing (``claim_job``). Only ``RetryableError`` (graph down) is retried.
Progress goes to the result backend as state ``PROGRESS`` with ``stage``, ``done``, ``total``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from finetune.build import BuildConfig, TokenizerFile, build_dataset
from finetune.examples import Neighbours
from graph_schema.errors import LegalRagError
from graph_schema.store import GraphStore
from ingestion.tasks import RETRYING_TASK, JobTracker, claim_job, job_failed, job_progress

FINETUNE_BUILD_TASK = "finetune.build"
PROGRESS_EVERY_S = 2.0
"""Progress reaches the job row at most this often (every example would be a write per example)."""


def register(app: Any, open_store: Callable[[], GraphStore], *, tokenizer: TokenizerFile,
             corpus_dir: Path | None = None, tracker: JobTracker | None = None,
             neighbours: Callable[[GraphStore], Neighbours] | None = None) -> Any:
    """Register ``finetune.build`` on ``app`` and return it; ``tokenizer`` counts the card's token lengths.

    ``neighbours(store)``: the product's retriever over the job's graph, so that a job's contexts are what an
    answer sees, as in a build run from the CLI (None: contexts from the split's other units, named so in the
    card)."""

    @app.task(name=FINETUNE_BUILD_TASK, **RETRYING_TASK)  # type: ignore[untyped-decorator]
    def build_task(self: Any, out: str, n: int = 1000, seed: int = 7, eval_fraction: float = 0.1) -> dict[str, Any]:
        from verification import Verifier

        job_id = str(self.request.id)
        claim_job(self, tracker, {"out": out, "n": n, "seed": seed, "eval_fraction": eval_fraction})
        progress = job_progress(self, tracker, PROGRESS_EVERY_S)
        try:
            if tracker is not None:
                tracker.running(job_id, "start", 0, n)
            try:
                store = open_store()
                try:
                    config = BuildConfig(n=n, seed=seed, eval_fraction=eval_fraction)
                    report = build_dataset(store, Verifier(store), Path(out), config, corpus_dir=corpus_dir,
                                           progress=progress, tokenizer=tokenizer,
                                           neighbours=neighbours(store) if neighbours is not None else None)
                finally:
                    store.close()
            except LegalRagError as exc:  # RetryableError included: final only once the retries are spent
                job_failed(self, tracker, exc)
                raise
            result = report.as_dict()
            if tracker is not None:
                tracker.succeeded(job_id, result)
            return result
        finally:
            if tracker is not None:
                tracker.release(job_id)

    return build_task
