"""Housekeeping commands: status, worker, server start|stop|status."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from legal_rag.cli.common import _application, app, err, out, server_app


@app.command("status")
def status_cmd(as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Counts of what the graph holds."""
    with _application(first_run=False) as application:
        counts = application.counts()
    out.print_json(json.dumps(counts)) if as_json else out.print(counts)


@app.command("worker")
def worker_cmd(
    concurrency: Annotated[int, typer.Option("--concurrency", "-c")] = 1,
    loglevel: Annotated[str, typer.Option("--loglevel")] = "INFO",
) -> None:
    """Run a Celery worker for ingestion jobs (after ``legal-rag recover``: the index in line with the
    graph, jobs whose worker died re-queued)."""
    with _application(first_run=False) as application:
        application.run_worker(concurrency, loglevel)


@app.command("recover")
def recover_cmd(as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Bring the retrieval index in line with the graph and re-queue jobs whose worker died (failing
    those that died too often). The server and each worker do this when they start."""
    with _application(first_run=False) as application:
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
    with _application(first_run=False) as application:
        srv = application.graph_server("start")
    out.print(f"{'started' if srv.changed else 'already running'}: {srv.socket_path}")


@server_app.command("stop")
def server_stop() -> None:
    """Stop the embedded FalkorDB server cleanly (data is kept)."""
    with _application(first_run=False) as application:
        srv = application.graph_server("stop")
    out.print("stopped" if srv.changed else "not running")


@server_app.command("status")
def server_status() -> None:
    with _application(first_run=False) as application:
        srv = application.graph_server("status")
    out.print(f"{'running' if srv.running else 'stopped'}: {srv.socket_path}")
