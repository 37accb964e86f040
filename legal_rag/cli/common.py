"""Shared pieces of the command line: the Typer apps, consoles, exit codes, the application for one command."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.table import Table

from graph_schema.errors import ExitCode
from legal_rag.settings import Settings

if TYPE_CHECKING:
    from legal_rag.app import Application
    from legal_rag.results import IngestReport

app = typer.Typer(add_completion=False, no_args_is_help=True, help="Indian statute research with verified citations.")
server_app = typer.Typer(no_args_is_help=True, help="The embedded FalkorDB server.")
app.add_typer(server_app, name="server")

err = Console(stderr=True)
out = Console()

EXIT_NOT_FOUND = ExitCode.NOT_FOUND
EXIT_BAD_INPUT = ExitCode.BAD_INPUT
EXIT_UNAVAILABLE = ExitCode.UNAVAILABLE

SUMMARY_ROWS = 25
"""Rows of the per-Act ingest table without ``--verbose`` (the totals line always follows)."""


def _settings() -> Settings:
    return Settings()


def _print_report(report: IngestReport, verbose: bool = False) -> None:
    """Totals, and the Acts that changed or had rejects (every Act with ``verbose``)."""
    t = report.totals()
    for f in report.empty_files:
        err.print(f"[yellow]empty input:[/yellow] {f} holds no records; nothing loaded from it", markup=True)
    acts = report.acts if verbose else report.changed_acts()
    hidden = 0
    if not verbose and len(acts) > SUMMARY_ROWS:
        # A first run adds every Act (850 with the shipped corpus): a screenful of rows says less
        # than the totals. Acts with rejects are always shown; the rest up to SUMMARY_ROWS.
        rejected = [a for a in acts if report.rejected[a]]
        rest = [a for a in acts if not report.rejected[a]]
        shown = set(rejected) | set(rest[: max(0, SUMMARY_ROWS - len(rejected))])
        hidden = len(acts) - len(shown)
        acts = [a for a in acts if a in shown]
    if acts:
        table = Table(title="ingest summary" if verbose else "ingest summary: Acts that changed or had rejects")
        for col in ("act", "added", "updated", "unchanged", "rejected"):
            table.add_column(col, justify="left" if col == "act" else "right")
        for act in acts:
            table.add_row(act, str(report.added[act]), str(report.updated[act]), str(report.unchanged[act]),
                          str(report.rejected[act]))
        out.print(table)
    if hidden:
        out.print(f"... and {hidden} more Acts added or updated")
    out.print(
        f"{len(report.acts)} Acts: {t['added']} added, {t['updated']} updated, {t['unchanged']} unchanged, "
        f"{t['rejected']} rejected" + ("" if verbose else " (--verbose or --json for every Act)")
    )
    if not report.changed:
        out.print("unchanged: nothing written")
    for r in report.rejects[:50]:
        err.print(f"[yellow]rejected[/yellow] {r}")
    if len(report.rejects) > 50:
        err.print(f"... and {len(report.rejects) - 50} more rejected (use --json for all)")


@contextmanager
def _application(settings: Settings | None = None, *, first_run: bool = True, labels: dict[str, str] | None = None,
                 quiet: bool = False) -> Iterator[Application]:
    """The application for one command, closed after it. Its work (the shipped corpus loaded into an empty
    graph on a first run, an ingest, embeddings) reports progress under ``labels``, or nothing if ``quiet``.
    Errors go to the entry point, which maps them to exit codes."""
    from legal_rag.app import Application
    from legal_rag.cli.progress import progress_reporter

    shown = {"write": "loading the shipped corpus (first run)", "embed": "embedding chunks",
             "headings": "embedding section headings", **(labels or {})}
    with progress_reporter(shown, quiet=quiet) as progress, \
            Application(settings or _settings(), first_run=first_run, progress=progress) as application:
        yield application
