"""``legal-rag serve`` (the HTTP API) and ``legal-rag keys`` (its API keys)."""

from __future__ import annotations

import json
import signal
import subprocess
from typing import Annotated, Any

import typer

from legal_rag.cli.common import _application, _settings, app, err, out
from legal_rag.roles import DEFAULT_TEAM, Role

keys_app = typer.Typer(no_args_is_help=True, help="API keys for the HTTP API (only a hash is stored).")
app.add_typer(keys_app, name="keys")


@app.command("serve")
def serve_cmd(
    host: Annotated[str, typer.Option("--host")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535)] = 8000,
    worker: Annotated[bool, typer.Option("--worker/--no-worker",
                                         help="Also run one Celery worker (embedded default only).")] = True,
    log_level: Annotated[str, typer.Option("--log-level")] = "info",
) -> None:
    """Serve the HTTP API and the research page (FastAPI on uvicorn).

    The statute graph, index and models load once at start-up (``/ready`` answers 503 until then;
    a fresh clone loads the shipped corpus first). On the embedded default one Celery worker runs
    as a child process so ingest jobs work with this one command.
    """
    import uvicorn

    from legal_rag.api.app import create_app

    settings = _settings()
    with _application(settings, first_run=False) as application:
        child = application.start_worker_process() if worker else None
    if child is not None:
        err.print("started one Celery worker (legal-rag worker) for ingest jobs")
    try:
        uvicorn.run(create_app(settings), host=host, port=port, log_level=log_level, timeout_graceful_shutdown=10)
    finally:
        if child is not None:
            child.send_signal(signal.SIGTERM)
            try:
                child.wait(timeout=20)
            except subprocess.TimeoutExpired:
                child.kill()


@keys_app.command("create")
def keys_create(
    role: Annotated[Role, typer.Option("--role", help="lawyer, paralegal, data_engineer, admin or metrics")],
    name: Annotated[str, typer.Option("--name", help="Who holds the key (unique; shown in audit fields).")],
    team: Annotated[str, typer.Option("--team", help="Whose answers and flags the key sees (an admin's: all).")]
    = DEFAULT_TEAM,
) -> None:
    """Make a key; it is printed once, alone on the last line (only its hash is stored)."""
    with _application(first_run=False) as application:
        row, raw = application.create_key(name, role, team)
    err.print(f"key for {row.name!r} ({row.role}, team {row.team!r}); store it now, it cannot be shown again:")
    print(raw)


@keys_app.command("list")
def keys_list(as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Every key: name, role, prefix, created, revoked."""
    with _application(first_run=False) as application:
        rows = application.api_keys()
    docs: list[dict[str, Any]] = [
        {"name": r.name, "role": r.role, "team": r.team, "prefix": r.prefix, "created_at": r.created_at.isoformat(),
         "revoked_at": r.revoked_at.isoformat() if r.revoked_at else None} for r in rows]
    if as_json:
        print(json.dumps(docs))
        return
    if not docs:
        out.print("no keys yet: legal-rag keys create --role lawyer --name NAME")
    for d in docs:
        state = f"revoked {d['revoked_at'][:19]}" if d["revoked_at"] else "active"
        print(f"{d['name']:<24} {d['role']:<14} {d['team']:<16} {d['prefix']}…  created {d['created_at'][:19]}",
              state, sep="  ")


@keys_app.command("revoke")
def keys_revoke(name: Annotated[str, typer.Argument(help="The key's name.")]) -> None:
    """Revoke a key at once (requests with it get 401)."""
    with _application(first_run=False) as application:
        row = application.revoke_key(name)
    out.print(f"revoked {row.name!r} ({row.role})")
