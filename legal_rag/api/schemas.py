"""Request and response bodies of the HTTP API (the OpenAPI schema is generated from these)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from legal_rag.app import check_day
from legal_rag.results import AskResult, FlagLabel, FlagStatus, JobKind, JobState
from legal_rag.roles import DEFAULT_TEAM, Role

IsoDate = Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$", examples=["2025-03-01"]),
                    AfterValidator(lambda value: check_day(value, "the date"))]
"""A day as YYYY-MM-DD, checked by the one validator every face uses (``check_day``)."""


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be blank")
    return value


class AskRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: Annotated[str, Field(min_length=1, max_length=2000), AfterValidator(_not_blank)]
    as_of: IsoDate | None = Field(default=None, description="Date of the facts (default today).")


class ContextChunk(BaseModel):
    id: Annotated[str, Field(min_length=1, max_length=200)]
    text: Annotated[str, Field(max_length=100_000)]


class VerifyRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: Annotated[str, Field(max_length=100_000)]
    as_of: IsoDate | None = None
    offence_on: IsoDate | None = Field(
        default=None, description="The day of an offence committed before 2024-07-01 in a matter on or after it: "
        "the penal codes are checked on that day (the IPC governs it, BNS s.358), the rest on as_of.")
    context: Annotated[list[ContextChunk], Field(max_length=200)] | None = None


class FlagRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    start: Annotated[int, Field(ge=0, le=10_000_000)]
    end: Annotated[int, Field(ge=1, le=10_000_000)]
    label: FlagLabel
    comment: Annotated[str, Field(max_length=5000)] | None = None
    correction: Annotated[str, Field(max_length=100_000)] | None = None

    @field_validator("end")
    @classmethod
    def _after_start(cls, end: int, info: ValidationInfo) -> int:
        start = info.data.get("start")
        if isinstance(start, int) and end <= start:
            raise ValueError(f"end ({end}) must be greater than start ({start})")
        return end


class FlagReview(BaseModel):
    model_config = ConfigDict(extra="forbid")

    status: Literal["accepted", "rejected"]


class Created(BaseModel):
    id: str


class FinetuneRequest(BaseModel):
    """A Finetune-RAG dataset build; files go to ``<state dir>/finetune/<job id>`` (see the job's report)."""

    model_config = ConfigDict(extra="forbid")

    n: Annotated[int, Field(ge=5, le=100_000)] = 1000
    seed: Annotated[int, Field(ge=0, le=2**31 - 1)] = 7
    eval_fraction: Annotated[float, Field(ge=0.0, lt=1.0)] = 0.1


class JobAccepted(BaseModel):
    job_id: str


class FlagOut(BaseModel):
    id: str
    answer_id: str
    start: int
    end: int
    span_text: str
    label: FlagLabel
    comment: str | None = None
    correction: str | None = None
    status: FlagStatus
    key_name: str
    created_at: str
    reviewed_at: str | None = None
    reviewed_by: str | None = None


class JobProgress(BaseModel):
    done: int = 0
    total: int = 0


class ProblemOut(BaseModel):
    """One problem of a rejected record: what, which field, and where on the line."""

    reason: str
    field: str | None = None
    column: int | None = None


class RejectOut(BaseModel):
    """A rejected record: its file (the uploaded file's name), line and column (of its first problem),
    every problem found on it (``reason`` joins them), and its Act when known."""

    line: int
    reason: str
    column: int | None = None
    file: str | None = None
    act: str | None = None
    problems: list[ProblemOut] = Field(default_factory=list)


class JobReport(BaseModel):
    """An ingest job's outcome (a finetune job's report is its build report: files, counts, card)."""

    model_config = ConfigDict(extra="allow")

    added: int
    updated: int
    unchanged: int
    rejected: int
    rejects: list[RejectOut] = Field(default_factory=list)


class JobOut(BaseModel):
    """A job. ``state``: queued, running, succeeded, succeeded_with_rejects (loaded, some records
    refused: see ``report.rejects``) or failed (``error`` says why; a job whose every record was
    rejected is failed, with its report). ``attempts``: how many times a worker took it (more than
    one after a worker died and the job was re-run)."""

    id: str
    kind: JobKind
    state: JobState
    stage: str | None = None
    progress: JobProgress
    report: JobReport | dict[str, Any] | None = None
    error: str | None = None
    attempts: int = 0
    created_at: str
    updated_at: str


class KeyRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,99}$")]
    role: Role
    team: Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,99}$",
                               description="Whose answers and flags the key sees")] = DEFAULT_TEAM


class KeyOut(BaseModel):
    name: str
    role: Role
    team: str = DEFAULT_TEAM
    prefix: str
    created_at: str
    revoked_at: str | None = None


class KeyCreated(KeyOut):
    key: str
    """Shown once; only its hash is stored."""


class StoredAnswer(AskResult):
    """The workflow's answer (what ``ask --json`` prints) with its provenance as stored."""

    id: str
    created_at: str
    key_name: str
    index_version: int


class AnswerPage(BaseModel):
    answers: list[StoredAnswer]
    next_before: str | None = None
    """Pass as ``before`` for the next (older) page; null on the last page."""


class Problem(BaseModel):
    """Every error: what went wrong, in words, and for bad input the fields at fault."""

    detail: str | list[dict[str, Any]]
    suggestions: list[str] | None = None
