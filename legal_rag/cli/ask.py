"""``legal-rag ask``: the research workflow from the command line."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from legal_rag.cli.common import EXIT_BAD_INPUT, _application, app, err, out

if TYPE_CHECKING:
    from legal_rag.results import AskResult


@app.command("ask")
def ask_cmd(
    question: Annotated[
        str | None, typer.Argument(help="The research question (omit with --jsonl to read questions from stdin).")
    ] = None,
    as_of: Annotated[str | None, typer.Option("--as-of", help="Date of the facts, YYYY-MM-DD (default today).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
    jsonl: Annotated[
        bool, typer.Option("--jsonl", help='Read lines {"id", "question", "as_of"} from stdin; one object per line.')
    ] = False,
    show_evidence: Annotated[
        bool, typer.Option("--show-evidence", help="Print each claim with its verdict and evidence.")
    ] = False,
) -> None:
    """Answer a question from the statutes: every citation checked for the date, every claim grounded."""
    from legal_rag.app import check_day

    if jsonl == (question is not None):
        err.print("give a question, or --jsonl with questions on stdin (not both)")
        raise typer.Exit(EXIT_BAD_INPUT)
    requests: list[tuple[str | None, str, str | None]] = []
    if jsonl:
        for n, line in enumerate(sys.stdin.read().splitlines(), start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                err.print(f"stdin:{n}: malformed JSON: {exc.msg}")
                raise typer.Exit(EXIT_BAD_INPUT) from exc
            if not isinstance(obj, dict) or not isinstance(obj.get("question"), str) or not obj["question"].strip():
                err.print(f'stdin:{n}: expected {{"id", "question", "as_of"}} with a non-empty question')
                raise typer.Exit(EXIT_BAD_INPUT)
            requests.append((obj.get("id"), obj["question"], obj.get("as_of") or as_of))
    else:
        assert question is not None
        if not question.strip():
            err.print("the question is empty")
            raise typer.Exit(EXIT_BAD_INPUT)
        requests.append((None, question, as_of))
    days = [check_day(d) if d else None for _, _, d in requests]  # a typo fails before anything loads

    with _application() as application:
        for (rid, q, _), day in zip(requests, days, strict=True):
            result = application.ask(q, day)
            if jsonl:
                sys.stdout.write(json.dumps({"id": rid, **result.model_dump(mode="json")}, ensure_ascii=False) + "\n")
                sys.stdout.flush()
            elif as_json:
                sys.stdout.write(result.model_dump_json() + "\n")
            else:
                _print(result, show_evidence)


def _print(r: AskResult, show_evidence: bool) -> None:
    out.print(f"[bold]Q:[/bold] {r.question}  [dim](facts as of {r.as_of}; {r.complexity.value})[/dim]")
    out.print()
    out.print(r.answer, markup=False, highlight=False)
    if r.sources:
        out.print()
        out.print("[bold]Sources[/bold]")
        for src in r.sources:
            out.print(f"  [{src.n}] {src.heading or src.chunk_id} ({src.status})", markup=False, highlight=False)
    if r.warnings:
        out.print()
        for w in r.warnings:
            out.print(f"[yellow]warning:[/yellow] {w}", highlight=False)
    c = r.confidence
    factors = ", ".join(f"{f.name.replace('_', ' ')} {f.value:.2f}" for f in c.factors)
    out.print()
    out.print(f"[bold]Confidence:[/bold] {c.label.value} ({c.score:.2f}): {factors}", highlight=False)
    s = r.verification_summary
    out.print(
        f"[dim]claims {s.claims}: {s.supported} supported, {s.partial} partial, "
        f"{s.removed} removed ({s.method.value}); generator {r.generator}; "
        f"{r.timings_ms['total']:.0f} ms[/dim]"
    )
    if show_evidence:
        out.print()
        for cl in r.claims:
            mark = "kept" if cl.kept else "removed"
            out.print(f"- [{cl.verdict.value}, {mark}] {cl.text}", markup=False, highlight=False)
            if cl.reasons:
                out.print(f"    reasons: {'; '.join(cl.reasons)}", markup=False, highlight=False)
            out.print(f"    evidence: {', '.join(cl.evidence) or '(none)'}", markup=False, highlight=False)
