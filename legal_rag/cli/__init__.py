"""``legal-rag`` command line: thin entry points over ingestion, lookup, verification and retrieval."""

from __future__ import annotations

import sys

from graph_schema.errors import LegalRagError
from legal_rag.cli import admin, ask, audit, evaluate, finetune, graph, retrieve, serve, verify  # noqa: F401  (registers the commands)
from legal_rag.cli.common import EXIT_BAD_INPUT, app, err

__all__ = ["app", "main"]


def main() -> None:
    try:
        app()
    except LegalRagError as exc:  # anything not handled by a command is still a clear message
        err.print(f"[red]error:[/red] {exc}")
        sys.exit(EXIT_BAD_INPUT)
