"""The tables (SQLAlchemy 2 declarative) and the enums they store.

Timestamps are UTC; ids are time-ordered (a UUIDv7 layout) so that "newest first" and the
``before=`` cursor of the answer list are an index scan on the primary key.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, DateTime, Float, ForeignKey, Index, Integer, String, Text, TypeDecorator, UniqueConstraint
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from legal_rag.roles import DEFAULT_TEAM
from legal_rag.roles import Role as Role  # re-exported: the records store keys by role


class FlagLabel(StrEnum):
    """What a paralegal says is wrong with a span of an answer (the training-data vocabulary)."""

    FABRICATED_CITATION = "fabricated_citation"
    WRONG_PROVISION = "wrong_provision"
    OUTDATED_LAW = "outdated_law"
    MISQUOTE = "misquote"
    UNSUPPORTED_CLAIM = "unsupported_claim"
    CONTRADICTS_SOURCE = "contradicts_source"
    INCOMPLETE = "incomplete"
    OTHER = "other"


class FlagStatus(StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"


class JobKind(StrEnum):
    INGEST = "ingest"
    FINETUNE = "finetune"


class JobState(StrEnum):
    """A job's life: queued -> running -> one of the three finished states.

    ``succeeded_with_rejects``: the job loaded what it could and refused some records (listed in
    its report); ``failed``: nothing was done (an error, or every record was rejected).
    """

    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    SUCCEEDED_WITH_REJECTS = "succeeded_with_rejects"
    FAILED = "failed"

    @property
    def finished(self) -> bool:
        return self in (JobState.SUCCEEDED, JobState.SUCCEEDED_WITH_REJECTS, JobState.FAILED)


_id_lock = threading.Lock()
_id_last = [0, 0]  # milliseconds, counter of the last id made in this process


def new_id() -> str:
    """A UUIDv7 (RFC 9562): 48 bits of milliseconds, a 12-bit counter, 62 random bits.

    Ids made by one process sort in the order they were made, also within one millisecond (the
    counter starts at a random value below 2048 each millisecond and counts up).
    """
    with _id_lock:
        ms = time.time_ns() // 1_000_000
        if ms <= _id_last[0]:
            ms, seq = _id_last[0], _id_last[1] + 1
            if seq > 0xFFF:
                ms, seq = ms + 1, 0
        else:
            seq = int.from_bytes(os.urandom(2), "big") & 0x7FF
        _id_last[0], _id_last[1] = ms, seq
    rand = int.from_bytes(os.urandom(8), "big") & ((1 << 62) - 1)
    value = (ms & ((1 << 48) - 1)) << 80 | 0x7 << 76 | seq << 64 | 0x2 << 62 | rand
    return str(uuid.UUID(int=value))


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes in, aware UTC datetimes out, on SQLite (no time zones) as on PostgreSQL."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, datetime: UTCDateTime}


class ApiKeyRow(Base):
    __tablename__ = "api_keys"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    role: Mapped[str] = mapped_column(String(20))
    team: Mapped[str] = mapped_column(String(100), default=DEFAULT_TEAM, server_default=DEFAULT_TEAM)
    """The team whose answers and flags the key sees (an admin's key sees every team's)."""
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    """SHA-256 of the key; the key itself is shown once and never stored."""
    prefix: Mapped[str] = mapped_column(String(16))
    """The key's first characters, to tell keys apart in ``keys list``."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(default=None)


class AnswerRow(Base):
    __tablename__ = "answers"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    key_name: Mapped[str] = mapped_column(String(100))
    team: Mapped[str] = mapped_column(String(100), default=DEFAULT_TEAM, server_default=DEFAULT_TEAM, index=True)
    """The asking key's team: only that team (and admins) can read the answer and its flags."""
    question: Mapped[str] = mapped_column(Text)
    as_of: Mapped[str] = mapped_column(String(10))
    text: Mapped[str] = mapped_column(Text)
    """The verified answer text, exactly as sent; flag offsets index into it."""
    generator: Mapped[str] = mapped_column(String(40))
    confidence: Mapped[float | None] = mapped_column(Float, default=None)
    index_version: Mapped[int] = mapped_column(Integer, default=0)
    document: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The whole answer as the API returned it: citations and statuses, claims with verdicts and
    evidence chunk ids, confidence factors, timings."""


class FlagRow(Base):
    __tablename__ = "flags"
    __table_args__ = (
        UniqueConstraint("key_name", "idempotency_key", name="uq_flags_idempotency"),
        Index("ix_flags_created_at", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    answer_id: Mapped[str] = mapped_column(ForeignKey("answers.id", ondelete="CASCADE"), index=True)
    start: Mapped[int] = mapped_column(Integer)
    end: Mapped[int] = mapped_column(Integer)
    span_text: Mapped[str] = mapped_column(Text)
    label: Mapped[str] = mapped_column(String(40))
    comment: Mapped[str | None] = mapped_column(Text, default=None)
    correction: Mapped[str | None] = mapped_column(Text, default=None)
    status: Mapped[str] = mapped_column(String(20), default=FlagStatus.PENDING.value)
    key_name: Mapped[str] = mapped_column(String(100))
    team: Mapped[str] = mapped_column(String(100), default=DEFAULT_TEAM, server_default=DEFAULT_TEAM, index=True)
    """The flagged answer's team (a flag is as private as the answer it is on)."""
    idempotency_key: Mapped[str | None] = mapped_column(String(200), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    reviewed_at: Mapped[datetime | None] = mapped_column(default=None)
    reviewed_by: Mapped[str | None] = mapped_column(String(100), default=None)


class JobRow(Base):
    __tablename__ = "jobs"

    id: Mapped[str] = mapped_column(String(64), primary_key=True, default=new_id)
    kind: Mapped[str] = mapped_column(String(20))
    state: Mapped[str] = mapped_column(String(32), default=JobState.QUEUED.value)
    stage: Mapped[str | None] = mapped_column(String(40), default=None)
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int] = mapped_column(Integer, default=0)
    params: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    report: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    error: Mapped[str | None] = mapped_column(Text, default=None)
    key_name: Mapped[str | None] = mapped_column(String(100), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    """Also the running worker's heartbeat (``JobRepo.heartbeat``)."""
    runner: Mapped[str | None] = mapped_column(String(200), default=None)
    """The process running (or that last ran) the job: ``host:pid:start-ticks`` (``legal_rag.recovery``)."""
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    """How many times a worker has taken the job (a worker that died and a re-run make two)."""
