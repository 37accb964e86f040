"""Factories: Settings -> an opened ChunkIndex and HybridRetriever. The only place that picks
retrieval implementations."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from graph_schema.model import CitationKey
from graph_schema.store import GraphStore
from legal_rag.retrieval.chunking import SectionText, chunk_sections
from legal_rag.retrieval.dense import QdrantDenseIndex, SentenceTransformerEmbedder
from legal_rag.retrieval.hybrid import Fusion, FusionConfig, HybridRetriever
from legal_rag.retrieval.index import ChunkIndex, Progress, SyncReport
from legal_rag.retrieval.lexical import BM25Index, LexicalIndexError
from legal_rag.retrieval.types import Chunk, Embedder
from legal_rag.settings import Settings

_EMBEDDERS: dict[str, SentenceTransformerEmbedder] = {}


def embedder(settings: Settings) -> SentenceTransformerEmbedder:
    """One model per process (loading it costs seconds)."""
    key = settings.retrieval.model_path or "<package>"
    if key not in _EMBEDDERS:
        _EMBEDDERS[key] = SentenceTransformerEmbedder(settings.retrieval.model_path)
    return _EMBEDDERS[key]


def open_index(settings: Settings, directory: Path | None = None, emb: Embedder | None = None) -> ChunkIndex:
    """Open the chunk index under ``directory`` (default: the state dir). A Qdrant URL in settings
    (``QDRANT_URL``) puts vectors on that server; BM25 and chunk metadata stay local."""
    root = directory or (settings.state_dir / "index" / settings.graph.graph_name)
    r = settings.retrieval
    lexical = BM25Index(root / "bm25")
    rebuild = False
    try:
        lexical.open()
    except LexicalIndexError:
        # Saved under another tokeniser (or unreadable): rebuild BM25 from the stored chunk texts
        # below. Vectors are unaffected, so nothing is re-embedded.
        shutil.rmtree(root / "bm25", ignore_errors=True)
        lexical = BM25Index(root / "bm25")
        lexical.open()
        rebuild = True
    if r.qdrant_url and directory is None:
        key = r.qdrant_api_key.get_secret_value() if r.qdrant_api_key else None
        dense = QdrantDenseIndex(url=r.qdrant_url, collection=r.collection, api_key=key)
        headings = QdrantDenseIndex(url=r.qdrant_url, collection=f"{r.collection}_headings", api_key=key)
    else:
        # Local mode locks its folder, so the heading vectors live in a store of their own.
        dense = QdrantDenseIndex(path=str(root / "qdrant"), collection=r.collection)
        headings = QdrantDenseIndex(path=str(root / "qdrant_headings"), collection=f"{r.collection}_headings")
    dense.open()
    try:
        headings.open()
    except BaseException:
        dense.close()
        raise
    index = ChunkIndex(root / "chunks.sqlite", lexical, dense, emb or embedder(settings), headings)
    index.open()
    if rebuild and len(index):
        lexical.upsert([(c.id, c.indexed_text) for c in index.chunks()])
        lexical.save()
    return index


def fusion_config(settings: Settings) -> FusionConfig:
    r = settings.retrieval
    return FusionConfig(method=Fusion(r.fusion), rrf_k=r.rrf_k,
                        weights={"bm25": r.bm25_weight, "dense": r.dense_weight}, depth=r.depth,
                        long_weights={"bm25": r.bm25_weight, "dense": r.dense_weight_long},
                        long_query_words=r.long_query_words)


def provision_finder(resolve_act: Callable[[str], str] | None) -> Callable[[str], list[tuple[int, int, CitationKey]]]:
    """Provisions named in a query, via the citation extractor (linked to their statute)."""
    from verification.extract import CitationExtractor
    from verification.model import Label

    extractor = CitationExtractor(resolve_act)

    def find(text: str) -> list[tuple[int, int, CitationKey]]:
        out = []
        for c in extractor.extract(text):
            if c.label is Label.PROVISION:
                out.extend((c.start, c.end, k) for k in c.keys if k.act)
        return out

    return find


def build_retriever(settings: Settings, index: ChunkIndex, graph: GraphStore | None) -> HybridRetriever:
    resolve = None
    if graph is not None:
        from graph_schema.acts import ActResolver

        resolve = ActResolver(graph.all_acts()).resolve
    from legal_rag.retrieval.expand import TermsOfArt

    terms = TermsOfArt.load(settings.retrieval.terms_of_art)
    return HybridRetriever(index, graph=graph, find_provisions=provision_finder(resolve),
                           fusion=fusion_config(settings), terms=terms)


def graph_chunks(graph: GraphStore) -> list[Chunk]:
    rows = graph.text_sections()
    return list(chunk_sections(
        SectionText(r["act"], r["number"], r["title"], r["text"], r["status"], r["in_force_from"],
                    r["in_force_to"], r["source"], r["units"]) for r in rows
    ))  # fmt: skip


def sync_from_graph(index: ChunkIndex, graph: GraphStore, progress: Progress | None = None,
                    batch: int = 64) -> SyncReport:
    """Index every section with text in the graph (incremental: unchanged chunks are skipped)."""
    return index.sync(graph_chunks(graph), progress=progress, batch=batch)
