"""The application: one object that opens the stores, the index and the services once; faces call only this.

The CLI and the HTTP API are thin faces over :class:`Application`: they parse input, call one
method, and render the result. Everything expensive is opened lazily and kept for the life of the
process (a CLI command builds only what it uses; the API server opens everything at start-up with
:meth:`Application.open`, so ``/ready`` can say when it is done).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graph_schema.dates import check_day, day_or_today
from graph_schema.errors import InvalidInputError
from graph_schema.store import GraphStore
from legal_rag.settings import GraphBackend, Settings

if TYPE_CHECKING:
    from celery import Celery

    from graph_schema.acts import ActResolver
    from legal_rag.lookup import LookupService
    from legal_rag.records import Records
    from legal_rag.retrieval.hybrid import HybridRetriever, Retrieved
    from legal_rag.retrieval.index import ChunkIndex, Progress
    from legal_rag.workflow.service import AskResult, AskService
    from verification.extract import CitationExtractor
    from verification.model import VerificationReport
    from verification.verify import Verifier

__all__ = ["Application", "check_day"]

StageCallback = Callable[[str, float], None]



class Application:
    """Owns the graph store, the retrieval index and the services built on them.

    Args:
        settings: The one typed configuration; built by the entry point.
        first_run: Load the shipped corpus and build the index when they are empty (the CLI's
            first-run behaviour). The API server passes False and reports not-ready instead.
        progress: Where first-run work reports progress.
    """

    def __init__(self, settings: Settings, *, first_run: bool = True, progress: Progress | None = None) -> None:
        self.settings = settings
        self._first_run = first_run
        self._progress = progress
        self._lock = threading.RLock()
        self._graph: GraphStore | None = None
        self._index: ChunkIndex | None = None
        self._retriever: HybridRetriever | None = None
        self._ask: AskService | None = None
        self._lookup: LookupService | None = None
        self._verifier: Verifier | None = None
        self._celery: Celery | None = None
        self._resolver: ActResolver | None = None
        self._extractor: CitationExtractor | None = None
        self._records: Records | None = None

    # -- lifecycle -----------------------------------------------------------------------------

    def open(self) -> Application:
        """Open everything now (models, index, graph): what a server does once at start-up."""
        self.ask_service()
        self.lookup()
        self.verifier()
        self.embedder().embed(["warm-up"])
        return self

    def close(self) -> None:
        with self._lock:
            if self._index is not None:
                self._index.close()
            if self._graph is not None:
                self._graph.close()
            if self._records is not None:
                self._records.close()
            self._graph = self._index = self._retriever = self._ask = self._lookup = self._verifier = None
            self._records = None

    def __enter__(self) -> Application:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- components (lazy) ---------------------------------------------------------------------

    def graph(self) -> GraphStore:
        with self._lock:
            if self._graph is None:
                from legal_rag.stores import open_graph_store

                store = open_graph_store(self.settings)
                if self._first_run and not store.counts().get("Act"):
                    from ingestion.pipeline import default_paths, ingest

                    ingest(store, default_paths(self.settings.corpus_dir), batch_size=self.settings.ingest.batch_size,
                           progress=self._progress)
                self._graph = store
            return self._graph

    def embedder(self) -> Any:
        from legal_rag.retrieval.build import embedder

        return embedder(self.settings)

    def index(self) -> ChunkIndex:
        with self._lock:
            if self._index is None:
                from legal_rag.retrieval.build import open_index, sync_from_graph

                index = open_index(self.settings)
                try:
                    if self._first_run and len(index) == 0:
                        sync_from_graph(index, self.graph(), self._progress)
                except BaseException:
                    index.close()
                    raise
                self._index = index
            return self._index

    def resolver(self) -> ActResolver:
        """Every Act by code, title and alias: read once, and again when a name is unknown (an Act loaded
        by another process since)."""
        with self._lock:
            if self._resolver is None:
                from graph_schema.acts import LiveActResolver

                graph = self.graph()
                self._resolver = LiveActResolver(graph.all_acts)
            return self._resolver

    def extractor(self) -> CitationExtractor:
        """The citation extractor linked to the graph's Acts, shared by retrieval and verification."""
        with self._lock:
            if self._extractor is None:
                from verification.extract import CitationExtractor

                self._extractor = CitationExtractor(self.resolver().resolve)
            return self._extractor

    def retriever(self) -> HybridRetriever:
        with self._lock:
            if self._retriever is None:
                from legal_rag.retrieval.build import build_retriever

                self._retriever = build_retriever(self.settings, self.index(), self.graph(),
                                                  resolver=self.resolver(), extractor=self.extractor())
            return self._retriever

    def ask_service(self) -> AskService:
        with self._lock:
            if self._ask is None:
                from graph_schema.acts import ActTitles
                from legal_rag.workflow.service import build_service

                self._ask = build_service(self.settings, self.graph(), self.retriever(), self.embedder(),
                                          verifier=self.verifier(), titles=ActTitles(self.resolver()))
            return self._ask

    def lookup(self) -> LookupService:
        with self._lock:
            if self._lookup is None:
                from legal_rag.lookup import LookupService

                self._lookup = LookupService(self.graph(), self.resolver())
            return self._lookup

    def verifier(self) -> Verifier:
        with self._lock:
            if self._verifier is None:
                from verification.verify import Verifier

                self._verifier = Verifier(self.graph(), extractor=self.extractor(), resolver=self.resolver(),
                                          fuzzy_threshold=self.settings.verification.fuzzy_threshold)
            return self._verifier

    def records(self) -> Records:
        """Answers, flags, jobs and API keys (SQLite under the state dir, or ``LEGAL_RAG_DATABASE_URL``)."""
        with self._lock:
            if self._records is None:
                from legal_rag.records import open_records

                self._records = open_records(self.settings)
            return self._records

    def celery(self) -> Celery:
        with self._lock:
            if self._celery is None:
                from legal_rag.jobs import make_celery

                if self.settings.graph.resolved_backend() is GraphBackend.EMBEDDED:
                    from legal_rag.stores import embedded_server

                    embedded_server(self.settings).start()  # its Redis is the default broker
                self._celery = make_celery(self.settings)
            return self._celery

    @property
    def index_version(self) -> int:
        """The index version this process has loaded (what its last search used)."""
        return self._index.snapshot if self._index is not None else 0

    def served_index_version(self) -> int:
        """The index version the next search uses: the newest published one (picked up first)."""
        with self._lock:
            index = self._index
        if index is None:
            return 0
        index.refresh()
        return index.snapshot

    def recover(self) -> dict[str, Any]:
        """What a server or worker does once at start-up (``legal_rag.recovery``): bring the retrieval
        index in line with the whole graph, so no crash leaves an Act verifiable but unsearchable or a
        stale chunk served, then re-queue the jobs whose worker died (failing those that died too often).

        Returns:
            ``{"index": <sync report, or {"skipped": why} when another process held the index's write
            lock for 30 s>, "jobs": {"requeued", "failed", "unsent"}}``.
        """
        from graph_schema.errors import IndexBusyError
        from legal_rag.recovery import recover_jobs
        from legal_rag.retrieval.build import sync_from_graph

        index: dict[str, Any]
        try:
            index = sync_from_graph(self.index(), self.graph(), self._progress, lock_timeout_s=30.0).as_dict()
        except IndexBusyError as exc:
            # Another process is writing the index: an ingest's or a recovery's sync, which brings the
            # whole graph in. Waiting up to its full length would keep this server from starting.
            index = {"skipped": str(exc)}

        def send(task: str, args: list[Any], job_id: str) -> None:
            self.celery().send_task(task, args=args, task_id=job_id)

        jobs = recover_jobs(self.records(), send, self.settings.jobs)
        return {"index": index, "jobs": jobs.as_dict()}

    # -- what the faces call -------------------------------------------------------------------

    def ask(self, question: str, as_of: str | None = None, on_stage: StageCallback | None = None) -> AskResult:
        """Answer a research question for facts on ``as_of`` (default today).

        Raises:
            InvalidInputError: an empty question or an impossible date.
        """
        if not question or not question.strip():
            raise InvalidInputError("the question is empty")
        day = day_or_today(as_of)
        service = self.ask_service()
        if on_stage is None:
            return service.ask(question, day)
        return service.ask(question, day, on_stage=on_stage)

    def retrieve(self, query: str, k: int = 10, *, as_of: str | None = None, acts: Collection[str] | None = None,
                 include_repealed: bool = False) -> list[Retrieved]:
        if k < 1:
            raise InvalidInputError(f"k must be at least 1, got {k}")
        day = day_or_today(as_of)
        codes = [self.resolve_act(a) for a in acts] if acts else None
        return self.retriever().retrieve(query, k, as_of=day, acts=codes, include_repealed=include_repealed)

    def resolve_act(self, act: str) -> str:
        """An Act code for any alias lawyers write (raises the resolver's error, which names suggestions)."""
        return self.lookup().resolver.resolve(act)

    def section(self, act: str, section: str, as_of: str | None = None) -> dict[str, Any]:
        """The ``section --json`` object: ``found: False`` with an ``error`` when it does not exist."""
        day = day_or_today(as_of)
        return self.lookup().lookup(act, section, day)

    def verify(self, text: str, as_of: str | None = None,
               context: Sequence[dict[str, Any]] = (), offence_on: str | None = None) -> VerificationReport:
        """Check every citation and quote in ``text`` for facts on ``as_of``; ``offence_on``: the day of an offence
        committed before 2024-07-01 in a matter on or after it, on which the penal codes are checked
        (``Verifier.verify``)."""
        day = day_or_today(as_of)
        offence_day = check_day(offence_on, "offence_on") if offence_on is not None else None
        return self.verifier().verify(text, list(context), day, offence_on=offence_day)

    def submit_ingest(self, paths: Sequence[Path], strict: bool = False, key_name: str | None = None,
                      params: dict[str, Any] | None = None) -> str:
        """Enqueue an ingest job on the workers (the job also brings the shared index up to date).

        The job's row is written first (state ``queued``), so ``jobs`` can report it before a
        worker picks it up; if the broker refuses the message the row is marked failed.
        """
        from ingestion.tasks import INGEST_TASK
        from legal_rag.records import JobKind

        records = self.records()
        job = records.jobs.create(JobKind.INGEST, key_name=key_name,
                                  params={"paths": [str(p) for p in paths], "strict": strict, **(params or {})})
        try:
            self.celery().send_task(INGEST_TASK, args=[[str(p) for p in paths], strict], task_id=job.id)
        except Exception as exc:
            records.jobs.fail(job.id, f"could not enqueue: {type(exc).__name__}: {exc}")
            raise
        return job.id

    def submit_finetune(self, out_dir: Path, n: int = 1000, seed: int = 7, eval_fraction: float = 0.1,
                        key_name: str | None = None) -> str:
        """Enqueue a Finetune-RAG dataset build (task ``finetune.build``); its row is written first.

        Raises:
            InvalidInputError: ``n`` under 5 or an eval fraction outside [0, 1).
        """
        from finetune.tasks import FINETUNE_BUILD_TASK
        from legal_rag.records import JobKind

        if n < 5 or not 0.0 <= eval_fraction < 1.0:
            raise InvalidInputError("n must be at least 5 and eval_fraction in [0, 1)")
        args = [str(out_dir.resolve()), n, seed, eval_fraction]
        records = self.records()
        job = records.jobs.create(JobKind.FINETUNE, key_name=key_name,
                                  params=dict(zip(("out", "n", "seed", "eval_fraction"), args, strict=True)))
        try:
            self.celery().send_task(FINETUNE_BUILD_TASK, args=args, task_id=job.id)
        except Exception as exc:
            records.jobs.fail(job.id, f"could not enqueue: {type(exc).__name__}: {exc}")
            raise
        return job.id
