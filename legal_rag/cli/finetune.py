"""``legal-rag finetune build | from-flags | train | models | validate | audit | blind``: data and models.

Parse -> call ``finetune`` with the application's graph and verifier -> render. Exit codes: 0 done
(or a valid dataset), 1 the dataset has problems (each one printed) or could not be built as asked,
2 bad input, 3 graph unavailable.
"""

from __future__ import annotations

import json
import sys
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
    eval_per_category: Annotated[int | None, typer.Option(
        "--eval-per-category", help="Eval rows per category beside the n training rows (default: eval-fraction "
                                    "of n).")] = None,
    no_retriever: Annotated[bool, typer.Option(
        "--no-retriever", help="Fill contexts from the split's units instead of the retriever's results.")] = False,
    run_async: Annotated[bool, typer.Option("--async", help="Enqueue on Celery and print the job id.")] = False,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Build verified SFT and DPO files from the statute graph; the same seed gives the same bytes."""
    with _application(labels=_LABELS) as application:
        if run_async:
            job_id = application.submit_finetune(out_dir, n, seed, eval_fraction)
            out.print(json.dumps({"job_id": job_id}) if as_json else f"job {job_id} (legal-rag jobs {job_id} --json)")
            return
        report = application.build_dataset(out_dir, n, seed, eval_fraction, eval_per_category=eval_per_category,
                                           retriever=not no_retriever)
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


@finetune_app.command("train")
def train_cmd(
    label: Annotated[list[str], typer.Option(
        "--label", help="Accepted flags with this label train the model (repeat the option): wrong_provision, "
        "outdated_law.")] = ["wrong_provision"],  # noqa: B006
    questions: Annotated[list[Path], typer.Option(
        "--questions", help="Labelled JSONL files it also trains on (repeat the option); held-out rows are left "
        "out and sealed sets refused. Default: data/eval/questions.jsonl, probe.jsonl and probe2.jsonl.")] = [],  # noqa: B006
    since: Annotated[str | None, typer.Option("--since", help="Only flags created on or after this date.")] = None,
    data: Annotated[Path | None, typer.Option(
        "--data", help="A dataset built by `finetune build`: its training questions also train, each labelled with "
        "the provisions its row answers from.")] = None,
    data_rows: Annotated[int, typer.Option("--data-rows", help="At most this many of --data's questions.")] = 200,
    out_dir: Annotated[Path | None, typer.Option(
        "--out", help="A directory (the model is written as its next version, relevance-v<N>.json) or a .json file. "
        "Default: <state dir>/models/.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="The model card as one JSON object.")] = False,
) -> None:
    """Train the product's provision relevance model on CPU from labelled development questions, the accepted
    flags that name a provision an answer should not have quoted and (--data) a built dataset's questions; write it
    as a new version with its card."""
    from legal_rag.cli.relevance_card import DEVELOPMENT_SETS, print_relevance_card

    files = questions or list(DEVELOPMENT_SETS)
    with _application(labels={"questions": "asking"}) as application:
        trained = application.train_relevance(files, out_dir, flag_labels=label, since=since, data=data,
                                              data_rows=data_rows)
    print_relevance_card(trained, as_json)


@finetune_app.command("models")
def models_cmd(
    directory: Annotated[Path | None, typer.Option(
        "--dir", help="Where the versions are. Default: <state dir>/models/.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per line.")] = False,
) -> None:
    """The relevance model versions `finetune train` wrote, oldest first; the one the product answers with
    (LEGAL_RAG_WORKFLOW__RELEVANCE_MODEL) is marked."""
    with _application() as application:
        found = application.relevance_models(directory)
    if as_json:
        for m in found:
            sys.stdout.write(json.dumps(m.as_dict()) + "\n")
        return
    if not found:
        out.print("no model versions yet (legal-rag finetune train writes them)", markup=False)
        return
    table = Table(title="relevance models")
    for col in ("version", "trained", "questions", "flags used", "mode", "threshold", "cv unexpected/q",
                "answering"):
        table.add_column(col)
    for m in found:
        d = m.as_dict()
        table.add_row(str(d["version"]), str(d["trained"]), str(d["questions"]), str(d["flags_used"]),
                      str(d["mode"]), str(d["threshold"]), str(d["cv_unexpected_per_question"]),
                      "yes" if d["active"] else "")
    out.print(table)


@finetune_app.command("audit")
def audit_cmd(
    directory: Annotated[Path, typer.Argument(help="A directory written by finetune build.")],
    target: Annotated[float, typer.Option("--target", help="Highest acceptable rate of the best rule.")] = 0.7,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Per category, the single surface feature that best picks the chosen answer, and how often; exit 1 when a
    category's best rule is above --target."""
    with _application(first_run=False) as application:
        scores, best = application.audit_dataset(directory)
    if as_json:
        out.print_json(json.dumps({"target": target, "best": {c: {"feature": s.feature, "direction": s.direction,
                                                                  "rate": round(s.rate, 3), "pairs": s.pairs}
                                                              for c, s in best.items()},
                                   "all": [{"category": s.category, "feature": s.feature, "direction": s.direction,
                                            "rate": round(s.rate, 3)} for s in scores]}))
    else:
        table = Table(title=f"surface-feature audit of {directory} (target <= {target:.0%})")
        for col in ("category", "best feature", "picks", "chosen picked", "pairs"):
            table.add_column(col)
        for c, s in best.items():
            table.add_row(c, s.feature, s.direction, f"{s.rate:.1%}", str(s.pairs))
        out.print(table)
    if any(s.rate > target for s in best.values()):
        raise typer.Exit(EXIT_PROBLEMS)


@finetune_app.command("blind")
def blind_cmd(
    directory: Annotated[Path, typer.Argument(help="A directory written by finetune build.")],
    out_file: Annotated[Path, typer.Option("--out", help="The reader's file: pairs with sides shuffled.")],
    key_file: Annotated[Path, typer.Option("--key", help="The key: row id, category, chosen side.")],
    n: Annotated[int, typer.Option("--n")] = 100,
    seed: Annotated[int, typer.Option("--seed")] = 7,
) -> None:
    """Write N pairs for a blind read (category and chosen side hidden) and a separate key file."""
    with _application(first_run=False) as application:
        written = application.blind_read(directory, n, seed, out_file, key_file)
    out.print(f"{written} pairs -> {out_file}; key -> {key_file}")
