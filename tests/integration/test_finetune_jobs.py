"""``finetune.build`` on a real Celery worker process (the embedded server's Redis as broker; no mocks)."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

from finetune.tasks import FINETUNE_BUILD_TASK
from graph_schema.embedded import EmbeddedFalkorDB
from legal_rag.jobs import job_status, make_celery
from legal_rag.settings import Settings
from tests.conftest import CORPUS, Loaded
from tests.integration.test_jobs import kill_group, start_worker, wait_for

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def test_build_job_writes_the_dataset_and_reports_its_counts(
    falkor_server: EmbeddedFalkorDB, loaded: Loaded, statute_index: object, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch
) -> None:
    env = dict(os.environ)
    env.update(LEGAL_RAG_STATE_DIR=str(falkor_server.data_dir.parent), LEGAL_RAG_CORPUS_DIR=str(CORPUS),
               LEGAL_RAG_GRAPH__BACKEND="embedded", LEGAL_RAG_GRAPH__GRAPH_NAME="corpus")  # fmt: skip
    for k, v in env.items():
        if k.startswith("LEGAL_RAG_"):
            monkeypatch.setenv(k, v)
    app = make_celery(Settings())
    out = tmp_path / "job"
    job = app.send_task(FINETUNE_BUILD_TASK, args=[str(out), 25, 7, 0.2])
    worker = start_worker(env)
    try:
        done = wait_for(app, job.id, lambda s: s["state"] in ("SUCCESS", "FAILURE"), 240)
    finally:
        kill_group(worker, signal.SIGTERM)
    assert done["state"] == "SUCCESS", done
    result = done["result"]
    assert result["totals"] == {"train": 20, "eval": 5}
    assert result["counts"]["eval"] == {c: 1 for c in ("correct", "distractor", "insufficient", "misattributed",
                                                       "outdated")}
    card = json.loads((out / "card.json").read_text())
    assert card["counts"] == result["counts"]
    assert card["contexts"] == "retriever"  # a job's contexts are what an answer sees, as from the CLI
    assert sum(1 for _ in (out / "dpo" / "train.jsonl").open()) == 20
    assert job_status(app, job.id)["state"] == "SUCCESS"
    # the job's row in the records: kind finetune, the build report, progress at the end
    from legal_rag.records import open_records

    with open_records(Settings()) as records:
        row = records.jobs.get(job.id)
    assert row is not None and (row.kind, row.state) == ("finetune", "succeeded")
    assert row.report["totals"] == result["totals"] and (row.done, row.total) == (25, 25)
