"""``legal-rag eval faults``: inject faults into verified answers and report what verification caught."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from legal_rag.cli.common import _application, _settings, err, out
from legal_rag.cli.relevance_card import DEVELOPMENT_SETS, print_relevance_card
from legal_rag.cli.retrieve import eval_app
from legal_rag.settings import PROJECT_ROOT

DEFAULT_QUESTIONS = PROJECT_ROOT / "data" / "eval" / "questions.jsonl"


@eval_app.command("faults")
def eval_faults_cmd(
    n: Annotated[int, typer.Option("--n", help="Faults to inject, spread evenly over the seven types.")] = 500,
    seed: Annotated[int, typer.Option("--seed")] = 7,
    questions: Annotated[Path | None, typer.Option(
        "--questions", help='JSONL {"id", "question", "as_of"} to answer and fault (default: the development '
        "questions and questions drawn from the graph).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object: detection per type, false alarms.")]
    = False,
) -> None:
    """Inject faults (fabricated or repealed sections, wrong Acts, misquotes, misattributions, contradicted and
    unsupported claims) into verified answers and measure how many reach the user unflagged."""
    with _application(labels={"faults": "answering and faulting"}) as application:
        report = application.evaluate_faults(n, seed, questions)
    doc = report.as_dict()
    if as_json:
        sys.stdout.write(json.dumps(doc, ensure_ascii=False) + "\n")
        return
    table = Table(title=f"fault detection: {report.base_answers} verified answers, seed {seed}")
    for c in ("fault", "detected", "removed", "flagged", "passed"):
        table.add_column(c, justify="left" if c == "fault" else "right")
    for k, rate in report.detection.items():
        counts = report.counts[k]
        table.add_row(k, "-" if rate is None else f"{rate:.1%}", str(counts.get("removed", 0)),
                      str(counts.get("flagged", 0)), str(counts.get("passed", 0)))
    out.print(table)
    fa = report.false_alarm_rate
    out.print(f"false alarms on untouched and correctly restated answers: {'-' if fa is None else f'{fa:.1%}'}",
              markup=False)
    for m in report.missed[:10]:
        out.print(f"missed {m['kind']}: {m['sentence'][:140]!r} ({m['detail'][:80]})", markup=False)


@eval_app.command("answers")
def eval_answers_cmd(
    questions: Annotated[Path, typer.Option(
        "--questions", help='JSONL {"id", "question", "as_of", "expect_cited": [[act, section], ...], '
        '"expect_flagged": [...]} (optional "complexity", "phrasing", "split"). Default: the labelled '
        "development set in data/eval/questions.jsonl.")] = DEFAULT_QUESTIONS,
    split: Annotated[str | None, typer.Option(
        "--split", help="Only the questions of this split (e.g. dev or heldout).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object: per question and overall.")] = False,
    out_dir: Annotated[Path | None, typer.Option(
        "--out", help="Write report.json, report.md and reliability.svg (the reliability diagram) here.")] = None,
    unseal: Annotated[bool, typer.Option(
        "--unseal", help="Show a sealed set's questions and misses (a file named sealed*.jsonl is reported in "
        "aggregate only: once unsealed, it is a development set).")] = False,
) -> None:
    """Ask labelled questions and score the answers: fully right, citation recall and precision, flags,
    unsupported claims, confidence calibration (ECE, AUROC), latency, tokens and cost."""
    from legal_rag.results import is_sealed, write_report

    with _application(labels={"answers": "asking"}) as application:
        report = application.evaluate_answers(questions, split, unseal=unseal)
    if is_sealed(questions) and not unseal:
        doc = report.sealed()
        if out_dir is not None:
            out_dir.mkdir(parents=True, exist_ok=True)
            (out_dir / "report.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", "utf-8")
            err.print(f"wrote {out_dir / 'report.json'} (sealed: aggregate figures only)", markup=False)
        if as_json:
            sys.stdout.write(json.dumps(doc, ensure_ascii=False) + "\n")
            return
        _print_groups(report, {"all": report.overall, **dict(report.by_split.items())})
        out.print(f"sealed set {questions.name}: aggregate figures only (--unseal shows the questions)", markup=False)
        return
    if out_dir is not None:
        for p in write_report(report, out_dir):
            err.print(f"wrote {p}", markup=False)
    if as_json:
        sys.stdout.write(json.dumps(report.as_dict(), ensure_ascii=False) + "\n")
        return
    _print_answers(report)


def _print_answers(report: Any) -> None:
    """Metrics as rows, groups (all, each split, each complexity) as columns: fits a terminal."""
    groups = {"all": report.overall, **dict(report.by_split.items()),
              **{k.lower(): v for k, v in report.by_complexity.items()}}
    _print_groups(report, groups)
    for s in report.questions:
        if not s.fully_right:
            out.print(f"{s.id}: {s.misses()} (confidence {s.confidence:.2f})", markup=False)


def _print_groups(report: Any, groups: dict[str, Any]) -> None:
    from legal_rag.results import ANSWER_METRICS as METRICS

    table = Table(title=f"answers ({report.generator})")
    table.add_column("metric")
    for g in groups:
        table.add_column(g, justify="right")
    for m in METRICS:
        table.add_row(m.replace("_", " "), *("-" if row.get(m) is None else f"{row[m]:.3f}"
                                             if isinstance(row[m], float) else str(row[m]) for row in groups.values()))
    out.print(table)


@eval_app.command("train-relevance")
def train_relevance_cmd(
    questions: Annotated[list[Path], typer.Option(
        "--questions", help="Labelled JSONL files to train on (repeat the option); rows of the held-out split are "
        "left out and sealed sets refused. Default: the development split of data/eval/questions.jsonl and the "
        "development probes data/eval/probe.jsonl and probe2.jsonl.")] = [],  # noqa: B006
    out_path: Annotated[Path, typer.Option(
        "--out", help="Where to write the model (JSON with its card); point workflow.relevance_model at it "
        "(LEGAL_RAG_WORKFLOW__RELEVANCE_MODEL) to answer with it.")] = PROJECT_ROOT / "data" / "models"
    / "relevance.json",
    as_json: Annotated[bool, typer.Option("--json", help="The model card as one JSON object.")] = False,
) -> None:
    """Train the provision relevance model on CPU from labelled development questions: Acts held out in
    cross-validation choose its regularisation and quoting threshold; the card reports both rankings."""
    files = questions or list(DEVELOPMENT_SETS)
    with _application(labels={"questions": "asking"}) as application:
        trained = application.train_relevance(files, out_path)
    print_relevance_card(trained, as_json)


RANKER_SETS = tuple(PROJECT_ROOT / "data" / "eval" / f"{name}.jsonl" for name in (
    "questions", "probe", "probe2", "probe3", "probe4", "probe5", "probe6", "probe7", "probe8", "probe9", "probe10",
    "probe11", "probe12", "probe13", "probe14", "probe15"))
"""The development sets the shipped section ranker was trained on: every set that was read. Never a sealed set nor
one ``data/eval/held_out.txt`` names (refused if given)."""


@eval_app.command("train-ranker")
def train_ranker_cmd(
    questions: Annotated[list[Path], typer.Option(
        "--questions", help="Labelled JSONL files to train on (repeat the option; each is one cross-validation "
        "fold); sealed sets and those data/eval/held_out.txt names are refused, and their questions left out "
        "wherever they appear. Default: the development sets that were read (RANKER_SETS).")] = [],  # noqa: B006
    out_path: Annotated[Path, typer.Option(
        "--out", help="Where to write the model (JSON with its card); point retrieval.section_ranker at it "
        "(LEGAL_RAG_RETRIEVAL__SECTION_RANKER).")] = PROJECT_ROOT / "data" / "retrieval" / "section_ranker.json",
    l2: Annotated[float, typer.Option("--l2", help="L2 penalty of the logistic fit.")] = 1.0,
    as_json: Annotated[bool, typer.Option("--json", help="The model card as one JSON object.")] = False,
) -> None:
    """Train the section ranker on CPU: a logistic model that re-orders the whole index's first fused sections for a
    search, cross-validated one question set at a time; the card reports recall of the expected provisions within
    the first k sections, fused order against the model's. Nothing is written unless, held out, the model finds more
    of them within the first 8 than the fused order."""
    files = questions or list(RANKER_SETS)
    base = _settings()  # trained on the fused order: a ranker in use (or a missing one) takes no part
    settings = base.model_copy(update={"retrieval": base.retrieval.model_copy(update={"section_ranker": None})})
    with _application(settings, labels={"ranker": "searching the labelled questions"}) as application:
        ranker = application.train_ranker(files, out_path, l2=l2)
    card = ranker.card
    if as_json:
        sys.stdout.write(json.dumps({**card, "path": str(out_path)}) + "\n")
        return
    cv = card["cross_validation"]
    out.print(f"trained on {card['questions']} questions from {len(card['trained_on'])} sets, "
              f"{card['candidates']} candidates ({card['relevant_candidates']} expected); l2 {card['l2']}",
              markup=False)
    out.print("held out one set at a time, share of the expected provisions within the first k sections:",
              markup=False)
    for k in cv["fused_recall"]:
        out.print(f"  {k}: fused order {cv['fused_recall'][k]:.3f}, ranker {cv['model_recall'][k]:.3f}", markup=False)
    err.print(f"wrote {out_path}", markup=False, soft_wrap=True)


@eval_app.command("build-asked")
def build_asked_cmd(
    questions: Annotated[list[Path], typer.Option(
        "--questions", help="Labelled JSONL files whose questions to write (repeat the option); sealed sets and those "
        "data/eval/held_out.txt names are refused, and their questions left out wherever they appear. Default: the "
        "development sets that were read (RANKER_SETS).")] = [],  # noqa: B006
    out_path: Annotated[Path, typer.Option(
        "--out", help="Where to write them (JSON Lines); point retrieval.asked at it (LEGAL_RAG_RETRIEVAL__ASKED).")]
    = PROJECT_ROOT / "data" / "retrieval" / "asked.jsonl",
    as_json: Annotated[bool, typer.Option("--json", help="What was written, as one JSON object.")] = False,
) -> None:
    """Write the questions asked before: each labelled development question, in its own words, as a situation of the
    provisions of today's law its answer must cite, for the lay channel to match new stories against."""
    with _application(labels={}) as application:
        built = application.build_asked(questions or list(RANKER_SETS), out_path)
    if as_json:
        sys.stdout.write(json.dumps(asdict(built)) + "\n")
        return
    out.print(f"wrote {built.questions} questions citing {built.provisions} provisions, from {len(built.sets)} sets, "
              f"to {built.path} ({built.near_copies_left_out} left out as near copies of questions that measure); "
              "`legal-rag index export-vectors --reuse` ships their vectors", markup=False)


@eval_app.command("simulate-paralegal")
def simulate_paralegal_cmd(
    questions: Annotated[list[Path], typer.Option(
        "--questions", help="Labelled JSONL files to ask (repeat the option); held-out rows are left out and sealed "
        "sets refused.")],
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """A rule-based paralegal: ask labelled development questions, store the answers, flag wrong_provision on
    every quoted provision the labels do not expect, and accept the flags (to measure training on flags; run it
    on an evaluation state)."""
    with _application(labels={"questions": "asking"}) as application:
        done = application.simulate_paralegal(questions)
    if as_json:
        sys.stdout.write(json.dumps(done.as_dict()) + "\n")
        return
    out.print(f"{done.questions} questions asked, {done.answers_flagged} answers flagged, {done.flags} accepted "
              "wrong_provision flags", markup=False)
