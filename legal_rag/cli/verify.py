"""Commands of the verification layer: extract-citations, verify."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from graph_schema.errors import InvalidInputError
from legal_rag.cli.common import EXIT_UNAVAILABLE, _application, app, out


def _each_text_line(handle: Any, empty: dict[str, Any] | None = None) -> None:
    """JSON lines ``{"id", "text", ...}`` on stdin -> one JSON line out per input, in order.

    A bad line gets ``{"id": null, "line": n, "error": ...}`` (plus ``empty``) instead of stopping the stream.
    """
    for n, line in enumerate(sys.stdin, start=1):
        if not line.strip():
            continue
        try:
            req = json.loads(line)
            if not isinstance(req, dict) or not isinstance(req.get("text"), str):
                raise ValueError('each line needs {"id", "text"} with text a string')
            row = {"id": req.get("id"), **handle(req)}
        except ValueError as exc:  # a bad line or date (InvalidInputError is a ValueError)
            row = {"id": None, "line": n, "error": f"bad input line: {exc}", **(empty or {})}
        sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")
        sys.stdout.flush()


@app.command("extract-citations")
def extract_cmd(
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object for the whole of stdin.")] = False,
    as_jsonl: Annotated[bool, typer.Option("--jsonl", help='Lines {"id", "text"} in, one line out each.')] = False,
) -> None:
    """Find provisions, statutes, precedents and notifications in text on stdin, with exact spans."""
    with _application(first_run=False) as application:
        if as_jsonl:
            _each_text_line(lambda req: {"citations": application.extract_citations(req["text"])},
                            empty={"citations": []})
            return
        cits = application.extract_citations(sys.stdin.read())
    if as_json:
        sys.stdout.write(json.dumps({"citations": cits}, ensure_ascii=False) + "\n")
        return
    for c in cits:
        out.print(f"{c['start']:>6}-{c['end']:<6} {c['label']:<12} {c['text']!r}  {json.dumps(c['key'])}", markup=False)


def _load_context(path: Path | None) -> list[dict[str, Any]]:
    if path is None:
        return []
    raw = path.read_text(encoding="utf-8")
    try:
        data = json.loads(raw)
        chunks = data if isinstance(data, list) else data.get("chunks", [])
    except json.JSONDecodeError:
        chunks = [json.loads(line) for line in raw.splitlines() if line.strip()]
    bad = [
        i for i, c in enumerate(chunks) if not (isinstance(c, dict) and "id" in c and isinstance(c.get("text"), str))
    ]
    if bad:
        raise InvalidInputError(f"{path}: context chunk {bad[0]} needs 'id' and 'text'")
    return chunks


@app.command("verify")
def verify_cmd(
    as_of: Annotated[str | None, typer.Option("--as-of", help="Date of the facts, YYYY-MM-DD (default today).")] = None,
    offence_on: Annotated[str | None, typer.Option(
        "--offence-on", help="Day of an offence committed before 2024-07-01 in a later matter: the penal codes are "
        "checked on it (the IPC governs it, BNS s.358).")] = None,
    context: Annotated[
        Path | None, typer.Option("--context", help="JSON list (or JSONL) of chunks {id, text}.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    as_jsonl: Annotated[
        bool, typer.Option("--jsonl", help='Lines {"id", "text", "as_of", "offence_on"} in, a report per line '
                          "(--as-of and --offence-on for lines that give no date).")
    ] = False,
) -> None:
    """Check every citation and quote in text on stdin against the statute graph for a date."""
    from legal_rag.app import check_day

    day = check_day(as_of) if as_of is not None else None  # before anything loads: a typo fails at once
    offence_day = check_day(offence_on, "offence_on") if offence_on is not None else None
    try:
        chunks = _load_context(context)
    except (OSError, ValueError) as exc:  # unreadable, or not JSON
        raise InvalidInputError(f"cannot read --context: {exc}") from exc
    with _application() as application:
        if as_jsonl:
            # A line's own dates first; --as-of and --offence-on are the defaults for lines that give none.
            _each_text_line(lambda req: application.verify(
                req["text"], req.get("as_of") or day, chunks, req.get("offence_on") or offence_day,
            ).model_dump(mode="json"))
            return
        text = sys.stdin.read()
        report = application.verify(text, day, chunks, offence_day)
    if as_json:
        sys.stdout.write(report.model_dump_json() + "\n")
    else:
        _print_report_human(text, report)
    if report.unchecked:
        raise typer.Exit(EXIT_UNAVAILABLE)


_STATUS_STYLE = {
    "verified": "green",
    "repealed": "bold red",
    "not_found": "bold red",
    "omitted": "red",
    "mismatch": "bold red",
    "not_yet_in_force": "yellow",
    "unknown_act": "yellow",
    "unresolved": "yellow",
    "not_in_registry": "yellow",
    "unchecked": "bold magenta",
}


def _print_report_human(text: str, report: Any) -> None:
    from rich.text import Text

    shown = Text(text)
    for c in report.citations:
        shown.stylize(f"underline {_STATUS_STYLE.get(c.status.value, 'white')}", c.start, c.end)
    out.print(shown)
    out.print()
    out.print(f"[bold]citations (facts on {report.as_of})[/bold]")
    for i, c in enumerate(report.citations, start=1):
        style = _STATUS_STYLE.get(c.status.value, "white")
        out.print(
            f" {i:>2}. [{style}]{c.status.value.upper():<16}[/{style}] {escape_markup(c.text)}: "
            f"{escape_markup(c.message)}"
        )
    if report.quotes:
        out.print("[bold]quotes[/bold]")
        for q in report.quotes:
            out.print(
                f'  {q.status.value.upper():<14} {q.score:.2f} "{escape_markup(q.text[:80])}" '
                f"({escape_markup(q.message)})"
            )
    if report.unchecked:
        out.print("[bold magenta]Some citations could NOT be checked (graph unavailable): do not rely on them.[/]")


def escape_markup(s: str) -> str:
    from rich.markup import escape

    return escape(s)
