"""Commands over the statute graph: ingest, jobs, section."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from graph_schema.errors import LegalRagError, RetryableError
from legal_rag.cli.common import EXIT_BAD_INPUT, EXIT_NOT_FOUND, _application, _print_report, app, err, out

if TYPE_CHECKING:
    from legal_rag.app import Application


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
    with _application(first_run=False, labels={"write": "writing records"}, quiet=as_json) as application:
        targets = (application.default_corpus() if default else []) + list(paths or [])
        if run_async:
            job_id = application.submit_ingest([p.resolve() for p in targets], strict)
            out.print(json.dumps({"job_id": job_id}) if as_json else job_id)
            return
        done = application.ingest(targets, strict=strict, index=index)
    if as_json:
        out.print_json(json.dumps(done.as_dict()))
        return
    _print_report(done.report, verbose)
    if done.index is not None:
        out.print(_index_line(done.index))


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
    with _application(first_run=False) as application:
        job = application.job(job_id, wait)
    if as_json:
        print(json.dumps(job.as_dict(), default=str))
        return
    if job.state == "running":
        out.print(f"{job_id}: running, {job.stage} {job.done}/{job.total}")
    elif job.finished and job.report is not None and "added" in job.report:
        r = job.report
        head = {"succeeded": "done", "succeeded_with_rejects": "done with rejects",
                "failed": f"failed: {job.error}"}[job.state]
        out.print(f"{job_id}: {head}: {r['added']} added, {r['updated']} updated, {r['unchanged']} unchanged, "
                  f"{r['rejected']} rejected")
        for rej in r.get("rejects", [])[:50]:
            col = f":{rej['column']}" if rej.get("column") else ""
            out.print(f"  rejected {rej.get('file') or ''}:{rej['line']}{col}: {rej['reason']}")
    elif job.state == "failed":
        out.print(f"{job_id}: failed: {job.error}")
    else:
        out.print(f"{job_id}: {job.state}" + (f" ({job.error})" if job.error else ""))


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
    if act != "-" and number is None:
        err.print("give ACT NUMBER, or - to read JSON lines from stdin")
        raise typer.Exit(EXIT_BAD_INPUT)
    with _application() as application:
        if act == "-":
            _section_stream(application)
            return
        assert number is not None
        result = application.section(act, number, as_of)
    if as_json:
        sys.stdout.write(json.dumps(result.as_dict(), ensure_ascii=False) + "\n")
        return
    _print_section(result.as_dict())
    if not result.found:
        raise typer.Exit(EXIT_NOT_FOUND)


def _section_stream(application: Application) -> None:
    """JSON lines ``{"act", "section", "as_of"}`` on stdin -> one JSON line each, in order; a bad line or an
    unreachable graph is that line's ``error`` (``found: null``), not the end of the stream."""
    from legal_rag.results import SectionResult

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
            result = application.section(act, str(section), req.get("as_of"))
        except RetryableError as exc:
            result = SectionResult.unchecked(f"unchecked: graph unavailable: {exc}", n)
        except (ValueError, LegalRagError) as exc:
            result = SectionResult.unchecked(f"bad input line: {exc}", n)
        sys.stdout.write(json.dumps(result.as_dict(), ensure_ascii=False) + "\n")
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
