"""``legal-rag`` command line: thin entry points over ingestion, lookup and jobs."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from graph_schema.errors import IngestError, LegalRagError, StoreUnavailableError
from graph_schema.store import GraphStore
from ingestion.pipeline import default_paths, ingest
from ingestion.report import IngestReport
from legal_rag.settings import GraphBackend, Settings

app = typer.Typer(add_completion=False, no_args_is_help=True, help="Indian statute research with verified citations.")
server_app = typer.Typer(no_args_is_help=True, help="The embedded FalkorDB server.")
app.add_typer(server_app, name="server")

err = Console(stderr=True)
out = Console()

EXIT_NOT_FOUND = 1
EXIT_BAD_INPUT = 2
EXIT_UNAVAILABLE = 3


def _settings() -> Settings:
    return Settings()


def _open(settings: Settings) -> GraphStore:
    from legal_rag.stores import open_graph_store

    try:
        return open_graph_store(settings)
    except StoreUnavailableError as exc:
        err.print(f"[red]graph unavailable, nothing could be checked:[/red] {exc}")
        raise typer.Exit(EXIT_UNAVAILABLE) from exc


def _ensure_loaded(store: GraphStore, settings: Settings) -> None:
    """First run: an empty graph gets the shipped corpus before answering."""
    if store.all_acts():
        return
    err.print("[yellow]graph is empty: loading the shipped corpus (first run)...[/yellow]")
    report = _run_ingest(store, default_paths(settings.corpus_dir), strict=False, settings=settings, quiet=True)
    err.print(f"loaded: {report.totals()}")


def _run_ingest(
    store: GraphStore, paths: list[Path], *, strict: bool, settings: Settings, quiet: bool = False
) -> IngestReport:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=err, transient=quiet, disable=quiet,
    ) as bar:  # fmt: skip
        task = bar.add_task("reading sources", total=None)

        def progress(stage: str, done: int, total: int) -> None:
            bar.update(task, description="writing records", completed=done, total=total)

        return ingest(store, paths, strict=strict, batch_size=settings.ingest.batch_size, progress=progress)


def _print_report(report: IngestReport) -> None:
    table = Table(title="ingest summary")
    for col in ("act", "added", "updated", "unchanged", "rejected"):
        table.add_column(col, justify="left" if col == "act" else "right")
    for act in report.acts:
        table.add_row(act, str(report.added[act]), str(report.updated[act]), str(report.unchanged[act]),
                      str(report.rejected[act]))
    t = report.totals()
    table.add_row("[bold]total", *(f"[bold]{t[k]}" for k in ("added", "updated", "unchanged", "rejected")))
    out.print(table)
    if not report.changed:
        out.print("unchanged: nothing written")
    for r in report.rejects[:50]:
        err.print(f"[yellow]rejected[/yellow] {r}")
    if len(report.rejects) > 50:
        err.print(f"... and {len(report.rejects) - 50} more rejected (use --json for all)")


@app.command("ingest")
def ingest_cmd(
    paths: Annotated[list[Path] | None, typer.Argument(help="Files or directories to load.")] = None,
    default: Annotated[bool, typer.Option("--default", help="Load the shipped corpus.")] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Write nothing if any record is rejected.")] = False,
    run_async: Annotated[bool, typer.Option("--async", help="Enqueue on Celery and print the job id.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Load statutes, correspondence tables and curation files into the graph (idempotent)."""
    settings = _settings()
    targets = list(paths or [])
    if default:
        targets = default_paths(settings.corpus_dir) + targets
    if not targets:
        err.print("nothing to ingest: give PATH... or --default")
        raise typer.Exit(EXIT_BAD_INPUT)
    missing = [p for p in targets if not p.exists()]
    if missing:
        err.print(f"[red]no such file or directory:[/red] {', '.join(map(str, missing))}")
        raise typer.Exit(EXIT_BAD_INPUT)
    if run_async:
        from legal_rag.jobs import make_celery

        if settings.graph.resolved_backend() is GraphBackend.EMBEDDED:
            from legal_rag.stores import embedded_server

            embedded_server(settings).start()  # the embedded server is also the default broker
        celery = make_celery(settings)
        res = celery.send_task("legal_rag.ingest", args=[[str(p.resolve()) for p in targets], strict])
        out.print(json.dumps({"job_id": res.id}) if as_json else res.id)
        return
    store = _open(settings)
    try:
        report = _run_ingest(store, targets, strict=strict, settings=settings, quiet=as_json)
    except IngestError as exc:
        err.print(f"[red]ingest refused:[/red] {exc}")
        raise typer.Exit(EXIT_BAD_INPUT) from exc
    except StoreUnavailableError as exc:
        err.print(f"[red]graph became unavailable; whole batches written so far are kept, re-run:[/red] {exc}")
        raise typer.Exit(EXIT_UNAVAILABLE) from exc
    finally:
        store.close()
    if as_json:
        out.print_json(json.dumps(report.as_dict()))
    else:
        _print_report(report)


@app.command("jobs")
def jobs_cmd(
    job_id: Annotated[str, typer.Argument(help="Job id printed by ingest --async.")],
    as_json: Annotated[bool, typer.Option("--json")] = False,
    wait: Annotated[float, typer.Option("--wait", help="Poll until finished, up to this many seconds.")] = 0.0,
) -> None:
    """Show an ingestion job's progress or result."""
    from legal_rag.jobs import job_status, make_celery

    celery = make_celery(_settings())
    deadline = time.monotonic() + wait
    status = job_status(celery, job_id)
    while wait and status["state"] not in ("SUCCESS", "FAILURE") and time.monotonic() < deadline:
        time.sleep(0.5)
        status = job_status(celery, job_id)
    if as_json:
        out.print_json(json.dumps(status, default=str))
        return
    state = status["state"]
    if state == "PROGRESS":
        out.print(f"{job_id}: {status['stage']} {status['done']}/{status['total']}")
    elif state == "SUCCESS":
        report = status["result"]
        out.print(f"{job_id}: done {report['totals']}")
    elif state == "FAILURE":
        out.print(f"{job_id}: failed: {status['error']}")
    else:
        out.print(f"{job_id}: {state.lower()}")


@app.command("section")
def section_cmd(
    act: Annotated[str, typer.Argument(help="Act code or alias (IPC, 'Hindu Marriage Act, 1955'), or - for stdin.")],
    number: Annotated[str | None, typer.Argument(help="Section, with sub-units: 302, 498A, 103(1), 13(1)(ia).")] = None,
    as_of: Annotated[str | None, typer.Option("--as-of", help="Date of the facts, YYYY-MM-DD (default today).")] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Show a provision, its status on a date, its successors or predecessors, and its text.

    With ``-`` reads JSON lines {"act", "section", "as_of"} from stdin and writes one JSON line each.
    """
    from legal_rag.lookup import LookupService

    settings = _settings()
    store = _open(settings)
    try:
        _ensure_loaded(store, settings)
        service = LookupService(store)
        if act == "-":
            _section_stream(service)
            return
        if number is None:
            err.print("give ACT NUMBER, or - to read JSON lines from stdin")
            raise typer.Exit(EXIT_BAD_INPUT)
        try:
            result = service.lookup(act, number, as_of)
        except LegalRagError as exc:
            if isinstance(exc, StoreUnavailableError):
                err.print(f"[red]graph unavailable, could not check:[/red] {exc}")
                raise typer.Exit(EXIT_UNAVAILABLE) from exc
            err.print(f"[red]{exc}[/red]")
            raise typer.Exit(EXIT_BAD_INPUT) from exc
    finally:
        store.close()
    if as_json:
        sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
        return
    _print_section(result)
    if not result["found"]:
        raise typer.Exit(EXIT_NOT_FOUND)


def _section_stream(service: Any) -> None:
    for n, line in enumerate(sys.stdin, start=1):
        if not line.strip():
            continue
        try:
            req = json.loads(line)
            if not isinstance(req, dict):
                raise ValueError("expected a JSON object")
            act, section = req.get("act"), req.get("section")
            if not isinstance(act, str) or section is None:
                raise ValueError('needs "act" (string) and "section"')
            result = service.lookup(act, str(section), req.get("as_of"))
        except StoreUnavailableError as exc:
            result = {"found": None, "line": n, "error": f"unchecked: graph unavailable: {exc}"}
        except (ValueError, LegalRagError) as exc:
            result = {"found": False, "line": n, "error": f"bad input line: {exc}"}
        sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
        sys.stdout.flush()


def _print_section(r: dict[str, Any]) -> None:
    from rich.markup import escape

    r = {k: escape(v) if isinstance(v, str) else v for k, v in r.items()}
    if not r["found"]:
        who = f"{r['act']} s.{r['section']}" if r["act"] else r["section"]
        out.print(f"[red]not found:[/red] {who}: {r.get('error', '')}")
        return
    colour = {"in_force": "green", "repealed": "red", "omitted": "red", "not_yet_in_force": "yellow"}
    st = r["status_on_date"]
    out.print(f"[bold]{r['act_title']} ({r['act']}) s.{r['section']}[/bold]  {r['title'] or ''}")
    span = f"{r['in_force_from'] or '?'} to {r['in_force_to'] or 'date'}"
    if r.get("chapter"):
        out.print(f"Chapter {r['chapter']}: {r.get('chapter_title') or ''}")
    out.print(f"status on {r['as_of']}: [{colour.get(st, 'white')}]{st}[/]   (in force {span})")
    for label, refs in (("successor", r["successors"]), ("predecessor", r["predecessors"])):
        for p in refs:
            note = f" - {escape(p['note'])}" if p.get("note") else ""
            out.print(f"  {label}: {p['act']} s.{escape(p['section'])} \\[{p['relation']}]{note}")
    if r.get("no_successor"):
        out.print(f"  no successor: {r['no_successor']}")
    if r.get("note"):
        out.print(f"  note: {r['note']}")
    out.print()
    out.print(r["text"] or "[dim](no text held for this section; its existence is from the India Code index)[/dim]")


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
    celery.worker_main(["worker", f"--concurrency={concurrency}", f"--loglevel={loglevel}", "-Q", "legal_rag"])


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


def main() -> None:
    try:
        app()
    except LegalRagError as exc:  # anything not handled by a command is still a clear message
        err.print(f"[red]error:[/red] {exc}")
        sys.exit(EXIT_BAD_INPUT)


if __name__ == "__main__":
    main()
