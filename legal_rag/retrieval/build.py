"""Factories: Settings -> an opened ChunkIndex and HybridRetriever. The only place that picks
retrieval implementations."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from graph_schema.model import CitationKey
from graph_schema.store import GraphReader
from legal_rag.retrieval.asked import read_asked
from legal_rag.retrieval.chunking import SectionText, chunk_sections
from legal_rag.retrieval.hybrid import Fusion, FusionConfig, HybridRetriever, NamedInQuery
from legal_rag.retrieval.index import ChunkIndex, Progress, SyncReport
from legal_rag.retrieval.lay import read_lay_cards
from legal_rag.retrieval.rerank import RankerFile
from legal_rag.retrieval.types import Chunk, DenseIndex, Embedder
from legal_rag.retrieval.vectors import ShippedVectors
from legal_rag.settings import EmbedderKind, Settings

if TYPE_CHECKING:
    from graph_schema.acts import ActResolver
    from verification.extract import CitationExtractor

_EMBEDDERS: dict[tuple[str, str], Embedder] = {}


def embedder(settings: Settings) -> Embedder:
    """One model per process and kind. Constructing it reads nothing; the first embedding loads it."""
    r = settings.retrieval
    key = (r.embedder.value, r.model_path or "<package>")
    if key not in _EMBEDDERS:
        if r.embedder is EmbedderKind.SENTENCE_TRANSFORMERS:
            from legal_rag.retrieval.dense import SentenceTransformerEmbedder

            _EMBEDDERS[key] = SentenceTransformerEmbedder(r.model_path)
        elif r.embedder is EmbedderKind.MINILM:
            from legal_rag.retrieval.minilm import MiniLMEmbedder

            _EMBEDDERS[key] = MiniLMEmbedder(r.model_path)
        else:
            from legal_rag.retrieval.onnx_minilm import OnnxMiniLMEmbedder

            _EMBEDDERS[key] = OnnxMiniLMEmbedder(r.model_path)
    return _EMBEDDERS[key]


def index_root(settings: Settings) -> Path:
    return settings.state_dir / "index" / settings.graph.graph_name


def shipped_vectors(settings: Settings, emb: Embedder) -> ShippedVectors | None:
    """The shipped vectors for this embedder's weights (None when disabled or the embedder has no id)."""
    if not settings.retrieval.use_shipped_vectors:
        return None
    return ShippedVectors(settings.retrieval.vectors_dir, emb.model_id)


def open_index(settings: Settings, directory: Path | None = None, emb: Embedder | None = None) -> ChunkIndex:
    """Open the chunk index under ``directory`` (default: the state dir). A Qdrant URL in settings
    (``QDRANT_URL``) puts vectors on that server; chunk metadata and BM25 stay in the index folder."""
    root = directory or index_root(settings)
    r = settings.retrieval
    emb = emb or embedder(settings)
    dense: DenseIndex | None = None
    headings: DenseIndex | None = None
    if r.qdrant_url and directory is None:
        from legal_rag.retrieval.dense import QdrantDenseIndex

        key = r.qdrant_api_key.get_secret_value() if r.qdrant_api_key else None
        q_dense = QdrantDenseIndex(url=r.qdrant_url, collection=r.collection, api_key=key)
        q_heads = QdrantDenseIndex(url=r.qdrant_url, collection=f"{r.collection}_headings", api_key=key)
        q_dense.open()
        try:
            q_heads.open()
        except BaseException:
            q_dense.close()
            raise
        dense, headings = q_dense, q_heads
    index = ChunkIndex(root, emb, dense=dense, headings=headings, shipped=shipped_vectors(settings, emb))
    try:
        index.open()
    except BaseException:
        index.close()
        raise
    return index


def fusion_config(settings: Settings) -> FusionConfig:
    r = settings.retrieval
    return FusionConfig(method=Fusion(r.fusion), rrf_k=r.rrf_k,
                        weights={"bm25": r.bm25_weight, "dense": r.dense_weight, "lay": r.lay_weight}, depth=r.depth,
                        long_weights={"bm25": r.bm25_weight, "dense": r.dense_weight_long,
                                      "offence": r.offence_weight_long, "lay": r.lay_weight},
                        long_query_words=r.long_query_words, story_words=r.lay_story_words)


def provision_finder(
    resolve_act: Callable[[str], str] | None, extractor: CitationExtractor | None = None
) -> Callable[[str], NamedInQuery]:
    """Provisions and Acts named in a query, via the citation extractor (provisions linked to their statute)."""
    from verification.extract import CitationExtractor, adjacent_sections
    from verification.model import Label

    ex = extractor or CitationExtractor(resolve_act)

    def find(text: str) -> NamedInQuery:
        cits = ex.extract(text)
        out: list[tuple[int, int, CitationKey]] = []
        for c in cits:
            if c.label is Label.PROVISION:
                out.extend((c.start, c.end, k) for k in c.keys if k.act)
        # "IPC 420", "BNS 318(4)": a number beside a statute's name names its section as surely.
        out.extend((pos, pos + len(number), CitationKey(statute.act, number, ()))
                   for pos, statute, number in adjacent_sections(text, cits) if statute.act)  # fmt: skip
        acts = {c.act for c in cits if c.label is Label.STATUTE and c.act} | {k.act for _, _, k in out}
        return NamedInQuery(sorted(out, key=lambda f: f[0]), frozenset(acts))

    return find


def build_retriever(settings: Settings, index: ChunkIndex, graph: GraphReader | None, *,
                    resolver: ActResolver | None = None, extractor: CitationExtractor | None = None) -> HybridRetriever:
    """The hybrid retriever; pass the process's ``resolver`` and ``extractor`` to share them (each costs a
    graph read or a pipeline build)."""
    if resolver is None and graph is not None:
        from graph_schema.acts import ActResolver

        resolver = ActResolver(graph.all_acts())
    from legal_rag.retrieval.expand import TermsOfArt

    # a term applies to a search confined to some Acts when its wording is theirs: named by its evidence, or used in
    # their text (read once, from the index as it is now)
    terms = TermsOfArt.load(settings.retrieval.terms_of_art, settings.retrieval.hinglish).found_in(act_texts(index))
    find = provision_finder(resolver.resolve if resolver else None, extractor)
    lay = read_lay_cards(settings.retrieval.lay_cards)
    asked = read_asked(settings.retrieval.asked) if settings.retrieval.asked is not None else []
    return HybridRetriever(index, graph=graph, find_named=find, fusion=fusion_config(settings), terms=terms, lay=lay,
                           shipped=shipped_vectors(settings, index.embedder), ranker=section_ranker(settings),
                           asked=asked)


def section_ranker(settings: Settings) -> RankerFile | None:
    """The configured section ranker, read from its file on first use (``RankerFile``), or None when turned off."""
    path = settings.retrieval.section_ranker
    return None if path is None else RankerFile(path)


def act_texts(index: ChunkIndex) -> dict[str, str]:
    """Act code -> the lower-cased headings and text of its indexed chunks."""
    parts: dict[str, list[str]] = {}
    for c in index.chunks():
        parts.setdefault(c.act, []).extend((c.heading.lower(), c.text.lower()))
    return {act: "\n".join(p) for act, p in parts.items()}


def graph_chunks(graph: GraphReader) -> list[Chunk]:
    rows = graph.text_sections()
    return list(chunk_sections(
        SectionText(r["act"], r["number"], r["title"], r["text"], r["status"], r["in_force_from"],
                    r["in_force_to"], r["source"], r["units"], tuple(r.get("not_in_force") or ())) for r in rows
    ))  # fmt: skip


def sync_from_graph(index: ChunkIndex, graph: GraphReader, progress: Progress | None = None,
                    batch: int = 64, lock_timeout_s: float = 600.0) -> SyncReport:
    """Index every section with text in the graph (incremental: unchanged chunks are skipped)."""
    return index.sync(graph_chunks(graph), progress=progress, batch=batch, lock_timeout_s=lock_timeout_s)
