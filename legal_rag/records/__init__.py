"""Durable records: answers with their provenance, paralegals' flags, jobs and API keys.

SQLAlchemy 2 over a SQLite file under the state dir (WAL; the embedded default) or PostgreSQL
(``LEGAL_RAG_DATABASE_URL``); the schema is owned by Alembic migrations, applied by
:func:`open_records`. Faces and workers call the repositories on :class:`Records`; nothing else
touches the tables.
"""

from graph_schema.errors import IdempotencyConflictError, NameTakenError, RecordsUnavailableError
from legal_rag.records.model import (
    AnswerRow,
    ApiKeyRow,
    FlagLabel,
    FlagRow,
    FlagStatus,
    JobKind,
    JobRow,
    JobState,
    Role,
)
from legal_rag.records.store import (
    Claim,
    Records,
    database_url,
    open_records,
)
from legal_rag.roles import DEFAULT_TEAM, SYSTEM, Viewer

__all__ = [
    "DEFAULT_TEAM",
    "SYSTEM",
    "Claim",
    "AnswerRow",
    "ApiKeyRow",
    "FlagLabel",
    "FlagRow",
    "FlagStatus",
    "IdempotencyConflictError",
    "JobKind",
    "JobRow",
    "JobState",
    "NameTakenError",
    "Records",
    "RecordsUnavailableError",
    "Role",
    "Viewer",
    "database_url",
    "open_records",
]
