"""``legal-rag audit``: the shipped corpus checked source against source (``ingestion.audit``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from legal_rag.cli.common import _application, app, out

if TYPE_CHECKING:
    from legal_rag.results import AuditReport

EXIT_UNRESOLVED = 1


@app.command("audit")
def audit_cmd(
    as_json: Annotated[bool, typer.Option("--json", help="Print the whole report as JSON.")] = False,
    corpus: Annotated[Path | None, typer.Option("--corpus", help="Corpus folder (default: the shipped one).")] = None,
    show_all: Annotated[bool, typer.Option("--all", help="List resolved findings too.")] = False,
    propose_acts: Annotated[bool, typer.Option("--propose-acts", help="Print draft named_acts.jsonl / reviewed.jsonl "
                                               "rows for the unresolved unknown_act findings.")] = False,
) -> None:
    """Compare every section across the sources that carry it and list what disagrees; each finding must be
    resolved by a curation record (data/corpus/curation). Exits 1 while anything is unresolved."""
    with _application(first_run=False) as application:
        report, proposed = application.audit(corpus)
    if propose_acts:
        for row in proposed:
            sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")
        return
    if as_json:
        sys.stdout.write(json.dumps(report.as_dict(), ensure_ascii=False) + "\n")
    else:
        _print(report, show_all)
    if not report.clean:
        raise typer.Exit(EXIT_UNRESOLVED)


def _print(report: AuditReport, show_all: bool) -> None:
    from rich.markup import escape

    d = report.as_dict()
    share = (d["agree"] / d["compared"]) if d["compared"] else 1.0  # type: ignore[operator]
    out.print(f"sections whose text two or more sources carry: {d['compared']}; all sources agree: {d['agree']} "
              f"({share:.1%}); confirmed by at least one other source: {d['corroborated']}")
    for kind, n in sorted(d["by_kind"].items()):  # type: ignore[attr-defined]
        out.print(f"  {kind}: {n['found']} found, {n['resolved']} resolved")
    for f in report.findings:
        res = report.resolutions.get(f.key)
        if res is None:
            out.print(f"[red]unresolved[/red] {f.kind.value}: {escape(f.message)}")
        elif show_all:
            out.print(f"[green]{res.how}[/green] {f.kind.value}: {escape(f.message)} <- {res.record}")
    for record in report.unused:
        out.print(f"[yellow]stale[/yellow] {record}: resolves no finding (remove it, or the finding it was for "
                  "has come back in another form)")
    out.print("[green]clean: every finding is resolved by a curation record[/green]" if report.clean
              else f"[red]{len(report.unresolved)} finding(s) unresolved, {len(report.unused)} stale record(s)[/red]")
