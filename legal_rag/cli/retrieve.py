"""Commands of the retrieval layer: retrieve, eval retrieval, eval offences."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, cast

import typer
from rich.table import Table

from graph_schema.errors import IngestError, LegalRagError, RetryableError
from legal_rag.cli.common import (
    EXIT_BAD_INPUT,
    _application,
    _open,
    _settings,
    app,
    err,
    out,
)

if TYPE_CHECKING:
    from legal_rag.retrieval.crossval import CVReport

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
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Hybrid (BM25 + dense) retrieval over the indexed statutes, provisions named in the query first."""
    from graph_schema.errors import InvalidDateError
    from legal_rag.app import check_day

    try:
        day = check_day(as_of) if as_of else None
    except InvalidDateError as exc:
        err.print(f"[red]{exc}[/red]")
        raise typer.Exit(EXIT_BAD_INPUT) from exc
    if k < 1:
        err.print("-k must be at least 1")
        raise typer.Exit(EXIT_BAD_INPUT)
    with _application() as application:
        try:
            results = application.retrieve(query, k, as_of=day, acts=act, include_repealed=include_repealed)
        except LegalRagError as exc:
            if isinstance(exc, RetryableError):
                raise
            err.print(f"[red]{exc}[/red]")
            raise typer.Exit(EXIT_BAD_INPUT) from exc
    rows = [
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
        for i, r in enumerate(results, start=1)
    ]
    if as_json:
        sys.stdout.write(json.dumps({"query": query, "as_of": day, "results": rows}, ensure_ascii=False) + "\n")
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
    from legal_rag.retrieval.build import embedder, fusion_config, open_index
    from legal_rag.retrieval.crossval import cross_validate, default_candidates
    from legal_rag.retrieval.evaluate import METRICS, doc_runs, evaluate, load_eval_set

    settings = _settings()
    try:
        es = load_eval_set(corpus, queries, qrels)
    except (IngestError, OSError) as exc:
        err.print(f"[red]{exc}[/red]")
        raise typer.Exit(EXIT_BAD_INPUT) from exc
    if cv == 1 or cv < 0:
        err.print("--cv needs at least 2 folds")
        raise typer.Exit(EXIT_BAD_INPUT)
    emb = embedder(settings)
    fusion = fusion_config(settings)
    runs = doc_runs(es, lambda d: open_index(settings, d, emb))
    result = evaluate(es, lambda d: open_index(settings, d, emb), k=k, fusion=fusion, runs=runs)
    report = cross_validate(runs, es.queries, es.qrels, default_candidates(fusion), cv) if cv else None
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

    from legal_rag.retrieval.crossval import describe

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
    from dataclasses import replace

    from legal_rag.retrieval.evaluate import load_eval_set
    from legal_rag.retrieval.offence_eval import BASELINE, evaluate_offences, ipc_sections, offence_gold
    from legal_rag.settings import PROJECT_ROOT

    ipc_path = ipc or PROJECT_ROOT / "data" / "corpus" / "legacy" / "ipc.json"
    try:
        es = load_eval_set(corpus, queries, qrels)
        gold = offence_gold(es, ipc_sections(es.docs, json.loads(ipc_path.read_text(encoding="utf-8"))))
    except (IngestError, OSError, ValueError) as exc:
        err.print(f"[red]{exc}[/red]")
        raise typer.Exit(EXIT_BAD_INPUT) from exc
    if not gold:
        err.print("no query has an IPC section among its relevant statutes")
        raise typer.Exit(EXIT_BAD_INPUT)
    with _application() as application:
        retriever = application.retriever()
        cfg = retriever.fusion
        without = replace(cfg, long_weights={**(cfg.long_weights or cfg.weights), "offence": 0.0})
        result = evaluate_offences(retriever, es.queries, gold, {"hybrid": cfg, "hybrid_no_offence": without}, k)
    if as_json:
        sys.stdout.write(json.dumps(result.as_dict()) + "\n")
        return
    table = Table(title=f"facts -> offences, {len(gold)} queries, recall@{k} over the whole index")
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
    from legal_rag.retrieval.build import embedder, open_index

    settings = _settings()
    index = open_index(settings)
    try:
        emb = embedder(settings)
        doc = {"root": str(index.dir.root), "version": index.snapshot, "chunks": len(index),
               "headings": len(index.headings.ids()) if index.headings is not None else 0,
               "model_id": emb.model_id,
               "vectors": "server " + (settings.retrieval.qdrant_url or "") if settings.retrieval.qdrant_url
               else "files"}
    finally:
        index.close()
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
    from legal_rag.cli.progress import progress_reporter
    from legal_rag.retrieval.build import embedder, graph_chunks
    from legal_rag.retrieval.index import heading_texts
    from legal_rag.retrieval.vectors import write_shipped_vectors

    settings = _settings()
    store = _open(settings)
    try:
        chunks = graph_chunks(store)
    finally:
        store.close()
    if not chunks:
        err.print("[red]the graph holds no statute text: run `legal-rag ingest --default` first[/red]")
        raise typer.Exit(EXIT_BAD_INPUT)
    texts = sorted({c.indexed_text for c in chunks} | set(heading_texts(chunks)))
    emb = embedder(settings)
    target = out_dir or settings.retrieval.vectors_dir
    kept: dict[str, object] = {}
    if reuse:
        from legal_rag.retrieval.vectors import ShippedVectors

        positions, rows = ShippedVectors(target, emb.model_id).lookup(texts, normalise=False)
        kept = {texts[i]: row for i, row in zip(positions, rows, strict=True)}
    missing = [t for t in texts if t not in kept]
    with progress_reporter({"embed": "embedding chunks and headings"}) as progress:
        fresh: dict[str, object] = {}
        if missing:
            vectors = emb.embed(missing, 32, progress=lambda done, total: progress("embed", done, total))
            fresh = dict(zip(missing, vectors, strict=True))
    n = write_shipped_vectors(target, emb.model_id, {**kept, **fresh})
    out.print(f"wrote {n} vectors ({len(chunks)} chunks and their headings; {len(missing)} embedded, "
              f"{len(kept)} kept) to {target}", markup=False)
