"""Housekeeping commands: status, worker, server start|stop|status."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from legal_rag.cli.common import (
    _open,
    _settings,
    app,
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
    """Run a Celery worker for ingestion jobs."""
    from legal_rag.jobs import make_celery

    settings = _settings()
    if settings.graph.resolved_backend() is GraphBackend.EMBEDDED:
        from legal_rag.stores import embedded_server

        embedded_server(settings).start()
    celery = make_celery(settings)
    celery.worker_main(["worker", f"--concurrency={concurrency}", f"--loglevel={loglevel}", "-Q", settings.jobs.queue])


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
