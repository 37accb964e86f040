"""Commands over the statute graph: ingest, jobs, section."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from graph_schema.errors import IngestError, LegalRagError, StoreUnavailableError
from ingestion.pipeline import default_paths
from legal_rag.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_NOT_FOUND,
    EXIT_UNAVAILABLE,
    _application,
    _open,
    _print_report,
    _run_ingest,
    _settings,
    _sync_index,
    app,
    err,
    out,
)


@app.command("ingest")
def ingest_cmd(
    paths: Annotated[list[Path] | None, typer.Argument(help="Files or directories to load.")] = None,
    default: Annotated[bool, typer.Option("--default", help="Load the shipped corpus.")] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Write nothing if any record is rejected.")] = False,
    run_async: Annotated[bool, typer.Option("--async", help="Enqueue on Celery and print the job id.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    index: Annotated[bool, typer.Option("--index/--no-index", help="Also update the retrieval index.")] = True,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="List every Act, not only changed ones.")] = False,
) -> None:
    """Load statutes, correspondence tables and curation files into the graph (idempotent), then
    bring the retrieval index up to date (only new or changed chunks are embedded)."""
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
        from legal_rag.app import Application

        with Application(settings, first_run=False) as application:
            job_id = application.submit_ingest([p.resolve() for p in targets], strict)
        out.print(json.dumps({"job_id": job_id}) if as_json else job_id)
        return
    store = _open(settings)
    synced = None
    try:
        report = _run_ingest(store, targets, strict=strict, settings=settings, quiet=as_json)
        if not as_json:
            _print_report(report, verbose)
        if index:
            from legal_rag.retrieval.build import open_index

            chunk_index = open_index(settings)
            try:
                synced = _sync_index(chunk_index, store, quiet=as_json)
            finally:
                chunk_index.close()
            if not as_json:
                out.print(_index_line(synced))
    except IngestError as exc:
        err.print(f"[red]ingest refused:[/red] {exc}")
        raise typer.Exit(EXIT_BAD_INPUT) from exc
    except StoreUnavailableError as exc:
        err.print(f"[red]graph became unavailable; whole batches written so far are kept, re-run:[/red] {exc}")
        raise typer.Exit(EXIT_UNAVAILABLE) from exc
    finally:
        store.close()
    if as_json:
        doc: dict[str, Any] = report.as_dict()
        if synced is not None:
            doc["index"] = synced.as_dict()
        out.print_json(json.dumps(doc))


def _index_line(synced: Any) -> str:
    r = synced.as_dict()
    vectors = f"{r['reused'] + r['headings_reused']} vectors from data/vectors, " \
              f"{r['embedded'] + r['headings_embedded']} embedded"
    where = f"version {r['version']} published" if r["version"] else "nothing to publish"
    return (f"retrieval index: {r['added']} chunks added, {r['updated']} updated, {r['removed']} removed, "
            f"{r['relabelled']} relabelled, {r['unchanged']} unchanged; {vectors}; {where}")


@app.command("jobs")
def jobs_cmd(
    job_id: Annotated[str, typer.Argument(help="Job id printed by ingest --async (or returned by POST /v1/ingest).")],
    as_json: Annotated[bool, typer.Option("--json")] = False,
    wait: Annotated[float, typer.Option("--wait", help="Poll until finished, up to this many seconds.")] = 0.0,
) -> None:
    """Show a job's state, progress and report (from the job's row in the records database)."""
    from legal_rag.records import JobState, open_records

    with open_records(_settings()) as records:
        deadline = time.monotonic() + wait
        row = records.jobs.get(job_id)
        while wait and (row is None or not JobState(row.state).finished) and time.monotonic() < deadline:
            time.sleep(0.5)
            row = records.jobs.get(job_id)
    if row is None:
        err.print(f"[red]no job {job_id!r}[/red]")
        raise typer.Exit(EXIT_NOT_FOUND)
    doc = {"id": row.id, "kind": row.kind, "state": row.state, "stage": row.stage,
           "progress": {"done": row.done, "total": row.total}, "report": row.report, "error": row.error,
           "attempts": row.attempts, "created_at": row.created_at.isoformat(),
           "updated_at": row.updated_at.isoformat()}
    if as_json:
        print(json.dumps(doc, default=str))
        return
    if row.state == JobState.RUNNING.value:
        out.print(f"{job_id}: running, {row.stage} {row.done}/{row.total}")
    elif JobState(row.state).finished and row.report is not None and "added" in row.report:
        r = row.report
        head = {JobState.SUCCEEDED.value: "done", JobState.SUCCEEDED_WITH_REJECTS.value: "done with rejects",
                JobState.FAILED.value: f"failed: {row.error}"}[row.state]
        out.print(f"{job_id}: {head}: {r['added']} added, {r['updated']} updated, {r['unchanged']} unchanged, "
                  f"{r['rejected']} rejected")
        for rej in r.get("rejects", [])[:50]:
            col = f":{rej['column']}" if rej.get("column") else ""
            out.print(f"  rejected {rej.get('file') or ''}:{rej['line']}{col}: {rej['reason']}")
    elif row.state == JobState.FAILED.value:
        out.print(f"{job_id}: failed: {row.error}")
    else:
        out.print(f"{job_id}: {row.state}" + (f" ({row.error})" if row.error else ""))


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
    with _application() as application:
        service = application.lookup()
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
    if as_json:
        sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
        return
    _print_section(result)
    if not result["found"]:
        raise typer.Exit(EXIT_NOT_FOUND)


def _section_stream(service: Any) -> None:
    from legal_rag.lookup import empty_result

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
            result = {**empty_result(None, None, found=None), "line": n,
                      "error": f"unchecked: graph unavailable: {exc}"}
        except (ValueError, LegalRagError) as exc:
            result = {**empty_result(None, None, found=None), "line": n, "error": f"bad input line: {exc}"}
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
    span = f"in force {r['in_force_from'] or '?'} to {r['in_force_to'] or 'date'}"
    if st == "not_yet_in_force" and not r["in_force_from"]:
        span = "not brought into force"  # a sub-section excepted from its Act's commencement (BNS 106(2))
    if r.get("chapter"):
        out.print(f"Chapter {r['chapter']}: {r.get('chapter_title') or ''}")
    out.print(f"status on {r['as_of']}: [{colour.get(st, 'white')}]{st}[/]   ({span})")
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
