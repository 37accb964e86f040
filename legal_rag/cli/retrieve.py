"""Commands of the retrieval layer: retrieve, eval retrieval, eval offences."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, cast

import typer
from rich.table import Table

from legal_rag.cli.common import _application, app, out

if TYPE_CHECKING:
    from legal_rag.results import CVReport

eval_app = typer.Typer(no_args_is_help=True, help="Evaluation harnesses.")
app.add_typer(eval_app, name="eval")


@app.command("retrieve")
def retrieve_cmd(
    query: Annotated[str, typer.Argument(help="A question, a fact description, or a provision reference.")],
    k: Annotated[int, typer.Option("-k", help="How many chunks.")] = 10,
    as_of: Annotated[
        str | None, typer.Option("--as-of", help="Only law in force on this date (default today).")
    ] = None,
    act: Annotated[list[str] | None, typer.Option("--act", help="Restrict to these Acts (code or alias).")] = None,
    include_repealed: Annotated[bool, typer.Option("--include-repealed", help="Historical: ignore dates.")] = False,
    fused: Annotated[bool, typer.Option("--fused", help="Keep the fused order: no section ranker.")] = False,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Hybrid (BM25 + dense) retrieval over the indexed statutes, provisions named in the query first. A search of
    the whole index on a date since 2024-07-01 is ordered by the learnt section ranker (its score is shown as
    "ranker"); one confined to some Acts, over history or before that date keeps the fused order."""
    with _application() as application:
        found = application.search(query, k, as_of=as_of, acts=act, include_repealed=include_repealed, rank=not fused)
    rows: list[dict[str, Any]] = [
        {
            "rank": i,
            "chunk_id": r.chunk.id,
            "act": r.chunk.act,
            "section": r.chunk.section,
            "sub": r.chunk.sub,
            "title": r.chunk.title,
            "status": r.chunk.status,
            "in_force_from": r.chunk.in_force_from,
            "in_force_to": r.chunk.in_force_to,
            "scores": r.scores,
            "fused": r.scores.get("fused"),
            "pinned": r.pinned,
            "heading": r.chunk.heading,
            "text": r.chunk.text,
        }
        for i, r in enumerate(found.hits, start=1)
    ]
    if as_json:
        sys.stdout.write(json.dumps({"query": query, "as_of": found.as_of, "results": rows}, ensure_ascii=False) + "\n")
        return
    for r in rows:
        why = f" [{r['pinned']}]" if r["pinned"] else ""
        scores = " ".join(f"{k2}={v:.4f}" for k2, v in r["scores"].items())
        out.print(f"{r['rank']:>2}. {r['heading']}{why}  ({r['status']}; {scores})", markup=False)
        out.print(f"    {r['text'][:200]}", markup=False)


@eval_app.command("retrieval")
def eval_retrieval_cmd(
    corpus: Annotated[Path, typer.Option("--corpus", help='JSONL {"id", "title", "text"}.')],
    queries: Annotated[Path, typer.Option("--queries", help='JSONL {"id", "text"}.')],
    qrels: Annotated[Path, typer.Option("--qrels", help="TREC qrels: qid Q0 docid rel.")],
    k: Annotated[int, typer.Option("--k")] = 10,
    cv: Annotated[int, typer.Option("--cv", help="Also cross-validate fusion candidates over K folds "
                                    "(K >= queries: leave one out).")] = 0,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Evaluate BM25, dense and hybrid on any corpus, in a temporary index (the main one is untouched)."""
    from legal_rag.results import RETRIEVAL_METRICS as METRICS

    with _application(first_run=False) as application:
        result, report = application.evaluate_retrieval(corpus, queries, qrels, k, cv)
    if as_json:
        sys.stdout.write(json.dumps({**result, "cv": report.as_dict() if report else None}) + "\n")
        return
    table = Table(title=f"retrieval, {result['queries']} queries")
    table.add_column("method")
    for m in METRICS:
        table.add_column(m, justify="right")
    methods = cast("dict[str, dict[str, float]]", result["methods"])  # evaluate(): method -> metric -> score
    alternatives = cast("dict[str, dict[str, float]]", result["alternatives"])
    for name, scores in {**methods, **alternatives}.items():
        table.add_row(name, *(f"{scores[m]:.4f}" for m in METRICS))
    out.print(table)
    if report is not None:
        _print_cv(report)


def _print_cv(report: CVReport) -> None:
    from collections import Counter

    from legal_rag.results import describe_candidate as describe

    legend = "; ".join(f"{i}: {' '.join(f.queries)}" for i, f in enumerate(report.folds, start=1))
    folds = Table(title=f"held-out MAP per fold ({len(report.folds)} folds)", caption=f"held out: {legend}")
    folds.add_column("candidate")
    for i in range(1, len(report.folds) + 1):
        folds.add_column(str(i), justify="right")
    folds.add_row("bm25", *(f"{f.bm25:.3f}".lstrip("0") for f in report.folds))
    for c in report.candidates:
        folds.add_row(c, *(f"{f.hybrid[c]:.3f}".lstrip("0") for f in report.folds))
    out.print(folds)
    mean = Table(title="cross-validated: mean held-out-fold MAP")
    for col in ("candidate", "bm25", "hybrid", "ratio"):
        mean.add_column(col, justify="left" if col == "candidate" else "right")
    mean.add_column("chosen on the training folds (x folds)")
    for c in report.candidates:
        chosen = Counter(describe(f.chosen[c]) for f in report.folds).most_common()
        mean.add_row(c, f"{report.bm25:.4f}", f"{report.hybrid(c):.4f}", f"{report.ratio(c):.2f}x",
                     "; ".join(f"{d} x{n}" for d, n in chosen))
    out.print(mean)


@eval_app.command("offences")
def eval_offences_cmd(
    corpus: Annotated[Path, typer.Option("--corpus", help='AILA-style statutes, JSONL {"id", "title", "text"}.')],
    queries: Annotated[Path, typer.Option("--queries", help='JSONL {"id", "text"}: fact descriptions.')],
    qrels: Annotated[Path, typer.Option("--qrels", help="TREC qrels: qid Q0 docid rel.")],
    ipc: Annotated[Path | None, typer.Option("--ipc", help="The IPC as JSON, to recognise which statutes are "
                                             "IPC sections (default: the shipped legacy copy).")] = None,
    k: Annotated[int, typer.Option("--k")] = 10,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Facts -> offences over the main index: recall@k of the IPC gold (or its BNS successor), hybrid with and
    without the offence channel, against BM25 over the IPC's sections alone."""
    from legal_rag.results import OFFENCE_BASELINE as BASELINE

    with _application() as application:
        result, n_gold = application.evaluate_offences(corpus, queries, qrels, ipc, k)
    if as_json:
        sys.stdout.write(json.dumps(result.as_dict()) + "\n")
        return
    table = Table(title=f"facts -> offences, {n_gold} queries, recall@{k} over the whole index")
    for col in ("method", f"recall@{k}", f"x {BASELINE}"):
        table.add_column(col, justify="right" if col != "method" else "left")
    for m, v in result.recall.items():
        table.add_row(m, f"{v:.4f}", "" if m == BASELINE else f"{result.ratio(m):.2f}x")
    out.print(table)


index_app = typer.Typer(no_args_is_help=True, help="The retrieval index and the shipped vectors.")
app.add_typer(index_app, name="index")


@index_app.command("status")
def index_status_cmd(as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """The published index version, its size, and the embedding model."""
    with _application(first_run=False) as application:
        doc = application.index_status().as_dict()
    if as_json:
        sys.stdout.write(json.dumps(doc) + "\n")
        return
    for k, v in doc.items():
        out.print(f"{k:9} {v}", markup=False)


@index_app.command("export-vectors")
def export_vectors_cmd(
    out_dir: Annotated[Path | None, typer.Option("--out", help="Artifact folder (default: settings' data/vectors).")]
    = None,
    reuse: Annotated[bool, typer.Option("--reuse", help="Keep the vectors the artifact already has for texts "
                                        "still in the corpus (same model); embed only the rest.")] = False,
) -> None:
    """Regenerate the shipped vectors: embed every chunk and heading of the graph's statutes.

    Run it on a graph loaded with the shipped corpus only (``ingest --default``), after changing the
    corpus or the model. Embedding ~18,000 texts takes several minutes on 2 CPU cores; with ``--reuse``
    only the texts the artifact lacks are embedded, and texts no longer in the corpus are dropped.
    """
    with _application(first_run=False, labels={"embed": "embedding chunks and headings"}) as application:
        done = application.export_vectors(out_dir, reuse=reuse)
    out.print(f"wrote {done.written} vectors ({done.chunks} chunks and their headings, {done.situations} lay "
              f"situations; {done.embedded} embedded, "
              f"{done.kept} kept) to {done.target}", markup=False)
