"""Shared pieces of the command line: the Typer apps, consoles, exit codes, graph opening."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from graph_schema.errors import StoreUnavailableError
from graph_schema.store import GraphStore
from ingestion.pipeline import default_paths, ingest
from ingestion.report import IngestReport
from legal_rag.settings import Settings

app = typer.Typer(add_completion=False, no_args_is_help=True, help="Indian statute research with verified citations.")
server_app = typer.Typer(no_args_is_help=True, help="The embedded FalkorDB server.")
app.add_typer(server_app, name="server")

err = Console(stderr=True)
out = Console()

EXIT_NOT_FOUND = 1
EXIT_BAD_INPUT = 2
EXIT_UNAVAILABLE = 3

SUMMARY_ROWS = 25
"""Rows of the per-Act ingest table without ``--verbose`` (the totals line always follows)."""


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
    from legal_rag.cli.progress import progress_reporter

    with progress_reporter({"write": "writing records"}, quiet=quiet) as progress:
        return ingest(store, paths, strict=strict, batch_size=settings.ingest.batch_size, progress=progress)


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


def _sync_index(index: Any, store: GraphStore, quiet: bool = False) -> Any:
    from legal_rag.cli.progress import progress_reporter
    from legal_rag.retrieval.build import sync_from_graph

    labels = {"embed": "embedding chunks", "headings": "embedding section headings"}
    with progress_reporter(labels, quiet=quiet) as progress:
        return sync_from_graph(index, store, progress)


@contextmanager
def _application(settings: Settings | None = None) -> Iterator[Any]:
    """The application for one command: first-run work shows progress; an unreachable graph exits 3."""
    from legal_rag.app import Application
    from legal_rag.cli.progress import progress_reporter

    labels = {"write": "loading the shipped corpus (first run)", "embed": "embedding chunks",
              "headings": "embedding section headings"}
    with progress_reporter(labels) as progress:
        application = Application(settings or _settings(), progress=progress)
        try:
            yield application
        except StoreUnavailableError as exc:
            err.print(f"[red]graph unavailable, nothing could be checked:[/red] {exc}")
            raise typer.Exit(EXIT_UNAVAILABLE) from exc
        finally:
            application.close()
