"""``Records``: the engine, the migrations and one repository per table.

Constructing :class:`Records` does no I/O; :meth:`Records.open` connects, applies the Alembic
migrations (under a lock, so an API server and a worker starting together do not race) and checks
the database answers. Database faults become :class:`RecordsUnavailableError` (retryable);
caller mistakes become :class:`InvalidRecordError` naming the field; nothing half-written is kept
(each repository call is one transaction).
"""

from __future__ import annotations

import builtins
import contextlib
import hashlib
import re
import secrets
from collections.abc import Callable, Iterator
from datetime import date, datetime, time
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from sqlalchemy import CursorResult, Engine, create_engine, event, select, text
from sqlalchemy import update as sql_update
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from graph_schema.errors import (
    IdempotencyConflictError,
    InvalidRecordError,
    NameTakenError,
    RecordNotFoundError,
    RecordsUnavailableError,
)
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
    utcnow,
)
from legal_rag.roles import DEFAULT_TEAM, Viewer

if TYPE_CHECKING:
    from legal_rag.settings import Settings

__all__ = [
    "Claim",
    "Records",
    "database_url",
    "open_records",
]

MIGRATIONS = Path(__file__).parent / "migrations"
_T = TypeVar("_T")

def database_url(settings: Settings) -> str:
    """``LEGAL_RAG_DATABASE_URL`` when set (``postgresql://`` gets the psycopg 3 driver), else a SQLite file
    under the state dir."""
    url = settings.database_url
    if not url:
        return f"sqlite:///{settings.state_dir / 'records.sqlite3'}"
    for plain in ("postgresql://", "postgres://"):
        if url.startswith(plain):
            return "postgresql+psycopg://" + url[len(plain):]
    return url


def open_records(settings: Settings) -> Records:
    """The records store the settings name, migrated and ready."""
    return Records(database_url(settings)).open()


class Records:
    """The four repositories over one engine."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._engine: Engine | None = None
        self._sessions: sessionmaker[Session] | None = None

    @property
    def dialect(self) -> str:
        return self.url.split(":", 1)[0].split("+", 1)[0]

    def open(self) -> Records:
        """Connect, migrate to the newest schema, and check the database answers."""
        if self._engine is not None:
            return self
        try:
            engine = self._make_engine()
            self._migrate(engine)
        except OperationalError as exc:
            raise RecordsUnavailableError(f"records database unavailable ({self._safe_url()}): {exc.orig}") from exc
        self._engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self.answers = AnswerRepo(self._run)
        self.flags = FlagRepo(self._run)
        self.jobs = JobRepo(self._run)
        self.keys = KeyRepo(self._run)
        return self

    def close(self) -> None:
        if self._engine is not None:
            self._engine.dispose()
        self._engine = self._sessions = None

    def __enter__(self) -> Records:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _safe_url(self) -> str:
        return re.sub(r"//([^:/@]+):[^@]*@", r"//\1:***@", self.url)

    def _make_engine(self) -> Engine:
        if self.dialect == "sqlite":
            path = self.url.split("///", 1)[1] if "///" in self.url else ""
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(self.url, connect_args={"timeout": 30, "check_same_thread": False})
            event.listen(engine, "connect", _sqlite_pragmas)
            return engine
        return create_engine(self.url, pool_pre_ping=True, pool_size=10, max_overflow=20)

    def _migrate(self, engine: Engine) -> None:
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with engine.begin() as conn, _migration_lock(self, conn):
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    def _run(self, work: Callable[[Session], _T]) -> _T:
        """Run ``work`` in one transaction: committed whole or rolled back whole."""
        if self._sessions is None:
            raise RecordsUnavailableError("records are not open (call open())")
        try:
            with self._sessions.begin() as session:
                return work(session)
        except (OperationalError, DBAPIError) as exc:
            if isinstance(exc, IntegrityError):
                raise
            raise RecordsUnavailableError(f"records database unavailable: {exc.orig}") from exc


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # WAL: readers never block the writer; synchronous=NORMAL keeps every commit across a process
    # crash (kill -9), which is the durability the API promises for acknowledged answers and flags.
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()


@contextlib.contextmanager
def _migration_lock(records: Records, conn: Any) -> Iterator[None]:
    """One migrator at a time: a file lock beside a SQLite file, an advisory lock on PostgreSQL."""
    if records.dialect == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(7274172)"))
        yield
        return
    path = records.url.split("///", 1)[1] if "///" in records.url else ""
    if not path or path == ":memory:":
        yield
        return
    import fcntl

    with open(path + ".migrate-lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


Runner = Callable[[Callable[[Session], Any]], Any]

# -- keys ----------------------------------------------------------------------------------------

_KEY_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,99}$")
KEY_PREFIX = "lrk_"


def hash_key(raw: str) -> str:
    # Keys are 256-bit random tokens, so a plain SHA-256 is enough (no password stretching needed).
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


class KeyRepo:
    def __init__(self, run: Runner) -> None:
        self._run = run

    def create(self, name: str, role: Role | str, team: str = DEFAULT_TEAM) -> tuple[ApiKeyRow, str]:
        """A new key for ``name`` with ``role`` in ``team``; returns the row and the key (shown once, never stored).

        Raises:
            InvalidRecordError: a name, role or team that is not allowed.
            NameTakenError: the name is already used (also by a revoked key).
        """
        if not _KEY_NAME.match(name or ""):
            raise InvalidRecordError("name", f"key name {name!r} must be 1-100 letters, digits, '.', '_', '@' or '-'")
        try:
            role = Role(role)
        except ValueError as exc:
            raise InvalidRecordError("role", f"unknown role {role!r}; one of: {', '.join(Role)}") from exc
        if not _KEY_NAME.match(team or ""):
            raise InvalidRecordError("team", f"team name {team!r} must be 1-100 letters, digits, '.', '_', '@' or '-'")
        raw = KEY_PREFIX + secrets.token_urlsafe(32)
        row = ApiKeyRow(name=name, role=role.value, team=team, key_hash=hash_key(raw), prefix=raw[:10])

        def work(s: Session) -> ApiKeyRow:
            if s.scalar(select(ApiKeyRow.id).where(ApiKeyRow.name == name)) is not None:
                raise NameTakenError("name", f"a key named {name!r} already exists (names stay taken after revoke)")
            s.add(row)
            return row

        try:
            return self._run(work), raw
        except IntegrityError as exc:
            raise NameTakenError("name", f"a key named {name!r} already exists") from exc

    def list(self) -> list[ApiKeyRow]:
        return list(self._run(lambda s: s.scalars(select(ApiKeyRow).order_by(ApiKeyRow.created_at)).all()))

    def revoke(self, name: str) -> ApiKeyRow:
        """Revoke the key called ``name`` (revoking twice keeps the first time).

        Raises:
            RecordNotFoundError: no key has that name.
        """

        def work(s: Session) -> ApiKeyRow:
            row = s.scalar(select(ApiKeyRow).where(ApiKeyRow.name == name))
            if row is None:
                raise RecordNotFoundError(f"no API key named {name!r}")
            if row.revoked_at is None:
                row.revoked_at = utcnow()
            return row

        return self._run(work)  # type: ignore[no-any-return]

    def authenticate(self, raw: str) -> ApiKeyRow | None:
        """The live key ``raw`` names, or None (unknown or revoked)."""
        if not raw.startswith(KEY_PREFIX) or len(raw) > 200:
            return None
        digest = hash_key(raw)
        return self._run(  # type: ignore[no-any-return]
            lambda s: s.scalar(select(ApiKeyRow).where(ApiKeyRow.key_hash == digest, ApiKeyRow.revoked_at.is_(None))))


# -- answers -------------------------------------------------------------------------------------


class AnswerRepo:
    def __init__(self, run: Runner) -> None:
        self._run = run

    def add(self, document: dict[str, Any], *, key_name: str, team: str = DEFAULT_TEAM,
            index_version: int = 0) -> AnswerRow:
        """Store an answer (the JSON the API returns) with who asked, their team and which index answered it."""
        for field in ("question", "as_of", "answer"):
            if not isinstance(document.get(field), str):
                raise InvalidRecordError(field, f"an answer document needs a string {field!r}")
        confidence = document.get("confidence")
        score = confidence.get("score") if isinstance(confidence, dict) else None
        row = AnswerRow(key_name=key_name, team=team, question=document["question"], as_of=document["as_of"],
                        text=document["answer"], generator=str(document.get("generator", "")),
                        confidence=float(score) if isinstance(score, int | float) else None,
                        index_version=index_version, document=document)

        def work(s: Session) -> AnswerRow:
            s.add(row)
            return row

        return self._run(work)  # type: ignore[no-any-return]

    def get(self, answer_id: str, viewer: Viewer) -> AnswerRow | None:
        """The answer, or None when there is none or it belongs to a team ``viewer`` does not see."""
        return self._run(lambda s: _visible_answer(s, answer_id, viewer))  # type: ignore[no-any-return]

    def list(self, viewer: Viewer, limit: int = 20, before: str | None = None) -> list[AnswerRow]:
        """The answers ``viewer`` sees, newest first; ``before`` is the id of the last answer of the previous page."""
        q = select(AnswerRow).order_by(AnswerRow.id.desc()).limit(limit)
        if not viewer.sees_all:
            q = q.where(AnswerRow.team == viewer.team)
        if before:
            q = q.where(AnswerRow.id < before)
        return list(self._run(lambda s: s.scalars(q).all()))

    def count(self) -> int:
        from sqlalchemy import func

        return int(self._run(lambda s: s.scalar(select(func.count()).select_from(AnswerRow))))

    def count_other_keys(self, key_name: str) -> int:
        """Answers asked with any key but ``key_name``."""
        from sqlalchemy import func

        q = select(func.count()).select_from(AnswerRow).where(AnswerRow.key_name != key_name)
        return int(self._run(lambda s: s.scalar(q)))

    def history(self, key_name: str, *, contains: str | None = None, limit: int = 20,
                before: str | None = None) -> builtins.list[AnswerRow]:
        """The answers asked with key ``key_name``, newest first, whose question contains ``contains`` (any case)."""
        q = select(AnswerRow).where(AnswerRow.key_name == key_name).order_by(AnswerRow.id.desc()).limit(limit)
        if contains:
            escaped = contains.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            q = q.where(AnswerRow.question.ilike(f"%{escaped}%", escape="\\"))
        if before:
            q = q.where(AnswerRow.id < before)
        return list(self._run(lambda s: s.scalars(q).all()))

    def to_check(self, viewer: Viewer, *, below: float, limit: int = 50) -> builtins.list[AnswerRow]:
        """Answers of the teams ``viewer`` sees that a paralegal should read, newest first: confidence under
        ``below`` or unknown, or a pending flag."""
        pending = select(FlagRow.answer_id).where(FlagRow.status == FlagStatus.PENDING.value)
        q = (select(AnswerRow)
             .where((AnswerRow.confidence < below) | AnswerRow.confidence.is_(None) | AnswerRow.id.in_(pending))
             .order_by(AnswerRow.id.desc()).limit(limit))
        if not viewer.sees_all:
            q = q.where(AnswerRow.team == viewer.team)
        return list(self._run(lambda s: s.scalars(q).all()))


# -- flags ---------------------------------------------------------------------------------------


class FlagRepo:
    def __init__(self, run: Runner) -> None:
        self._run = run

    def add(self, *, answer_id: str, start: int, end: int, label: FlagLabel | str, viewer: Viewer,
            comment: str | None = None, correction: str | None = None,
            idempotency_key: str | None = None) -> tuple[FlagRow, bool]:
        """Store ``viewer``'s flag on ``answer_id[start:end]``; returns the flag and whether it is new.

        The flag takes the answer's team. A retry with the same ``idempotency_key`` (from the same
        key) stores nothing and returns the first flag.

        Raises:
            RecordNotFoundError: no such answer, or one of a team ``viewer`` does not see.
            InvalidRecordError: offsets outside the answer text, or an unknown label.
            IdempotencyConflictError: the idempotency key was used for a different flag.
        """
        try:
            label = FlagLabel(label)
        except ValueError as exc:
            raise InvalidRecordError("label", f"unknown label {label!r}; one of: {', '.join(FlagLabel)}") from exc
        wanted = (answer_id, start, end, label.value, comment, correction)
        key_name = viewer.name

        def existing(s: Session) -> FlagRow | None:
            if idempotency_key is None:
                return None
            row = s.scalar(select(FlagRow).where(FlagRow.key_name == key_name,
                                                 FlagRow.idempotency_key == idempotency_key))
            if row is not None and (row.answer_id, row.start, row.end, row.label, row.comment,
                                    row.correction) != wanted:
                raise IdempotencyConflictError(
                    f"Idempotency-Key {idempotency_key!r} was already used for another flag ({row.id})")
            return row

        def work(s: Session) -> tuple[FlagRow, bool]:
            first = existing(s)
            if first is not None:
                return first, False
            answer = _visible_answer(s, answer_id, viewer)
            if answer is None:
                raise RecordNotFoundError(f"no answer {answer_id!r}")
            answer_text = answer.text
            if not 0 <= start < end <= len(answer_text):
                field = "start" if not 0 <= start < len(answer_text) else "end"
                raise InvalidRecordError(field, f"span {start}..{end} is not inside the answer text "
                                                f"(0 <= start < end <= {len(answer_text)})")
            row = FlagRow(answer_id=answer_id, start=start, end=end, span_text=answer_text[start:end],
                          label=label.value, comment=comment, correction=correction, key_name=key_name,
                          team=answer.team, idempotency_key=idempotency_key)
            s.add(row)
            return row, True

        try:
            return self._run(work)  # type: ignore[no-any-return]
        except IntegrityError:
            # Two retries raced past the lookup: the unique constraint kept one; return it.
            found = self._run(existing)
            if found is None:
                raise
            return found, False

    def get(self, flag_id: str, viewer: Viewer) -> FlagRow | None:
        """The flag, or None when there is none or it belongs to a team ``viewer`` does not see."""
        return self._run(lambda s: _visible_flag(s, flag_id, viewer))  # type: ignore[no-any-return]

    def list_for_answer(self, answer_id: str, viewer: Viewer) -> list[FlagRow]:
        """The flags on one answer, oldest first (none when the answer is of a team ``viewer`` does not see)."""
        q = select(FlagRow).where(FlagRow.answer_id == answer_id).order_by(FlagRow.id)
        if not viewer.sees_all:
            q = q.where(FlagRow.team == viewer.team)
        return list(self._run(lambda s: s.scalars(q).all()))

    def export(self, viewer: Viewer, *, since: str | date | None = None, label: FlagLabel | str | None = None,
               status: FlagStatus | str | None = None) -> list[FlagRow]:
        """Every flag ``viewer`` sees created on or after ``since`` (a date), with that label and status,
        oldest first."""
        q = select(FlagRow).order_by(FlagRow.id)
        if not viewer.sees_all:
            q = q.where(FlagRow.team == viewer.team)
        if since is not None:
            day = date.fromisoformat(since) if isinstance(since, str) else since
            q = q.where(FlagRow.created_at >= datetime.combine(day, time.min, tzinfo=utcnow().tzinfo))
        if label is not None:
            q = q.where(FlagRow.label == FlagLabel(label).value)
        if status is not None:
            q = q.where(FlagRow.status == FlagStatus(status).value)
        return list(self._run(lambda s: s.scalars(q).all()))

    def review(self, flag_id: str, status: FlagStatus | str, viewer: Viewer) -> FlagRow:
        """``viewer`` marks a flag accepted or rejected (a later review replaces an earlier one).

        Raises:
            RecordNotFoundError: no such flag, or one of a team ``viewer`` does not see.
        """
        status = FlagStatus(status)
        if status is FlagStatus.PENDING:
            raise InvalidRecordError("status", "a review sets 'accepted' or 'rejected'")

        def work(s: Session) -> FlagRow:
            row = _visible_flag(s, flag_id, viewer)
            if row is None:
                raise RecordNotFoundError(f"no flag {flag_id!r}")
            row.status, row.reviewed_at, row.reviewed_by = status.value, utcnow(), viewer.name
            return row

        return self._run(work)  # type: ignore[no-any-return]

    def count(self) -> int:
        from sqlalchemy import func

        return int(self._run(lambda s: s.scalar(select(func.count()).select_from(FlagRow))))

    def by_key(self, key_name: str, limit: int = 200) -> list[FlagRow]:
        """The flags made with key ``key_name``, newest first."""
        q = select(FlagRow).where(FlagRow.key_name == key_name).order_by(FlagRow.id.desc()).limit(limit)
        return list(self._run(lambda s: s.scalars(q).all()))

    def counts(self, viewer: Viewer) -> dict[str, dict[str, int]]:
        """How many flags of the teams ``viewer`` sees carry each label, by status:
        ``{"misquote": {"pending": 2, "accepted": 1}}``."""
        from sqlalchemy import func

        q = select(FlagRow.label, FlagRow.status, func.count()).group_by(FlagRow.label, FlagRow.status)
        if not viewer.sees_all:
            q = q.where(FlagRow.team == viewer.team)
        out: dict[str, dict[str, int]] = {}
        for label, status, n in self._run(lambda s: s.execute(q).all()):
            out.setdefault(label, {})[status] = int(n)
        return out


def _visible_answer(s: Session, answer_id: str, viewer: Viewer) -> AnswerRow | None:
    row = s.get(AnswerRow, answer_id)
    return row if row is not None and viewer.may_see(row.team) else None


def _visible_flag(s: Session, flag_id: str, viewer: Viewer) -> FlagRow | None:
    row = s.get(FlagRow, flag_id)
    return row if row is not None and viewer.may_see(row.team) else None


# -- jobs ----------------------------------------------------------------------------------------


class Claim(StrEnum):
    """What :meth:`JobRepo.claim` found."""

    CLAIMED = "claimed"  # the job is this process's to run now
    FINISHED = "finished"  # already done: a second delivery of its message, nothing to do
    BUSY = "busy"  # a live worker is running it


class JobRepo:
    def __init__(self, run: Runner) -> None:
        self._run = run

    def create(self, kind: JobKind | str, *, key_name: str | None = None, params: dict[str, Any] | None = None,
               job_id: str | None = None) -> JobRow:
        row = JobRow(kind=JobKind(kind).value, key_name=key_name, params=params or {})
        if job_id:
            row.id = job_id

        def work(s: Session) -> JobRow:
            s.add(row)
            return row

        return self._run(work)  # type: ignore[no-any-return]

    def get(self, job_id: str) -> JobRow | None:
        return self._run(lambda s: s.get(JobRow, job_id))  # type: ignore[no-any-return]

    def unfinished(self) -> list[JobRow]:
        """Jobs queued or running, oldest first (what a starting server or worker looks over)."""
        states = (JobState.QUEUED.value, JobState.RUNNING.value)
        return list(self._run(lambda s: s.scalars(
            select(JobRow).where(JobRow.state.in_(states)).order_by(JobRow.id)).all()))

    def list(self, limit: int = 20) -> list[JobRow]:
        return list(self._run(lambda s: s.scalars(select(JobRow).order_by(JobRow.id.desc()).limit(limit)).all()))

    def claim(self, job_id: str, runner: str, *, kind: JobKind | str = JobKind.INGEST,
              params: dict[str, Any] | None = None, holder_alive: Callable[[JobRow], bool]) -> Claim:
        """Take the job for ``runner`` (the process about to run it), unless it is finished or a live
        worker holds it. One compare-and-set on (state, runner, attempts), so of two deliveries of a
        job's message at once only one runs it. A job enqueued elsewhere (no row yet) gets a row;
        ``params`` (the task's arguments) are kept on a row that has none, so it can be re-run.
        """
        for _ in range(5):
            row = self.get(job_id)
            if row is None:
                fresh = JobRow(id=job_id, kind=JobKind(kind).value, params=params or {}, state=JobState.RUNNING.value,
                               runner=runner, attempts=1)
                try:
                    self._run(_adder(fresh))
                    return Claim.CLAIMED
                except IntegrityError:  # created at the same moment by another process: look again
                    continue
            if JobState(row.state).finished:
                return Claim.FINISHED
            if row.state == JobState.RUNNING.value and row.runner not in (None, runner) and holder_alive(row):
                return Claim.BUSY
            held = JobRow.runner.is_(None) if row.runner is None else JobRow.runner == row.runner
            stmt = (sql_update(JobRow)
                    .where(JobRow.id == job_id, JobRow.state == row.state, JobRow.attempts == row.attempts, held)
                    .values(state=JobState.RUNNING.value, runner=runner, attempts=row.attempts + 1,
                            updated_at=utcnow(), params=row.params or params or {}))
            if self._run(_changer(stmt)) == 1:
                return Claim.CLAIMED
        return Claim.BUSY

    def heartbeat(self, job_id: str, runner: str) -> bool:
        """Mark the job as still being run by ``runner`` (its ``updated_at``). False: another took it."""
        stmt = (sql_update(JobRow).where(JobRow.id == job_id, JobRow.runner == runner,
                                         JobRow.state == JobState.RUNNING.value).values(updated_at=utcnow()))
        return bool(self._run(_changer(stmt)))

    def requeue(self, row: JobRow, note: str) -> bool:
        """Put a job whose worker is gone back to ``queued`` (unless it changed since ``row`` was read)."""
        held = JobRow.runner.is_(None) if row.runner is None else JobRow.runner == row.runner
        stmt = (sql_update(JobRow)
                .where(JobRow.id == row.id, JobRow.state == row.state, JobRow.attempts == row.attempts, held)
                .values(state=JobState.QUEUED.value, error=note, updated_at=utcnow()))
        return bool(self._run(_changer(stmt)))

    def update(self, job_id: str, *, kind: JobKind | str = JobKind.INGEST, state: JobState | None = None,
               stage: str | None = None, done: int | None = None, total: int | None = None,
               report: dict[str, Any] | None = None, error: str | None = None,
               clear_error: bool = False) -> JobRow:
        """Record a job's progress or outcome; a job enqueued elsewhere (no row yet) gets one.

        A finished job (succeeded, with or without rejects, or failed) is not moved back to running
        or queued by a late progress report.
        """

        def work(s: Session) -> JobRow:
            row = s.get(JobRow, job_id)
            if row is None:
                row = JobRow(id=job_id, kind=JobKind(kind).value, params={})
                s.add(row)
            finished = row.state is not None and JobState(row.state).finished
            late = finished and state in (None, JobState.RUNNING, JobState.QUEUED)
            if state is not None and not late:
                row.state = state.value
            if not late:
                if stage is not None:
                    row.stage = stage
                if done is not None:
                    row.done = done
                if total is not None:
                    row.total = total
                if report is not None:
                    row.report = report
                if error is not None or clear_error:
                    row.error = error
            row.updated_at = utcnow()
            return row

        try:
            return self._run(work)  # type: ignore[no-any-return]
        except IntegrityError:  # created concurrently by another process: update that row
            return self._run(work)  # type: ignore[no-any-return]

    def fail(self, job_id: str, error: str) -> JobRow:
        return self.update(job_id, state=JobState.FAILED, error=error)


def _adder(row: JobRow) -> Callable[[Session], None]:
    def work(s: Session) -> None:
        s.add(row)

    return work


def _changer(stmt: Any) -> Callable[[Session], int]:
    """One UPDATE as a unit of work; its result is how many rows it changed."""

    def work(s: Session) -> int:
        return int(cast(CursorResult[Any], s.execute(stmt)).rowcount)

    return work
