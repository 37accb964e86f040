"""Housekeeping commands: status, worker, server start|stop|status."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Annotated

import typer

from legal_rag.cli.common import (
    _open,
    _settings,
    app,
    err,
    out,
    server_app,
)
from legal_rag.settings import GraphBackend


@app.command("status")
def status_cmd(as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Counts of what the graph holds."""
    settings = _settings()
    store = _open(settings)
    try:
        counts = store.counts()
    finally:
        store.close()
    out.print_json(json.dumps(counts)) if as_json else out.print(counts)


@app.command("worker")
def worker_cmd(
    concurrency: Annotated[int, typer.Option("--concurrency", "-c")] = 1,
    loglevel: Annotated[str, typer.Option("--loglevel")] = "INFO",
) -> None:
    """Run a Celery worker for ingestion jobs (after ``legal-rag recover``: the index in line with the
    graph, jobs whose worker died re-queued)."""
    from legal_rag.jobs import make_celery

    settings = _settings()
    if settings.graph.resolved_backend() is GraphBackend.EMBEDDED:
        from legal_rag.stores import embedded_server

        embedded_server(settings).start()
    # In a child process: an index update may load the embedding model, which must not be inherited
    # by the pool processes this one forks (ONNX Runtime's threads do not survive a fork).
    done = subprocess.run([sys.executable, "-m", "legal_rag.cli", "recover"], check=False)
    if done.returncode != 0:
        err.print(f"[yellow]start-up recovery failed (exit {done.returncode}); starting the worker anyway: "
                  "jobs it runs bring the index up to date, and the next start recovers again[/yellow]")
    celery = make_celery(settings)
    celery.worker_main(["worker", f"--concurrency={concurrency}", f"--loglevel={loglevel}", "-Q", settings.jobs.queue])


@app.command("recover")
def recover_cmd(as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Bring the retrieval index in line with the graph and re-queue jobs whose worker died (failing
    those that died too often). The server and each worker do this when they start."""
    from legal_rag.app import Application

    with Application(_settings(), first_run=False) as application:
        done = application.recover()
    if as_json:
        print(json.dumps(done))
        return
    i, j = done["index"], done["jobs"]
    index = (f"index not checked: {i['skipped']}" if "skipped" in i else
             f"index {i['added']} chunks added, {i['updated']} updated, {i['removed']} removed, "
             f"{i['relabelled']} relabelled" + (f"; version {i['version']} published" if i["version"] else ""))
    err.print(f"recover: {index}; jobs re-queued {len(j['requeued'])}, failed {len(j['failed'])}, "
              f"unsent {len(j['unsent'])}")


@server_app.command("start")
def server_start() -> None:
    """Start the embedded FalkorDB server (reused if already running)."""
    from legal_rag.stores import embedded_server

    srv = embedded_server(_settings())
    started = srv.start()
    out.print(f"{'started' if started else 'already running'}: {srv.socket_path}")


@server_app.command("stop")
def server_stop() -> None:
    """Stop the embedded FalkorDB server cleanly (data is kept)."""
    from legal_rag.stores import embedded_server

    srv = embedded_server(_settings())
    out.print("stopped" if srv.stop() else "not running")


@server_app.command("status")
def server_status() -> None:
    from legal_rag.stores import embedded_server

    srv = embedded_server(_settings())
    out.print(f"{'running' if srv.is_running() else 'stopped'}: {srv.socket_path}")
