"""``legal-rag`` command line: thin entry points over :class:`legal_rag.app.Application`.

Each command parses its arguments, calls one method of the application and renders the result.
Errors are mapped to exit codes here, once: every project error carries its own
(``graph_schema.errors.ExitCode``: 1 not found, 2 bad input, 3 could not check, try again).
"""

from __future__ import annotations

import sys

from graph_schema.errors import LegalRagError, RetryableError
from legal_rag.cli import admin, ask, audit, evaluate, finetune, graph, retrieve, serve, verify  # noqa: F401  (registers the commands)
from legal_rag.cli.common import app, err

__all__ = ["app", "main"]


def main() -> None:
    """The ``legal-rag`` entry point: run the command; a project error is one line on stderr and its exit code."""
    try:
        app()
    except LegalRagError as exc:
        if isinstance(exc, RetryableError):
            err.print(f"[red]unavailable, nothing could be checked (try again):[/red] {exc}", highlight=False)
        else:
            err.print(f"[red]error:[/red] {exc}", highlight=False)
        sys.exit(int(exc.exit_code))
