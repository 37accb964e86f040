"""``legal-rag finetune build | from-flags | validate``: training data from the graph and from flags.

Parse -> call ``finetune`` with the application's graph and verifier -> render. Exit codes: 0 done
(or a valid dataset), 1 the dataset has problems (each one printed) or could not be built as asked,
2 bad input, 3 graph unavailable.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from legal_rag.cli.common import EXIT_NOT_FOUND, _application, app, out

finetune_app = typer.Typer(no_args_is_help=True, help="Fine-tuning datasets (Finetune-RAG) from the graph and flags.")
app.add_typer(finetune_app, name="finetune")

EXIT_PROBLEMS = EXIT_NOT_FOUND

_LABELS = {"read graph": "reading the statute graph", "examples": "examples verified", "write": "writing files"}


@finetune_app.command("build")
def build_cmd(
    out_dir: Annotated[Path, typer.Option("--out", help="Directory to write sft/, dpo/ and the card to.")],
    n: Annotated[int, typer.Option("--n", help="Examples in all (about n/5 per category).")] = 1000,
    seed: Annotated[int, typer.Option("--seed")] = 7,
    eval_fraction: Annotated[float, typer.Option("--eval-fraction")] = 0.1,
    run_async: Annotated[bool, typer.Option("--async", help="Enqueue on Celery and print the job id.")] = False,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Build verified SFT and DPO files from the statute graph; the same seed gives the same bytes."""
    with _application(labels=_LABELS) as application:
        if run_async:
            job_id = application.submit_finetune(out_dir, n, seed, eval_fraction)
            out.print(json.dumps({"job_id": job_id}) if as_json else f"job {job_id} (legal-rag jobs {job_id} --json)")
            return
        report = application.build_dataset(out_dir, n, seed, eval_fraction)
    if as_json:
        out.print_json(json.dumps(report.as_dict()))
        return
    table = Table(title=f"finetune dataset -> {out_dir}")
    for col in ("category", "train", "eval"):
        table.add_column(col, justify="left" if col == "category" else "right")
    for cat in report.card["counts"]["train"]:
        table.add_row(cat, str(report.counts["train"][cat]), str(report.counts["eval"][cat]))
    out.print(table)
    d = report.as_dict()
    out.print(f"{d['candidates']} candidates: {d['chosen_failed']} chosen answers failed verification, "
              f"{d['rejected_not_failing']} rejected answers did not fail as named, {d['duplicates']} duplicates; "
              f"all dropped. Card: {out_dir / 'card.md'}")


@finetune_app.command("validate")
def validate_cmd(
    directory: Annotated[Path, typer.Argument(help="A directory written by finetune build.")],
    no_verify: Annotated[bool, typer.Option("--no-verify", help="Skip re-verifying every answer.")] = False,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Check schema, counts, duplicates, leakage and verification; exit 1 naming each problem."""
    with _application() as application:
        problems = application.validate_dataset(directory, verify=not no_verify)
    if as_json:
        out.print_json(json.dumps({"valid": not problems, "problems": [str(p) for p in problems]}))
    else:
        for p in problems:
            out.print(str(p), markup=False, highlight=False)
        out.print(f"{directory}: " + ("valid" if not problems else f"{len(problems)} problem(s)"))
    if problems:
        raise typer.Exit(EXIT_PROBLEMS)


@finetune_app.command("from-flags")
def from_flags_cmd(
    out_dir: Annotated[Path, typer.Option("--out", help="Directory for dpo/flags.jsonl, kto/flags.jsonl, report.")],
    since: Annotated[str | None, typer.Option("--since", help="Flags created on or after this date.")] = None,
    status: Annotated[str, typer.Option("--status", help="pending, accepted or rejected.")] = "accepted",
    label: Annotated[str | None, typer.Option("--label", help="Only flags with this label.")] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Stored flags -> DPO rows (corrected vs flagged, re-verified) and KTO rows (flagged, label false)."""
    with _application() as application:
        report = application.dataset_from_flags(out_dir, since, status, label)
    if as_json:
        out.print_json(json.dumps(report.as_dict()))
        return
    out.print(f"{report.flags} flags: {report.dpo} DPO rows, {report.kto} KTO rows -> {out_dir}")
    for s in report.skipped:
        out.print(f"flag {s['flag']} (answer {s['answer']}): {s['reason']}", markup=False, highlight=False)
