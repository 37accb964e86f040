"""Records as the API shows them: stored answers, flags, keys and jobs turned into response bodies."""

from __future__ import annotations

import re
from typing import Any

from legal_rag.api import schemas as s
from legal_rag.results import AnswerRow, ApiKeyRow, FlagLabel, FlagRow, FlagStatus, JobView
from legal_rag.roles import Role

__all__ = ["answer_doc", "flag_out", "iso", "job_out", "key_out"]


def iso(value: Any) -> str:
    return value.isoformat() if hasattr(value, "isoformat") else str(value)


def answer_doc(row: AnswerRow) -> s.StoredAnswer:
    """The stored answer as the API shows it: the workflow's answer plus its provenance."""
    return s.StoredAnswer.model_validate({**row.document, "id": row.id, "created_at": iso(row.created_at),
                                          "key_name": row.key_name, "index_version": row.index_version})


def flag_out(f: FlagRow) -> s.FlagOut:
    return s.FlagOut(id=f.id, answer_id=f.answer_id, start=f.start, end=f.end, span_text=f.span_text,
                     label=FlagLabel(f.label), comment=f.comment, correction=f.correction,
                     status=FlagStatus(f.status), key_name=f.key_name, created_at=iso(f.created_at),
                     reviewed_at=iso(f.reviewed_at) if f.reviewed_at else None, reviewed_by=f.reviewed_by)


def key_out(row: ApiKeyRow) -> s.KeyOut:
    return s.KeyOut(name=row.name, role=Role(row.role), team=row.team, prefix=row.prefix,
                    created_at=iso(row.created_at), revoked_at=iso(row.revoked_at) if row.revoked_at else None)


_UPLOAD_DIR = re.compile(r"\S*/uploads/[0-9a-f]{32}/")
"""Where the server keeps an upload: shown to clients as the file's own name, never as a server path."""


def job_out(job: JobView) -> s.JobOut:
    doc = job.as_dict()
    doc["error"] = _UPLOAD_DIR.sub("", job.error) if job.error else job.error
    return s.JobOut.model_validate(doc)
