"""Commands of the retrieval layer: retrieve, eval retrieval."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from graph_schema.errors import IngestError, LegalRagError
from legal_rag.cli.common import (
    EXIT_BAD_INPUT,
    _open,
    _ready_index,
    _settings,
    app,
    err,
    out,
)

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
    from legal_rag.lookup import InvalidDateError, _as_of
    from legal_rag.retrieval.build import build_retriever

    settings = _settings()
    try:
        day = _as_of(as_of)
    except InvalidDateError as exc:
        err.print(f"[red]{exc}[/red]")
        raise typer.Exit(EXIT_BAD_INPUT) from exc
    if k < 1:
        err.print("-k must be at least 1")
        raise typer.Exit(EXIT_BAD_INPUT)
    store = _open(settings)
    try:
        index = _ready_index(settings, store)
    except BaseException:
        store.close()
        raise
    try:
        acts = None
        if act:
            from graph_schema.acts import ActResolver

            resolver = ActResolver(store.all_acts())
            try:
                acts = [resolver.resolve(a) for a in act]
            except LegalRagError as exc:
                err.print(f"[red]{exc}[/red]")
                raise typer.Exit(EXIT_BAD_INPUT) from exc
        results = build_retriever(settings, index, store).retrieve(
            query, k, as_of=day, acts=acts, include_repealed=include_repealed
        )
    finally:
        index.close()
        store.close()
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
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Evaluate BM25, dense and hybrid on any corpus, in a temporary index (the main one is untouched)."""
    from legal_rag.retrieval.build import embedder, fusion_config, open_index
    from legal_rag.retrieval.evaluate import METRICS, evaluate, load_eval_set

    settings = _settings()
    try:
        es = load_eval_set(corpus, queries, qrels)
    except (IngestError, OSError) as exc:
        err.print(f"[red]{exc}[/red]")
        raise typer.Exit(EXIT_BAD_INPUT) from exc
    emb = embedder(settings)
    result = evaluate(es, lambda d: open_index(settings, d, emb), k=k, fusion=fusion_config(settings))
    if as_json:
        sys.stdout.write(json.dumps(result) + "\n")
        return
    table = Table(title=f"retrieval, {result['queries']} queries")
    table.add_column("method")
    for m in METRICS:
        table.add_column(m, justify="right")
    for name, scores in {**result["methods"], **result["alternatives"]}.items():  # type: ignore[dict-item]
        table.add_row(name, *(f"{scores[m]:.4f}" for m in METRICS))
    out.print(table)
