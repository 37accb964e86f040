"""The application: one object that opens the stores, the index and the services once; faces call only this.

The CLI and the HTTP API are thin faces over :class:`Application`: they parse input, call one
method, and render the result (typed, from ``legal_rag.results``); errors are the project's tree
(``graph_schema.errors``), mapped to exit codes and HTTP statuses once, at each face's boundary.
Dates of the facts are checked here, by the one validator (``graph_schema.dates``).

Everything expensive is opened lazily and kept for the life of the process (a CLI command
builds only what it uses; the API server opens everything at start-up with :meth:`Application.open`,
so ``/ready`` can say when it is done).
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import signal
import threading
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from graph_schema.dates import check_day, day_or_today
from graph_schema.errors import (
    ConfigurationError,
    InvalidInputError,
    RecordNotFoundError,
    StoreUnavailableError,
)
from graph_schema.model import NEW_CRIMINAL_CODES_IN_FORCE
from graph_schema.store import GraphStore
from legal_rag.roles import DEFAULT_TEAM, Role, Viewer
from legal_rag.settings import PROJECT_ROOT, GraphBackend, Settings

if TYPE_CHECKING:
    import subprocess

    from celery import Celery

    from finetune.build import BuildReport
    from finetune.flags import FlagsReport
    from graph_schema.acts import ActResolver
    from ingestion.audit.report import AuditReport
    from legal_rag.answer_view import AnswerView
    from legal_rag.evaluation.answers import AnswerReport, LabelledQuestion
    from legal_rag.evaluation.faults import FaultReport
    from legal_rag.evaluation.flag_examples import SimulatedFlags
    from legal_rag.evaluation.relevance import ModelVersion, RelevanceTraining
    from legal_rag.lookup import LookupService
    from legal_rag.records import Records
    from legal_rag.records.model import AnswerRow, ApiKeyRow, FlagLabel, FlagRow, FlagStatus
    from legal_rag.results import (
        AskedBuilt,
        GraphServerState,
        IndexStatus,
        IngestOutcome,
        JobView,
        RetrieveResult,
        SectionResult,
        VectorsExported,
    )
    from legal_rag.retrieval.crossval import CVReport
    from legal_rag.retrieval.hybrid import HybridRetriever, Retrieved
    from legal_rag.retrieval.index import ChunkIndex, Progress
    from legal_rag.retrieval.offence_eval import OffenceResult as OffenceEval
    from legal_rag.retrieval.rerank import LinearSectionRanker
    from legal_rag.workflow.service import AskResult, AskService
    from verification.extract import CitationExtractor
    from verification.model import VerificationReport
    from verification.verify import Verifier

__all__ = ["Application", "check_day"]

StageCallback = Callable[[str, float], None]
DEVELOPMENT_SPLITS = (None, "dev", "probe")
"""The splits of labelled questions that may train a model; "heldout" rows and sealed sets only measure it."""


def _die_with_parent() -> None:
    """In a worker child: get SIGTERM when the server process dies, however it dies.

    uvicorn re-raises the SIGTERM it handled once it has shut down, which ends the server before
    any ``finally`` of ours runs; without this the worker would outlive it (seen). Linux only.
    """
    import ctypes

    pr_set_pdeathsig = 1
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


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
        self._offline_extractor: CitationExtractor | None = None

    # -- lifecycle -----------------------------------------------------------------------------

    def open(self) -> Application:
        """Open everything now (models, index, graph, records): what a server does once at start-up."""
        self.records()
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
                 include_repealed: bool = False, rank: bool = False) -> list[Retrieved]:
        """The ``k`` best chunks for ``query`` among the law in force on ``as_of`` (default today), in the fused
        order unless ``rank`` (:meth:`search`)."""
        return self.search(query, k, as_of=as_of, acts=acts, include_repealed=include_repealed, rank=rank).hits

    def search(self, query: str, k: int = 10, *, as_of: str | None = None, acts: Collection[str] | None = None,
               include_repealed: bool = False, rank: bool = True) -> RetrieveResult:
        """:meth:`retrieve` with the day it was decided on (what ``retrieve --json`` prints). ``rank``: the section
        ranker orders the first sections of a whole-index search of the law in force since 2024-07-01
        (``HybridRetriever.retrieve``); False keeps the fused order.

        Raises:
            InvalidInputError: an empty query, ``k`` below 1 or an impossible date; UnknownActError: an Act no alias
                names; ConfigurationError: the section ranker's file cannot be read (naming it).
        """
        from legal_rag.results import RetrieveResult

        if not query.strip():
            raise InvalidInputError("the query is empty: give a question, a fact description or a provision")
        if k < 1:
            raise InvalidInputError(f"-k must be at least 1, got {k}")
        day = day_or_today(as_of)
        codes = [self.resolve_act(a) for a in acts] if acts else None
        hits = self.retriever().retrieve(query, k, as_of=day, acts=codes, include_repealed=include_repealed,
                                         rank=rank)
        return RetrieveResult(query=query, as_of=day, hits=hits)

    def resolve_act(self, act: str) -> str:
        """An Act code for any alias lawyers write (raises the resolver's error, which names suggestions)."""
        return self.lookup().resolver.resolve(act)

    def section(self, act: str, section: str, as_of: str | None = None) -> SectionResult:
        """A provision on a date: ``found: False`` with an ``error`` (and suggestions) when it does not exist.

        Raises:
            InvalidDateError: ``as_of`` not YYYY-MM-DD; StoreUnavailableError: the graph did not answer.
        """
        from legal_rag.results import SectionResult

        day = day_or_today(as_of)
        return SectionResult.from_lookup(self.lookup().lookup(act, section, day))

    def verify(self, text: str, as_of: str | None = None,
               context: Sequence[dict[str, Any]] = (), offence_on: str | None = None) -> VerificationReport:
        """Check every citation and quote in ``text`` for facts on ``as_of``; ``offence_on``: the day of an offence
        committed before 2024-07-01 in a matter on or after it, on which the penal codes are checked
        (``Verifier.verify``)."""
        day = day_or_today(as_of)
        offence_day = check_day(offence_on, "offence_on") if offence_on is not None else None
        return self.verifier().verify(text, list(context), day, offence_on=offence_day)

    # -- statutes and the index -----------------------------------------------------------------

    def ingest(self, paths: Sequence[Path], *, strict: bool = False, index: bool = True,
               progress: Progress | None = None) -> IngestOutcome:
        """Load statute files into the graph (idempotent), then bring the retrieval index up to date.

        Raises:
            InvalidInputError: no paths, or a path that does not exist.
            IngestError: strict mode and a record was rejected (nothing written), or an unreadable file.
            StoreUnavailableError: the graph stopped answering (whole batches written so far are kept).
        """
        from ingestion.pipeline import ingest
        from legal_rag.results import IngestOutcome
        from legal_rag.retrieval.build import sync_from_graph

        if not paths:
            raise InvalidInputError("nothing to ingest: give PATH... or --default")
        missing = [str(p) for p in paths if not p.exists()]
        if missing:
            raise InvalidInputError(f"no such file or directory: {', '.join(missing)}")
        progress = progress or self._progress
        report = ingest(self.graph(), paths, strict=strict, batch_size=self.settings.ingest.batch_size,
                        progress=progress)
        synced = sync_from_graph(self.index(), self.graph(), progress) if index else None
        return IngestOutcome(report, synced)

    def default_corpus(self) -> list[Path]:
        """The shipped corpus's files, in load order."""
        from ingestion.pipeline import default_paths

        return default_paths(self.settings.corpus_dir)

    def counts(self) -> dict[str, int]:
        """How many nodes of each label the graph holds."""
        return dict(self.graph().counts())

    def index_status(self) -> IndexStatus:
        """The published index version, its size, and the embedding model (the index is not synced first)."""
        from legal_rag.results import IndexStatus
        from legal_rag.retrieval.build import embedder, open_index

        index = open_index(self.settings)
        try:
            qdrant = self.settings.retrieval.qdrant_url
            return IndexStatus(root=str(index.dir.root), version=index.snapshot, chunks=len(index),
                               headings=len(index.headings.ids()) if index.headings is not None else 0,
                               model_id=embedder(self.settings).model_id,
                               vectors="server " + qdrant if qdrant else "files")
        finally:
            index.close()

    def export_vectors(self, out_dir: Path | None = None, *, reuse: bool = False,
                       progress: Progress | None = None) -> VectorsExported:
        """Embed every chunk and heading of the graph's statutes, every situation of the lay cards
        (``retrieval/lay.py``) and every question asked before (``retrieval/asked.py``), into the shipped vectors
        artifact.

        Raises:
            InvalidInputError: the graph holds no statute text.
        """
        from legal_rag.results import VectorsExported
        from legal_rag.retrieval.asked import read_asked
        from legal_rag.retrieval.build import embedder, graph_chunks
        from legal_rag.retrieval.index import heading_texts
        from legal_rag.retrieval.lay import read_lay_cards, situations
        from legal_rag.retrieval.vectors import ShippedVectors, write_shipped_vectors

        chunks = graph_chunks(self.graph())
        if not chunks:
            raise InvalidInputError("the graph holds no statute text: run `legal-rag ingest --default` first")
        asked = self.settings.retrieval.asked
        lay = situations(read_lay_cards(self.settings.retrieval.lay_cards)) + [
            q.question for q in (read_asked(asked) if asked is not None else [])]
        texts = sorted({c.indexed_text for c in chunks} | set(heading_texts(chunks)) | set(lay))
        emb = embedder(self.settings)
        target = out_dir or self.settings.retrieval.vectors_dir
        kept: dict[str, object] = {}
        if reuse:
            positions, rows = ShippedVectors(target, emb.model_id).lookup(texts, normalise=False)
            kept = {texts[i]: row for i, row in zip(positions, rows, strict=True)}
        missing = [t for t in texts if t not in kept]
        fresh: dict[str, object] = {}
        progress = progress or self._progress
        if missing:
            report = (lambda done, total: progress("embed", done, total)) if progress else None
            fresh = dict(zip(missing, emb.embed(missing, 32, progress=report), strict=True))
        n = write_shipped_vectors(target, emb.model_id, {**kept, **fresh})
        return VectorsExported(written=n, chunks=len(chunks), embedded=len(missing), kept=len(kept),
                               target=str(target), situations=len(lay))

    def extract_citations(self, text: str) -> list[dict[str, Any]]:
        """Provisions, statutes, precedents and notifications in ``text`` with exact spans. Acts are linked to
        the graph's (and the repealed codes) when the graph answers and holds any, else to the curated names."""
        from graph_schema.acts import REPEALED_CODES, ActResolver
        from verification.extract import CitationExtractor, citations_to_json

        with self._lock:
            if self._offline_extractor is None:
                try:
                    acts = self.graph().all_acts()
                except StoreUnavailableError:
                    acts = []
                resolve = ActResolver([*REPEALED_CODES, *acts]).resolve if acts else None
                self._offline_extractor = CitationExtractor(resolve)
        return citations_to_json(text, self._offline_extractor.extract(text))

    # -- the embedded graph server and the worker ------------------------------------------------

    def graph_server(self, action: Literal["start", "stop", "status"]) -> GraphServerState:
        """Start, stop or ask after the embedded FalkorDB server (its data is kept)."""
        from legal_rag.results import GraphServerState
        from legal_rag.stores import embedded_server

        srv = embedded_server(self.settings)
        changed = srv.start() if action == "start" else srv.stop() if action == "stop" else False
        running = action == "start" or (action == "status" and srv.is_running())
        return GraphServerState(running=running, changed=changed, socket_path=srv.socket_path)

    def run_worker(self, concurrency: int = 1, loglevel: str = "INFO") -> None:
        """Run a Celery worker for jobs, after the start-up recovery (run in a child process: an index
        update may load the embedding model, which must not be inherited by the pool processes this one
        forks, as ONNX Runtime's threads do not survive a fork)."""
        import subprocess
        import sys

        celery = self.celery()  # starts the embedded server first when that is the backend
        done = subprocess.run([sys.executable, "-m", "legal_rag.cli", "recover"], check=False)
        if done.returncode != 0:
            logging.getLogger("legal_rag.worker").warning(
                "start-up recovery failed (exit %s); starting the worker anyway: jobs it runs bring the index "
                "up to date, and the next start recovers again", done.returncode)
        celery.worker_main(["worker", f"--concurrency={concurrency}", f"--loglevel={loglevel}",
                            "-Q", self.settings.jobs.queue])

    def start_worker_process(self) -> subprocess.Popen[bytes] | None:
        """On the embedded default with no broker configured: one ``legal-rag worker`` child that dies with
        this process (what ``serve`` runs so ingest jobs work with one command). None otherwise."""
        import subprocess
        import sys

        from legal_rag.stores import embedded_server

        if self.settings.graph.resolved_backend() is not GraphBackend.EMBEDDED or self.settings.jobs.broker_url:
            return None
        embedded_server(self.settings).start()  # before the child, so the two do not race to start it
        return subprocess.Popen([sys.executable, "-m", "legal_rag.cli", "worker", "--loglevel", "WARNING"],
                                preexec_fn=_die_with_parent)

    # -- records: answers, flags, jobs, keys -----------------------------------------------------

    def job(self, job_id: str, wait_s: float = 0.0) -> JobView:
        """A job's state, progress and report; with ``wait_s``, polled until finished or that many seconds.

        Raises:
            RecordNotFoundError: no job with that id.
        """
        import time

        from legal_rag.results import JobView

        jobs = self.records().jobs
        deadline = time.monotonic() + wait_s
        row = jobs.get(job_id)
        while wait_s and (row is None or not JobView.from_row(row).finished) and time.monotonic() < deadline:
            time.sleep(0.5)
            row = jobs.get(job_id)
        if row is None:
            raise RecordNotFoundError(f"no job {job_id!r}")
        return JobView.from_row(row)

    def store_answer(self, result: AskResult, viewer: Viewer) -> AnswerRow:
        """Keep an answer with its provenance (the key that asked and its team, the index version it was made on)."""
        return self.records().answers.add(result.model_dump(mode="json"), index_version=self.index_version,
                                          key_name=viewer.name, team=viewer.team)

    def answer(self, answer_id: str, viewer: Viewer) -> AnswerRow:
        """A stored answer of a team ``viewer`` sees.

        Raises:
            RecordNotFoundError: no answer with that id, or one of another team (the same error: an id of another
                team's answer says nothing about it).
        """
        row = self.records().answers.get(answer_id, viewer)
        if row is None:
            raise RecordNotFoundError(f"no answer {answer_id!r}")
        return row

    def answers(self, viewer: Viewer, limit: int = 20, before: str | None = None) -> list[AnswerRow]:
        """The stored answers ``viewer`` sees, newest first; ``before``: the id after which the page starts."""
        return self.records().answers.list(viewer, limit=limit, before=before)

    def add_flag(self, answer_id: str, *, start: int, end: int, label: FlagLabel, viewer: Viewer,
                 comment: str | None = None, correction: str | None = None,
                 idempotency_key: str | None = None) -> tuple[FlagRow, bool]:
        """Flag a span of a stored answer ``viewer`` sees; ``(flag, created)``: a retry with the same idempotency
        key gets the flag first stored and False."""
        return self.records().flags.add(answer_id=answer_id, start=start, end=end, label=label, comment=comment,
                                        correction=correction, viewer=viewer, idempotency_key=idempotency_key)

    def answer_flags(self, answer_id: str, viewer: Viewer) -> list[FlagRow]:
        """The flags on one stored answer (raises ``RecordNotFoundError`` for an unknown answer or another team's)."""
        self.answer(answer_id, viewer)
        return self.records().flags.list_for_answer(answer_id, viewer)

    def export_flags(self, viewer: Viewer, since: str | None = None, label: FlagLabel | None = None,
                     status: FlagStatus | str | None = None) -> list[FlagRow]:
        """The flags ``viewer`` sees made on or after ``since`` (YYYY-MM-DD), with that label and status, oldest
        first."""
        day = check_day(since, "since") if since is not None else None
        return self.records().flags.export(viewer, since=day, label=label, status=status)

    def review_flag(self, flag_id: str, status: FlagStatus | str, viewer: Viewer) -> FlagRow:
        return self.records().flags.review(flag_id, status, viewer)

    def create_key(self, name: str, role: Role, team: str = DEFAULT_TEAM) -> tuple[ApiKeyRow, str]:
        """A new API key in ``team``: its row and the raw key, shown once (only its hash is stored)."""
        return self.records().keys.create(name, role, team)

    def api_keys(self) -> list[ApiKeyRow]:
        """Every API key (active and revoked), oldest first."""
        return self.records().keys.list()

    def revoke_key(self, name: str) -> ApiKeyRow:
        return self.records().keys.revoke(name)

    def authenticate(self, raw_key: str) -> ApiKeyRow | None:
        """The active key with this raw value, or None (unknown or revoked)."""
        return self.records().keys.authenticate(raw_key)

    def submit_upload(self, data: bytes, name: str, key_name: str) -> str:
        """Keep an uploaded file under the state dir (workers read it from there), then enqueue its ingest.

        Each upload gets its own folder and keeps its own file name, so the file reads as the same file
        the CLI would read: records carry ``<name>:<line>`` as their source (re-uploading an unchanged
        file writes nothing) and rejects name the file the client sent. Written to a temporary name and
        renamed, so a worker never reads half a file.
        """
        import uuid

        folder = self.settings.state_dir / "uploads" / uuid.uuid4().hex
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / name
        tmp = folder / f".{name}.part"
        tmp.write_bytes(data)
        tmp.replace(path)
        return self.submit_ingest([path], key_name=key_name, params={"bytes": len(data), "file": name})

    # -- evaluation, audit and training data -----------------------------------------------------

    def evaluate_retrieval(self, corpus: Path, queries: Path, qrels: Path, k: int = 10,
                           cv: int = 0) -> tuple[dict[str, Any], CVReport | None]:
        """BM25, dense and hybrid on any corpus in a temporary index (the main one is untouched); with ``cv``
        folds, fusion candidates cross-validated too.

        Raises:
            InvalidInputError: ``cv`` of 1 or below 0; IngestError: an unreadable eval set.
        """
        from legal_rag.retrieval.build import embedder, fusion_config, open_index
        from legal_rag.retrieval.crossval import cross_validate, default_candidates
        from legal_rag.retrieval.evaluate import doc_runs, evaluate, load_eval_set

        if cv == 1 or cv < 0:
            raise InvalidInputError("--cv needs at least 2 folds")
        try:
            es = load_eval_set(corpus, queries, qrels)
        except OSError as exc:
            raise InvalidInputError(str(exc)) from exc
        emb = embedder(self.settings)
        fusion = fusion_config(self.settings)
        runs = doc_runs(es, lambda d: open_index(self.settings, d, emb))
        result = evaluate(es, lambda d: open_index(self.settings, d, emb), k=k, fusion=fusion, runs=runs)
        report = cross_validate(runs, es.queries, es.qrels, default_candidates(fusion), cv) if cv else None
        return result, report

    def evaluate_offences(self, corpus: Path, queries: Path, qrels: Path, ipc: Path | None = None,
                          k: int = 10) -> tuple[OffenceEval, int]:
        """Facts -> offences over the main index, hybrid with and without the offence channel, against BM25
        over the IPC's sections; returns the result and how many queries had an IPC gold.

        Raises:
            InvalidInputError: an unreadable eval set or IPC file, or no query with an IPC gold.
        """
        import json
        from dataclasses import replace

        from legal_rag.retrieval.evaluate import load_eval_set
        from legal_rag.retrieval.offence_eval import evaluate_offences, ipc_sections, offence_gold
        from legal_rag.settings import PROJECT_ROOT

        ipc_path = ipc or PROJECT_ROOT / "data" / "corpus" / "legacy" / "ipc.json"
        try:
            es = load_eval_set(corpus, queries, qrels)
            gold = offence_gold(es, ipc_sections(es.docs, json.loads(ipc_path.read_text(encoding="utf-8"))))
        except (OSError, ValueError) as exc:
            raise InvalidInputError(str(exc)) from exc
        if not gold:
            raise InvalidInputError("no query has an IPC section among its relevant statutes")
        retriever = self.retriever()
        cfg = retriever.fusion
        without = replace(cfg, long_weights={**(cfg.long_weights or cfg.weights), "offence": 0.0})
        return evaluate_offences(retriever, es.queries, gold, {"hybrid": cfg, "hybrid_no_offence": without}, k), \
            len(gold)

    def evaluate_faults(self, n: int = 500, seed: int = 7, questions: Path | None = None,
                        progress: Progress | None = None) -> FaultReport:
        """Inject ``n`` faults into verified answers and measure what verification caught.

        Raises:
            InvalidInputError: ``n`` below one of each fault type, or an unreadable questions file.
        """
        from legal_rag.evaluation.fault_run import DEV_QUESTIONS, load_questions, run_faults
        from legal_rag.evaluation.faults import FAULT_TYPES
        from legal_rag.retrieval.asked import LeaveOut

        if n < len(FAULT_TYPES):
            raise InvalidInputError(f"--n must be at least {len(FAULT_TYPES)} (one fault of each type)")
        try:
            qs = load_questions(questions) if questions is not None else None
        except (OSError, ValueError) as exc:
            raise InvalidInputError(str(exc)) from exc
        progress = progress or self._progress
        report = (lambda d, t: progress("faults", d, t)) if progress else None
        # the labelled base questions are none answered from themselves (the questions asked before)
        base = questions if questions is not None else DEV_QUESTIONS
        leave_out = LeaveOut.of({base.name}, [q.question for q in (qs if qs is not None else load_questions(base))])
        service = self.ask_service()
        try:
            with self.retriever().leaving_out(leave_out):
                return run_faults(self.graph(), service, n=n, seed=seed, questions=qs, progress=report)
        except ValueError as exc:
            raise InvalidInputError(str(exc)) from exc

    def train_ranker(self, questions: Sequence[Path], out: Path, *, l2: float = 1.0,
                     progress: Progress | None = None) -> LinearSectionRanker:
        """Train the section ranker (``retrieval/rerank.py``) on labelled development questions, each file one
        cross-validation fold, and write it to ``out`` (a ``.json`` file) with its card. Returns the model.

        Trains on what it ranks: searches of the whole index on a day the new codes were in force. A question dated
        before 2024-07-01, or one of a held-out or sealed set (by its text, whatever its file is called), is left out;
        so are the provisions a question names (pinned first, never ranked) and the repealed codes' labels.

        Raises:
            InvalidInputError: a sealed or held-out set, an unreadable file, two files of one name, fewer than two
                files with questions to learn from, ``out`` not a writable .json file, ``l2`` negative or not finite,
                or a model no better than the fused order held out (nothing is written then).
        """
        from legal_rag.retrieval.asked import LeaveOut
        from legal_rag.retrieval.rerank import OLD_CODES, train
        from legal_rag.retrieval.rerank import LabelledQuestion as RankerQuestion

        if out.suffix != ".json" or out.is_dir():
            raise InvalidInputError(f"--out {out} must be a .json file (the model is written whole, with its card)")
        if not (math.isfinite(l2) and l2 > 0):
            raise InvalidInputError(f"--l2 must be a finite number above 0, got {l2}")
        names = [path.stem for path in questions]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise InvalidInputError(f"two files are called {twice[0]}: each file is one cross-validation fold, named "
                                    "by its file name")
        # before the search, which takes minutes: a place the model cannot be written is known now (nothing made yet)
        existing = next(p for p in (out.parent, *out.parent.parents) if p.exists())
        if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
            raise InvalidInputError(f"--out {out}: the model cannot be written there ({existing} is not a folder "
                                    "this user may write in)")
        per_file = self._development_files(questions)  # refuses measuring sets
        retriever = self.retriever()
        total = sum(len(qs) for qs in per_file.values())
        progress = progress or self._progress
        labelled = []
        done = 0
        for path, qs in per_file.items():
            # each file searched as it is held out: without the questions asked before that came from it or ask its
            # questions, as a new question is searched in use (the lay run, one of the ranker's features, includes
            # the others)
            with retriever.leaving_out(LeaveOut.of({path.name}, [q.question for q in qs])):
                for q in qs:
                    done += 1
                    if progress is not None:
                        progress("ranker", done, total)
                    expected = frozenset(f"{act}:{section}" for act, section in q.expect_cited
                                         if act.upper() not in OLD_CODES)
                    if not expected or (q.as_of is not None and q.as_of < NEW_CRIMINAL_CODES_IN_FORCE):
                        continue  # what is ranked: searches of the law since 2024-07-01 (``HybridRetriever.retrieve``)
                    found = retriever.ranking_candidates(q.question, as_of=q.as_of)
                    if expected - found.pinned:  # a provision the question names is pinned first: never missed
                        labelled.append(RankerQuestion(path.stem, q.id, expected - found.pinned, found.candidates))
        if len({q.source for q in labelled}) < 2:
            raise InvalidInputError("the section ranker is cross-validated one file at a time: give two or more "
                                    "files with development questions that expect a provision of today's law")
        try:
            ranker = train(labelled, l2=l2)
        except ValueError as exc:
            raise InvalidInputError(str(exc)) from exc
        try:
            ranker.save(out)
        except OSError as exc:
            raise InvalidInputError(f"--out {out}: the model could not be written ({exc})") from exc
        return ranker

    def _development_questions(self, questions: Sequence[Path]) -> list[LabelledQuestion]:
        """The rows of labelled files that may train (``_development_files``), all together."""
        return [q for qs in self._development_files(questions).values() for q in qs]

    def _development_files(self, questions: Sequence[Path]) -> dict[Path, list[LabelledQuestion]]:
        """The rows of each labelled file that may train (``DEVELOPMENT_SPLITS``): sealed and held-out sets are refused
        (``data/eval/held_out.txt``; every name before any file is read), held-out rows left out, a row of any other
        split refused, and a row whose question is one a measuring set asks left out, whatever its file is called
        (``measuring_questions``, read once)."""
        from legal_rag.evaluation.answers import HELD_OUT_LIST, held_out_sets, is_sealed, load_labelled
        from legal_rag.evaluation.relevance import measuring_questions
        from legal_rag.retrieval.asked import normalised

        directory = PROJECT_ROOT / "data" / "eval"
        try:
            measuring = measuring_questions(directory)
            held = held_out_sets(directory)
        except ValueError as exc:
            raise ConfigurationError(f"cannot read the evaluation sets: {exc}") from exc
        for path in questions:
            if is_sealed(path):
                raise InvalidInputError(f"{path.name} is sealed: it measures the model and never trains it")
            if path.name in held:
                raise InvalidInputError(f"{path.name} is held out (data/eval/{HELD_OUT_LIST}): it measures the model "
                                        "and never trains it")
        out: dict[Path, list[LabelledQuestion]] = {}
        for path in questions:
            try:
                rows = load_labelled(path, self.resolver().resolve)
            except (OSError, ValueError) as exc:
                raise InvalidInputError(str(exc)) from exc
            unknown = sorted({str(q.split) for q in rows if q.split not in DEVELOPMENT_SPLITS and q.split != "heldout"})
            if unknown:
                raise InvalidInputError(f"{path.name}: split {unknown[0]!r} is neither a development split (dev, "
                                        "probe, or none) nor 'heldout': say which, so that no measuring row trains")
            out[path] = [q for q in rows
                         if q.split in DEVELOPMENT_SPLITS and normalised(q.question) not in measuring]
        return out

    def build_asked(self, questions: Sequence[Path], out: Path) -> AskedBuilt:
        """Write the questions asked before (``retrieval/asked.py``) from labelled development sets to ``out``: each
        answerable question, not dated before 2024-07-01, with the provisions of today's law its answer must cite.

        A question that is a near copy of one that measures (``asked.NEAR_COPY``: a sealed or held-out set's, or a
        held-out row's, by the cosine of their sentence vectors) is left out too.

        Raises:
            InvalidInputError: a sealed or held-out set, an unreadable file, two files of one name, no question to
                write, or ``out`` not a .jsonl file outside the evaluation sets' folder and not one of ``questions``
                (nothing is written then).
        """
        from legal_rag.results import AskedBuilt
        from legal_rag.retrieval.asked import asked_rows, write_asked

        evaluation = (PROJECT_ROOT / "data" / "eval").resolve()
        if out.suffix != ".jsonl" or out.is_dir():
            raise InvalidInputError(f"--out {out} must be a .jsonl file")
        if out.resolve().parent == evaluation or out.resolve() in {p.resolve() for p in questions}:
            raise InvalidInputError(f"--out {out} would write over the evaluation sets: write it elsewhere")
        names = [path.name for path in questions]
        if twice := sorted({n for n in names if names.count(n) > 1}):
            raise InvalidInputError(f"two files are called {twice[0]}: a question set is named by its file name")
        per_file = self._development_files(questions)  # refuses measuring sets
        rows = asked_rows((path.name, qs) for path, qs in per_file.items())
        near = self._near_copies_of_measuring([r.question for r in rows])
        rows = [r for i, r in enumerate(rows) if i not in near]
        if not rows:
            raise InvalidInputError("no answerable question of today's law to write (held-out rows are never used)")
        try:
            write_asked(out, rows)
        except OSError as exc:
            raise InvalidInputError(f"--out {out}: cannot write it: {exc}") from exc
        return AskedBuilt(questions=len(rows), provisions=len({c for r in rows for c in r.cited}),
                          sets=sorted({r.source for r in rows}), path=str(out), near_copies_left_out=len(near))

    def _near_copies_of_measuring(self, questions: Sequence[str]) -> set[int]:
        """Indexes of ``questions`` whose sentence vector is within ``asked.NEAR_COPY`` cosine of a question that
        measures (``measuring_questions``)."""
        import numpy as np

        from legal_rag.evaluation.relevance import measuring_questions
        from legal_rag.retrieval.asked import NEAR_COPY
        from legal_rag.retrieval.build import shipped_vectors
        from legal_rag.retrieval.vectors import vectors_for

        try:
            measuring = sorted(measuring_questions(PROJECT_ROOT / "data" / "eval"))
        except ValueError as exc:
            raise ConfigurationError(f"cannot read the evaluation sets: {exc}") from exc
        if not measuring or not questions:
            return set()
        emb = self.embedder()
        shipped = shipped_vectors(self.settings, emb)
        ours, _ = vectors_for(questions, emb, shipped)
        theirs, _ = vectors_for(measuring, emb, None)  # never shipped: a measuring question is embedded here only
        closest = (ours @ theirs.T).max(axis=1)
        return {int(i) for i in np.flatnonzero(closest >= NEAR_COPY)}

    def _recording_generator(self) -> Any:
        from legal_rag.workflow.generators.extractive import ExtractiveGenerator

        generator = self.ask_service().context.generator
        if not isinstance(generator, ExtractiveGenerator):
            raise ConfigurationError(f"the {generator.name} generator answers: the relevance model ranks the "
                                     "offline generator's provisions; train with llm.provider = offline")
        return generator

    def _asker(self, total: int, progress: Progress | None) -> Callable[[Any], None]:
        service = self.ask_service()
        step = progress or self._progress
        done = [0]

        def ask(q: Any) -> None:
            service.ask(q.question, q.as_of)
            done[0] += 1
            if step is not None:
                step("questions", done[0], total)

        return ask

    def train_relevance(self, questions: Sequence[Path], out: Path | None, progress: Progress | None = None, *,
                        flag_labels: Sequence[str] = (), since: str | None = None, data: Path | None = None,
                        data_rows: int = 200) -> RelevanceTraining:
        """Train the provision relevance model on labelled development questions (rows of a held-out split and
        sealed sets are refused: they measure it), and also on the accepted flags with ``flag_labels`` and on up to
        ``data_rows`` questions of the built Finetune-RAG dataset in ``data`` (its training split); write it to
        ``out`` with its card. Only the labelled questions score the cross-validation's choices.

        ``out`` is a ``.json`` file, or a directory (made if missing) where the model is written as the next version
        (``relevance-v<N>.json``); None: the directory ``models`` of the state dir.

        Raises:
            InvalidInputError: a sealed set, an unreadable file, no development question, a flag label that does not
                name a provision to leave out, ``since`` not YYYY-MM-DD, ``data`` not a built dataset.
            ConfigurationError: an LLM answers (the model ranks the offline generator's provisions).
        """
        from legal_rag.evaluation.flag_examples import RELEVANCE_LABELS, examples_from_flags, read_flags, unused
        from legal_rag.evaluation.relevance import (
            RelevanceTraining,
            built_questions,
            collect,
            cross_validate_and_train,
            examples,
            measuring_questions,
        )
        from legal_rag.records import SYSTEM
        from legal_rag.retrieval.asked import LeaveOut, normalised

        bad = [label for label in flag_labels if label not in RELEVANCE_LABELS]
        if bad:
            raise InvalidInputError(f"flag label {bad[0]!r} does not say a provision should not have been quoted; "
                                    f"one of: {', '.join(RELEVANCE_LABELS)}")
        day = check_day(since, "--since") if since is not None else None
        target = out if out is not None else self.settings.state_dir / "models"
        if target.exists() and not target.is_dir() and target.suffix != ".json":
            raise InvalidInputError(f"--out {target} is a file but not a .json model: give a directory (the model is "
                                    "written as its next version) or a .json file")
        qs = self._development_questions(questions)
        if not qs:
            raise InvalidInputError("no development question to train on (held-out rows are never used)")
        try:
            measuring = measuring_questions(PROJECT_ROOT / "data" / "eval")
        except ValueError as exc:
            raise ConfigurationError(f"cannot read the evaluation sets: {exc}") from exc
        built: list[LabelledQuestion] = []
        if data is not None:
            if data_rows < 1:
                raise InvalidInputError(f"--data-rows must be at least 1, got {data_rows}")
            try:
                built = built_questions(data, data_rows)
            except (OSError, ValueError) as exc:
                raise InvalidInputError(str(exc)) from exc
        built_measuring = [q for q in built if normalised(q.question) in measuring]
        built = [q for q in built if q not in built_measuring]
        generator = self._recording_generator()
        flags: list[Any] = []
        for label in dict.fromkeys(flag_labels):
            flags += self.records().flags.export(SYSTEM, since=day, label=label, status="accepted")
        reading = read_flags(flags, lambda answer_id: self.records().answers.get(answer_id, SYSTEM),
                             lambda text: [(c["act"], c["section"]) for c in self.extract_citations(text)
                                           if c.get("act") and c.get("section")])
        flagged = [a for a in reading.answers if normalised(a.question) not in measuring]
        skipped = reading.skipped + [
            unused(fid, a.answer_id, "the question is in a held-out or sealed evaluation set: it measures the model "
                   "and never trains it") for a in reading.answers if a not in flagged for fid, _ in a.flags]
        ask = self._asker(len(qs) + len(built) + len(flagged), progress)
        # none answered from itself: the questions asked before leave out the files and every question asked here
        leave_out = LeaveOut.of({p.name for p in questions},
                                [*(q.question for q in (*qs, *built)), *(a.question for a in flagged)])
        with self.retriever().leaving_out(leave_out):
            labelled = examples(collect(ask, generator, qs))
            labelled += examples(collect(ask, generator, built), scored=False)
            from_flags, not_labelled = examples_from_flags(collect(ask, generator, flagged))
        skipped += not_labelled
        card: dict[str, Any] = {"flags": {"labels": list(dict.fromkeys(flag_labels)), "since": day,
                                          "accepted": len(flags), "used": len(flags) - len(skipped),
                                          "skipped": skipped, "teams": "all (read as the operator)"},
                                "built_dataset": None if data is None else {
                                    "path": str(data), "questions": len(built),
                                    "left_out_as_evaluation_questions": len(built_measuring)}}
        try:
            report = cross_validate_and_train(labelled + from_flags, [str(p) for p in questions], card=card)
        except ValueError as exc:
            raise InvalidInputError(str(exc)) from exc
        try:
            path = self._save_model(report.model, target)
        except OSError as exc:
            raise InvalidInputError(f"cannot write the model to {target}: {exc}") from exc
        return RelevanceTraining(report, path, skipped)

    @staticmethod
    def _save_model(model: Any, target: Path) -> Path:
        """``target`` a .json file: written (replacing it whole). Otherwise a directory, where the model is written as
        the next version: a version another run wrote meanwhile is never replaced (the next number is taken)."""
        from legal_rag.evaluation.relevance import versioned

        if target.suffix == ".json" and not target.is_dir():
            model.save(target)
            return target
        target.mkdir(parents=True, exist_ok=True)
        while True:
            path, version = versioned(target)
            model.version = str(version)
            model.card["version"] = version
            try:
                model.save(path, exclusive=True)
            except FileExistsError:
                continue
            return path

    def relevance_models(self, directory: Path | None = None) -> list[ModelVersion]:
        """The relevance models ``finetune train`` wrote as versions in ``directory`` (default: the state dir's
        ``models``), oldest first, each marked whether ``workflow.relevance_model`` points at it.

        Raises:
            ConfigurationError: a version file that cannot be read.
        """
        from legal_rag.evaluation.relevance import versions

        return versions(directory or self.settings.state_dir / "models", self.settings.workflow.relevance_model)

    def simulate_paralegal(self, questions: Sequence[Path], progress: Progress | None = None) -> SimulatedFlags:
        """The rule-based paralegal (``legal_rag.evaluation.flag_examples.paralegal_spans``): ask each labelled
        development question, store the answer, flag ``wrong_provision`` on every quoted provision the labels do
        not expect, and accept those flags as the operator. The answers and flags are ordinary records of the key
        name ``simulated-paralegal``, so it runs only on a records store that holds no other key's answers (an
        evaluation store).

        Raises:
            InvalidInputError: a sealed set, an unreadable file, no development question, a store with real answers.
        """
        from legal_rag.evaluation.flag_examples import SimulatedFlags, paralegal_spans
        from legal_rag.records import SYSTEM, FlagLabel
        from legal_rag.retrieval.asked import LeaveOut

        qs = self._development_questions(questions)
        if not qs:
            raise InvalidInputError("no development question to ask (held-out rows are never used)")
        viewer = Viewer(name="simulated-paralegal", role=Role.PARALEGAL, team=DEFAULT_TEAM)
        others = self.records().answers.count_other_keys(viewer.name)
        if others:
            raise InvalidInputError(f"the records store holds {others} answers of real keys: the simulated paralegal "
                                    "accepts its own flags, which would train models and preference data beside a "
                                    "team's; run it on an evaluation store (LEGAL_RAG_DATABASE_URL)")
        step = progress or self._progress
        flagged = made = 0
        with self.retriever().leaving_out(LeaveOut.of({p.name for p in questions}, [q.question for q in qs])):
            for i, q in enumerate(qs, start=1):
                row = self.store_answer(self.ask(q.question, q.as_of), viewer)
                spans = paralegal_spans(row.document, q.expect_cited)
                for start, end, (act, section) in spans:
                    flag, _ = self.add_flag(row.id, start=start, end=end, label=FlagLabel.WRONG_PROVISION,
                                            viewer=viewer, comment=f"simulated paralegal: {act} {section} is not "
                                            f"among the provisions labelled for question {q.id}")
                    self.review_flag(flag.id, "accepted", SYSTEM)
                flagged += bool(spans)
                made += len(spans)
                if step is not None:
                    step("questions", i, len(qs))
        return SimulatedFlags(len(qs), flagged, made)

    def evaluate_answers(self, questions: Path, split: str | None = None, *, unseal: bool = False,
                         progress: Progress | None = None) -> AnswerReport:
        """Ask labelled questions and score the answers. The questions asked before (``retrieval.asked``) that came
        from this file or ask one of its questions take no part (``HybridRetriever.leaving_out``): a development set
        is scored leave-one-set-out.

        Raises:
            InvalidInputError: an unreadable file, a split of a sealed set (it would show one question's
                result), or a split no question has.
        """
        from legal_rag.evaluation.answers import is_sealed, load_labelled, run_answers
        from legal_rag.retrieval.asked import LeaveOut

        try:
            qs = load_labelled(questions, self.resolver().resolve)
        except (OSError, ValueError) as exc:
            raise InvalidInputError(str(exc)) from exc
        leave_out = LeaveOut.of({questions.name}, [q.question for q in qs])  # every row, whatever split is asked
        if split is not None and is_sealed(questions) and not unseal:
            raise InvalidInputError(f"{questions.name} is sealed: it is reported whole (a split could show one "
                                    "question's result)")
        if split is not None:
            qs = [q for q in qs if q.split == split]
            if not qs:
                raise InvalidInputError(f"no question in {questions} has split {split!r}")
        progress = progress or self._progress
        report = (lambda d, t: progress("answers", d, t)) if progress else None
        service = self.ask_service()
        with self.retriever().leaving_out(leave_out):
            return run_answers(service, qs, progress=report)

    def audit(self, corpus: Path | None = None) -> tuple[AuditReport, list[dict[str, Any]]]:
        """Every section compared across the sources that carry it; and draft curation rows for the
        unresolved unknown Acts.

        Raises:
            IngestError: the corpus cannot be read.
        """
        from ingestion.audit import audit, propose_named_acts, read_corpus

        parsed = read_corpus(corpus or self.settings.corpus_dir)
        report = audit(parsed)
        return report, list(propose_named_acts(parsed, report))

    def build_dataset(self, out_dir: Path, n: int = 1000, seed: int = 7, eval_fraction: float = 0.1,
                      progress: Progress | None = None, *, eval_per_category: int | None = None,
                      retriever: bool = True) -> BuildReport:
        """Verified SFT and DPO files from the statute graph; the same seed gives the same bytes. Contexts come
        from the product's own retriever (as an answer sees them) unless ``retriever`` is False.

        Raises:
            InvalidInputError: ``n`` under 5, an eval fraction outside [0, 1) or ``eval_per_category`` under 1.
            DatasetError: too few usable provisions for a category.
        """
        from finetune import BuildConfig, TokenizerFile, build_dataset
        from finetune.examples import from_retriever
        from legal_rag.retrieval.onnx_minilm import TOKENIZER, TOKENIZER_NAME

        if n < 5 or not 0.0 <= eval_fraction < 1.0 or (eval_per_category is not None and eval_per_category < 1):
            raise InvalidInputError("--n must be at least 5, --eval-fraction in [0, 1) and --eval-per-category "
                                    "at least 1")
        config = BuildConfig(n=n, seed=seed, eval_fraction=eval_fraction, eval_per_category=eval_per_category)
        neighbours = from_retriever(self.retriever()) if retriever else None
        return build_dataset(self.graph(), self.verifier(), out_dir, config, corpus_dir=self.settings.corpus_dir,
                             progress=progress or self._progress, neighbours=neighbours,
                             tokenizer=TokenizerFile(TOKENIZER, TOKENIZER_NAME))

    def audit_dataset(self, directory: Path) -> tuple[list[Any], dict[str, Any]]:
        """The surface-feature audit of a built dataset: every (category, feature, direction) rate and, per
        category, the feature that best picks the chosen answer (``finetune.audit``).

        Raises:
            InvalidInputError: ``directory`` holds no ``dpo/``.
        """
        from finetune.audit import audit_dataset, best_per_category

        if not (directory / "dpo").is_dir():
            raise InvalidInputError(f"{directory} has no dpo/ directory")
        scores = audit_dataset(directory)
        return scores, best_per_category(scores)

    def blind_read(self, directory: Path, n: int, seed: int, out_file: Path, key_file: Path) -> int:
        """Write ``n`` pairs of a built dataset for a blind read (category and chosen side hidden) and, apart,
        their key; the number written.

        Raises:
            InvalidInputError: ``directory`` holds no ``dpo/``, or ``n`` under 1.
        """
        from finetune.blind import write_blind

        if not (directory / "dpo").is_dir() or n < 1:
            raise InvalidInputError(f"{directory} has no dpo/ directory, or --n is under 1")
        return write_blind(directory, n, seed, out_file, key_file)

    def validate_dataset(self, directory: Path, *, verify: bool = True) -> list[str]:
        """Schema, counts, duplicates, leakage and verification of a built dataset: each problem, in words.

        Raises:
            InvalidInputError: ``directory`` is not a directory.
        """
        from finetune.validate import validate_against_graph

        if not directory.is_dir():
            raise InvalidInputError(f"{directory} is not a directory")
        return [str(p) for p in validate_against_graph(directory, self.graph(), self.verifier(), verify=verify)]

    def dataset_from_flags(self, out_dir: Path, since: str | None = None, status: str = "accepted",
                           label: str | None = None) -> FlagsReport:
        """Stored flags -> DPO rows (corrected vs flagged, re-verified) and KTO rows (flagged, label false).

        Raises:
            InvalidInputError: ``since`` not YYYY-MM-DD, or an unknown status.
        """
        from finetune import Judge
        from finetune.flags import RecordsFlagSource, flags_to_rows
        from finetune.statutes import StatuteView
        from legal_rag.records import SYSTEM

        if since is not None:
            check_day(since, "--since")
        if status not in ("pending", "accepted", "rejected"):
            raise InvalidInputError(f"--status must be pending, accepted or rejected, got {status!r}")
        graph = self.graph()
        return flags_to_rows(RecordsFlagSource(self.records(), SYSTEM), StatuteView.read(graph),
                             Judge(self.verifier(), graph), out_dir, since=since, status=status, label=label)

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

    def submit_finetune(self, out_dir: Path | None = None, n: int = 1000, seed: int = 7, eval_fraction: float = 0.1,
                        key_name: str | None = None) -> str:
        """Enqueue a Finetune-RAG dataset build (task ``finetune.build``); its row is written first.
        Without ``out_dir`` the files go to ``<state dir>/finetune/<random id>``.

        Raises:
            InvalidInputError: ``n`` under 5 or an eval fraction outside [0, 1).
        """
        from finetune.tasks import FINETUNE_BUILD_TASK
        from legal_rag.records import JobKind

        if n < 5 or not 0.0 <= eval_fraction < 1.0:
            raise InvalidInputError("n must be at least 5 and eval_fraction in [0, 1)")
        if out_dir is None:
            import uuid

            out_dir = self.settings.state_dir / "finetune" / uuid.uuid4().hex
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

    # -- the research page's views (legal_rag.api.routers.page) --------------------------------

    def answer_view(self, answer_id: str, viewer: Viewer) -> AnswerView | None:
        """A stored answer as the research page and the exports show it (``legal_rag.answer_view``); None when
        there is no such answer or it belongs to a team ``viewer`` does not see."""
        from legal_rag.answer_view import build_view

        row = self.records().answers.get(answer_id, viewer)
        if row is None:
            return None
        return build_view({**row.document, "id": row.id, "created_at": row.created_at.isoformat(),
                           "key_name": row.key_name})

    def history(self, key_name: str, contains: str | None = None, limit: int = 20,
                before: str | None = None) -> list[dict[str, Any]]:
        """The questions asked with one key, newest first, optionally those containing some words: for each its
        answer's id, date of the facts, when it was asked, confidence label and the answer's first line."""
        rows = self.records().answers.history(key_name, contains=contains, limit=limit, before=before)
        return [{"id": r.id, "question": r.question, "as_of": r.as_of, "created_at": r.created_at.isoformat(),
                 "confidence": (r.document.get("confidence") or {}).get("label"),
                 "first_line": r.text.split("\n", 1)[0][:300]} for r in rows]

    def flag_counts(self, viewer: Viewer) -> dict[str, dict[str, int]]:
        """How many flags of the teams ``viewer`` sees carry each label, by review status."""
        return self.records().flags.counts(viewer)

    def review_queue(self, viewer: Viewer, limit: int = 50) -> dict[str, Any]:
        """A paralegal's work: the team's answers to check (below High confidence, or with a flag pending review),
        each with its flags, and the flags this key made with their comments and review status."""
        records = self.records()
        answers = []
        for r in records.answers.to_check(viewer, below=0.8, limit=limit):
            flags = records.flags.list_for_answer(r.id, viewer)
            answers.append({
                "id": r.id, "question": r.question, "as_of": r.as_of, "created_at": r.created_at.isoformat(),
                "confidence": (r.document.get("confidence") or {}).get("label"), "key_name": r.key_name,
                "flags": len(flags), "pending": sum(f.status == "pending" for f in flags)})
        mine = [{"id": f.id, "answer_id": f.answer_id, "label": f.label, "span_text": f.span_text,
                 "comment": f.comment, "correction": f.correction, "status": f.status,
                 "created_at": f.created_at.isoformat(), "reviewed_by": f.reviewed_by,
                 "reviewed_at": f.reviewed_at.isoformat() if f.reviewed_at else None}
                for f in records.flags.by_key(viewer.name)]
        return {"answers": answers, "flags": mine}
