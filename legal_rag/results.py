"""What :class:`legal_rag.app.Application` returns to the faces: typed results, and the types they carry.

The CLI and the API import from here (and from ``legal_rag.app``, the errors module, settings and
roles) and nothing else of the project, so this module also re-exports the types the results hold
(the workflow's answer, the verification report, the ingest, audit and evaluation reports, the
records' rows and enums) and the few names the faces need to render them (metric names, a sealed
set's test, the evaluation report writer). It loads the verification layer: faces import it where
they render, not at the top of the CLI.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ingestion.audit.report import AuditReport
from ingestion.report import IngestReport
from legal_rag.answer_view import AnswerView, to_docx, to_markdown
from legal_rag.evaluation.answers import METRICS as ANSWER_METRICS
from legal_rag.evaluation.answers import AnswerReport, is_sealed, write_report
from legal_rag.records.model import (
    AnswerRow,
    ApiKeyRow,
    FlagLabel,
    FlagRow,
    FlagStatus,
    JobKind,
    JobRow,
    JobState,
)
from legal_rag.retrieval.crossval import CVReport
from legal_rag.retrieval.crossval import describe as describe_candidate
from legal_rag.retrieval.evaluate import METRICS as RETRIEVAL_METRICS
from legal_rag.retrieval.offence_eval import BASELINE as OFFENCE_BASELINE
from legal_rag.workflow.results import AskResult
from verification.model import VerificationReport

if TYPE_CHECKING:  # numpy and the index: loaded only by the commands that search
    from legal_rag.retrieval.hybrid import Retrieved
    from legal_rag.retrieval.index import SyncReport

__all__ = [
    "ANSWER_METRICS", "OFFENCE_BASELINE", "RETRIEVAL_METRICS", "AnswerReport", "AuditReport", "CVReport",
    "describe_candidate", "is_sealed", "write_report", "AnswerView", "to_docx", "to_markdown",
    "AnswerRow", "ApiKeyRow", "AskResult", "FlagLabel", "FlagRow", "FlagStatus", "GraphServerState",
    "IndexStatus", "IngestOutcome", "IngestReport", "JobKind", "JobRow", "JobState", "JobView", "RetrieveResult",
    "SectionResult", "VectorsExported", "VerificationReport",
]  # fmt: skip

_ALWAYS = ("found", "act", "act_title", "section", "title", "status_on_date", "as_of", "in_force_from",
           "in_force_to", "successors", "predecessors", "text")
_WHEN_FOUND = ("status", "chapter", "chapter_title", "has_text", "amendments", "previous", "next")
_WHEN_SET = ("subunit_checked", "note", "no_successor", "repealed_by", "error", "suggestions", "line")


@dataclass(frozen=True, slots=True)
class SectionResult:
    """A provision looked up for a date (``section --json`` and ``GET /v1/sections``).

    ``found`` is True, False (it does not exist: ``error`` says why, ``suggestions`` the nearest
    sections or Acts) or None (nothing could be looked up: a bad input line, or the graph down).
    """

    found: bool | None
    act: str | None = None
    act_title: str | None = None
    section: str | None = None
    title: str | None = None
    status_on_date: str | None = None
    as_of: str | None = None
    in_force_from: str | None = None
    in_force_to: str | None = None
    successors: list[dict[str, Any]] = field(default_factory=list)
    predecessors: list[dict[str, Any]] = field(default_factory=list)
    text: str | None = None
    status: str | None = None
    chapter: str | None = None
    chapter_title: str | None = None
    has_text: bool | None = None
    amendments: list[Any] | None = None
    subunit_checked: bool | None = None
    note: str | None = None
    no_successor: str | None = None
    repealed_by: dict[str, Any] | None = None
    error: str | None = None
    suggestions: list[str] | None = None
    line: int | None = None
    previous: str | None = None
    """The section before this one in its Act (numbers sorted as the Act orders them), once found."""
    next: str | None = None
    """The section after it."""

    @classmethod
    def from_lookup(cls, doc: dict[str, Any]) -> SectionResult:
        """From ``LookupService.lookup``'s answer (every key it writes is a field here)."""
        return cls(**doc)

    @classmethod
    def unchecked(cls, error: str, line: int | None = None) -> SectionResult:
        """Nothing could be looked up (``found: None``): a bad request line, or the graph did not answer."""
        return cls(found=None, error=error, line=line)

    def as_dict(self) -> dict[str, Any]:
        """The JSON object the CLI and the API emit: every lookup key, the found-only keys once found,
        the rest only when set."""
        doc = {k: getattr(self, k) for k in _ALWAYS}
        if self.found:
            doc.update({k: getattr(self, k) for k in _WHEN_FOUND})
        doc.update({k: getattr(self, k) for k in _WHEN_SET if getattr(self, k) is not None})
        return doc


@dataclass(frozen=True, slots=True)
class RetrieveResult:
    """The chunks retrieved for a query, and the day the law was taken on (today unless given)."""

    query: str
    as_of: str
    hits: list[Retrieved]


@dataclass(frozen=True, slots=True)
class IngestOutcome:
    """What an ingest wrote to the graph, and how the retrieval index followed (None: not asked)."""

    report: IngestReport
    index: SyncReport | None = None

    def as_dict(self) -> dict[str, Any]:
        doc: dict[str, Any] = self.report.as_dict()
        if self.index is not None:
            doc["index"] = self.index.as_dict()
        return doc


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


@dataclass(frozen=True, slots=True)
class JobView:
    """A job as the faces show it (``jobs --json``; ``GET /v1/jobs/{id}`` scrubs server paths from ``error``)."""

    id: str
    kind: str
    state: str
    stage: str | None
    done: int
    total: int
    report: dict[str, Any] | None
    error: str | None
    attempts: int
    created_at: str
    updated_at: str

    @classmethod
    def from_row(cls, row: JobRow) -> JobView:
        return cls(id=row.id, kind=row.kind, state=row.state, stage=row.stage, done=row.done or 0,
                   total=row.total or 0, report=row.report, error=row.error, attempts=row.attempts or 0,
                   created_at=_iso(row.created_at) or "", updated_at=_iso(row.updated_at) or "")

    @property
    def finished(self) -> bool:
        return JobState(self.state).finished

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "state": self.state, "stage": self.stage,
                "progress": {"done": self.done, "total": self.total}, "report": self.report, "error": self.error,
                "attempts": self.attempts, "created_at": self.created_at, "updated_at": self.updated_at}


@dataclass(frozen=True, slots=True)
class IndexStatus:
    """The published retrieval index: where, which version, how big, with which embedding model."""

    root: str
    version: int
    chunks: int
    headings: int
    model_id: str
    vectors: str

    def as_dict(self) -> dict[str, Any]:
        return {"root": self.root, "version": self.version, "chunks": self.chunks, "headings": self.headings,
                "model_id": self.model_id, "vectors": self.vectors}


@dataclass(frozen=True, slots=True)
class AskedBuilt:
    """``eval build-asked``: how many questions, naming how many provisions, from which sets, written where."""

    questions: int
    provisions: int
    sets: list[str]
    path: str
    near_copies_left_out: int = 0
    """Questions left out as near copies of questions that measure (``asked.NEAR_COPY``)."""


@dataclass(frozen=True, slots=True)
class VectorsExported:
    """``index export-vectors``: how many vectors were written where, how many embedded and kept."""

    written: int
    chunks: int
    embedded: int
    kept: int
    target: str
    situations: int = 0
    """Lay situations (``retrieval/lay.py``) among the texts."""


@dataclass(frozen=True, slots=True)
class GraphServerState:
    """The embedded FalkorDB server: running or not, whether this call changed that, and its socket."""

    running: bool
    changed: bool
    socket_path: str
