"""One contract suite for the records store, run on every backend: SQLite (always) and PostgreSQL
(the server at ``LEGAL_RAG_TEST_POSTGRES``, default 127.0.0.1:5432; each run makes and drops its
own database, and the PostgreSQL cases skip with the reason only where no server answers)."""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from graph_schema.errors import (
    IdempotencyConflictError,
    InvalidRecordError,
    NameTakenError,
    RecordNotFoundError,
    RecordsUnavailableError,
)
from legal_rag.records import SYSTEM, FlagLabel, JobRow, JobState, Records, Role, Viewer

PAT = Viewer("pat", Role.PARALEGAL)
ROOT = Viewer("root", Role.ADMIN)
PG_ADMIN = os.environ.get("LEGAL_RAG_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")


def _postgres_database() -> Iterator[str]:
    admin = create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as exc:  # noqa: BLE001 - any failure to connect means: no server here
        admin.dispose()
        pytest.skip(f"no PostgreSQL server answers at {PG_ADMIN}: {type(exc).__name__}")
    name = f"legal_rag_t_{uuid.uuid4().hex[:10]}"
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield PG_ADMIN.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def records_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('records') / 'records.sqlite3'}"
    else:
        yield from _postgres_database()


@pytest.fixture
def records(records_url: str) -> Iterator[Records]:
    with Records(records_url) as r:
        yield r


def _answer(records: Records, text_: str = "BNS s.103(1) punishes murder with death or imprisonment for life.",
            key: str = "alice") -> str:
    doc = {"question": "What is the punishment for murder?", "as_of": "2025-01-01", "answer": text_,
           "generator": "extractive", "confidence": {"score": 0.8, "label": "High"},
           "citations": [{"text": "BNS s.103(1)", "status": "verified"}]}
    return records.answers.add(doc, key_name=key, index_version=3).id


# -- keys ------------------------------------------------------------------------------------------


def test_keys_are_stored_as_hashes_and_authenticate_until_revoked(records: Records, records_url: str) -> None:
    name = f"k-{uuid.uuid4().hex[:8]}"
    row, raw = records.keys.create(name, Role.PARALEGAL)
    assert raw.startswith("lrk_") and len(raw) > 40 and row.role == "paralegal"
    engine = create_engine(records_url)
    with engine.connect() as conn:
        stored = conn.execute(text("SELECT key_hash, prefix FROM api_keys WHERE name = :n"), {"n": name}).one()
    engine.dispose()
    assert raw not in stored.key_hash and stored.key_hash != raw and raw.startswith(stored.prefix)
    found = records.keys.authenticate(raw)
    assert found is not None and found.name == name
    assert records.keys.authenticate(raw + "x") is None
    assert records.keys.authenticate("not-a-key") is None
    revoked = records.keys.revoke(name)
    assert revoked.revoked_at is not None
    assert records.keys.authenticate(raw) is None
    assert records.keys.revoke(name).revoked_at == revoked.revoked_at  # revoking twice keeps the first time
    assert name in [k.name for k in records.keys.list()]


def test_key_names_and_roles_are_checked(records: Records) -> None:
    name = f"k-{uuid.uuid4().hex[:8]}"
    records.keys.create(name, "lawyer")
    with pytest.raises(NameTakenError):
        records.keys.create(name, "admin")
    with pytest.raises(InvalidRecordError) as bad_role:
        records.keys.create(f"{name}x", "judge")
    assert bad_role.value.field == "role"
    with pytest.raises(InvalidRecordError) as bad_name:
        records.keys.create("has space", "lawyer")
    assert bad_name.value.field == "name"
    with pytest.raises(RecordNotFoundError):
        records.keys.revoke("nobody-" + uuid.uuid4().hex)


# -- answers ---------------------------------------------------------------------------------------


def test_answers_keep_their_provenance_and_page_newest_first(records: Records) -> None:
    ids = [_answer(records, f"answer {i}") for i in range(5)]
    row = records.answers.get(ids[0], SYSTEM)
    assert row is not None and row.text == "answer 0" and row.key_name == "alice" and row.index_version == 3
    assert row.document["citations"][0]["status"] == "verified" and row.confidence == 0.8
    assert row.created_at.tzinfo is not None and abs(row.created_at - datetime.now(UTC)) < timedelta(minutes=5)
    first = records.answers.list(SYSTEM, limit=2)
    assert [a.id for a in first] == ids[::-1][:2]
    second = records.answers.list(SYSTEM, limit=2, before=first[-1].id)
    assert [a.id for a in second] == ids[::-1][2:4]
    assert records.answers.get("no-such-answer", SYSTEM) is None
    with pytest.raises(InvalidRecordError) as bad:
        records.answers.add({"question": "q", "as_of": "2025-01-01"}, key_name="alice")
    assert bad.value.field == "answer"


def test_answers_of_other_keys_are_counted(records: Records) -> None:
    by_others, not_bob = records.answers.count_other_keys("alice"), records.answers.count_other_keys("bob")
    _answer(records, "one more of alice's")
    assert records.answers.count_other_keys("alice") == by_others
    assert records.answers.count_other_keys("bob") == not_bob + 1


# -- flags -----------------------------------------------------------------------------------------


def test_a_flag_stores_its_span_and_a_retry_stores_nothing_new(records: Records) -> None:
    answer = _answer(records)
    flag, created = records.flags.add(answer_id=answer, start=0, end=12, label=FlagLabel.WRONG_PROVISION,
                                      viewer=PAT, comment="should be 101", idempotency_key="try-1")
    assert created and flag.span_text == "BNS s.103(1)" and flag.status == "pending"
    again, created_again = records.flags.add(answer_id=answer, start=0, end=12, label="wrong_provision",
                                             viewer=PAT, comment="should be 101", idempotency_key="try-1")
    assert not created_again and again.id == flag.id
    assert [f.id for f in records.flags.list_for_answer(answer, SYSTEM)] == [flag.id]
    with pytest.raises(IdempotencyConflictError):
        records.flags.add(answer_id=answer, start=0, end=3, label="misquote", viewer=PAT, idempotency_key="try-1")
    # the same idempotency key from another API key is another request
    other, created_other = records.flags.add(answer_id=answer, start=0, end=12, label="wrong_provision",
                                             viewer=Viewer("sam", Role.PARALEGAL), comment="should be 101",
                                             idempotency_key="try-1")
    assert created_other and other.id != flag.id


@pytest.mark.parametrize(("start", "end", "field"), [(-1, 3, "start"), (5, 5, "end"), (0, 10_000, "end"),
                                                     (10_000, 10_001, "start")])
def test_flag_offsets_outside_the_answer_are_refused(records: Records, start: int, end: int, field: str) -> None:
    answer = _answer(records)
    with pytest.raises(InvalidRecordError) as bad:
        records.flags.add(answer_id=answer, start=start, end=end, label="other", viewer=PAT)
    assert bad.value.field == field
    assert records.flags.list_for_answer(answer, SYSTEM) == []


def test_flags_on_missing_answers_and_unknown_labels_are_refused(records: Records) -> None:
    with pytest.raises(RecordNotFoundError):
        records.flags.add(answer_id="nope", start=0, end=1, label="other", viewer=PAT)
    answer = _answer(records)
    with pytest.raises(InvalidRecordError) as bad:
        records.flags.add(answer_id=answer, start=0, end=1, label="typo", viewer=PAT)
    assert bad.value.field == "label"


def test_flags_export_by_date_label_and_status_and_review(records: Records) -> None:
    answer = _answer(records)
    a, _ = records.flags.add(answer_id=answer, start=0, end=3, label="misquote", viewer=PAT)
    b, _ = records.flags.add(answer_id=answer, start=4, end=12, label="outdated_law", viewer=PAT,
                             correction="BNS s.101")
    today = datetime.now(UTC).date()
    ids = [f.id for f in records.flags.export(SYSTEM, since=today.isoformat())]
    assert a.id in ids and b.id in ids and ids.index(a.id) < ids.index(b.id)
    assert records.flags.export(SYSTEM, since=(today + timedelta(days=2)).isoformat()) == []
    assert b.id not in [f.id for f in records.flags.export(SYSTEM, label="misquote")]
    reviewed = records.flags.review(b.id, "accepted", ROOT)
    assert reviewed.status == "accepted" and reviewed.reviewed_by == "root" and reviewed.reviewed_at is not None
    accepted = [f.id for f in records.flags.export(SYSTEM, status="accepted")]
    assert b.id in accepted and a.id not in accepted
    with pytest.raises(RecordNotFoundError):
        records.flags.review("nope", "rejected", ROOT)
    with pytest.raises(InvalidRecordError):
        records.flags.review(a.id, "pending", ROOT)


def test_concurrent_retries_with_one_idempotency_key_store_one_flag(records: Records) -> None:
    answer = _answer(records)
    results: list[str] = []
    errors: list[BaseException] = []

    def post() -> None:
        try:
            flag, _ = records.flags.add(answer_id=answer, start=0, end=3, label="misquote", viewer=PAT,
                                        idempotency_key="race")
            results.append(flag.id)
        except BaseException as exc:  # noqa: BLE001 - collected and asserted on below
            errors.append(exc)

    threads = [threading.Thread(target=post) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(set(results)) == 1 and len(records.flags.list_for_answer(answer, SYSTEM)) == 1


# -- jobs ------------------------------------------------------------------------------------------


def test_jobs_move_through_their_states_and_never_back(records: Records) -> None:
    job = records.jobs.create("ingest", key_name="dee", params={"bytes": 10})
    assert job.state == "queued" and records.jobs.get(job.id) is not None
    records.jobs.update(job.id, state=JobState.RUNNING, stage="write", done=1, total=4)
    row = records.jobs.get(job.id)
    assert row is not None and (row.state, row.stage, row.done, row.total) == ("running", "write", 1, 4)
    records.jobs.update(job.id, state=JobState.SUCCEEDED, done=4, total=4, report={"added": 2, "rejects": []})
    records.jobs.update(job.id, state=JobState.RUNNING, stage="late", done=2, total=4)  # a stale progress report
    row = records.jobs.get(job.id)
    assert row is not None and row.state == "succeeded" and row.done == 4 and row.report == {"added": 2, "rejects": []}
    # a job enqueued elsewhere gets its row on its first report
    other = records.jobs.update(f"celery-{uuid.uuid4().hex}", state=JobState.RUNNING, stage="write", done=0, total=1)
    assert other.kind == "ingest" and other.state == "running"
    failed = records.jobs.fail(other.id, "IngestError: no such file")
    assert failed.state == "failed" and failed.error == "IngestError: no such file"


def test_a_job_is_claimed_once_and_a_finished_job_never_again(records: Records) -> None:
    from legal_rag.records import Claim

    job = records.jobs.create("ingest", params={"paths": ["/u/kra.jsonl"], "strict": False})
    alive = {"w1:10:5": True, "w2:20:6": True}

    def holder_alive(row: JobRow) -> bool:
        return alive[row.runner or ""]

    assert records.jobs.claim(job.id, "w1:10:5", holder_alive=holder_alive) is Claim.CLAIMED
    # a second delivery while the first worker lives: not run twice
    assert records.jobs.claim(job.id, "w2:20:6", holder_alive=holder_alive) is Claim.BUSY
    assert records.jobs.heartbeat(job.id, "w1:10:5") and not records.jobs.heartbeat(job.id, "w2:20:6")
    alive["w1:10:5"] = False  # the first worker died: the next delivery takes the job over
    assert records.jobs.claim(job.id, "w2:20:6", holder_alive=holder_alive) is Claim.CLAIMED
    row = records.jobs.get(job.id)
    assert row is not None and (row.state, row.runner, row.attempts) == ("running", "w2:20:6", 2)
    assert row.params == {"paths": ["/u/kra.jsonl"], "strict": False}
    for state in (JobState.SUCCEEDED, JobState.SUCCEEDED_WITH_REJECTS, JobState.FAILED):
        records.jobs.update(job.id, state=state)
        assert records.jobs.claim(job.id, "w3:30:7", holder_alive=holder_alive) is Claim.FINISHED
        records.jobs.update(job.id, state=JobState.RUNNING)  # a late report does not reopen it
        assert records.jobs.get(job.id).state == state.value  # type: ignore[union-attr]
        with records._sessions.begin() as session:  # type: ignore[union-attr]  # reopen for the next state
            session.get(JobRow, job.id).state = "running"  # type: ignore[union-attr]
    # a job enqueued elsewhere (no row): the claim makes the row, keeping the task's arguments to re-run it
    made = f"celery-{uuid.uuid4().hex}"
    assert records.jobs.claim(made, "w1:10:5", params={"paths": ["/x.jsonl"], "strict": True},
                              holder_alive=holder_alive) is Claim.CLAIMED
    row = records.jobs.get(made)
    assert row is not None and row.params == {"paths": ["/x.jsonl"], "strict": True} and row.attempts == 1


def _dead_pid() -> int:
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_recovery_requeues_orphans_fails_repeat_deaths_and_leaves_live_jobs(records: Records) -> None:
    import socket

    from legal_rag.records.model import utcnow
    from legal_rag.recovery import recover_jobs, this_runner
    from legal_rag.settings import JobSettings

    here = socket.gethostname()
    dead = f"{here}:{_dead_pid()}:1"
    ingest = {"paths": ["/state/uploads/ab/kra.jsonl"], "strict": False}
    finetune = {"out": "/state/finetune/x", "n": 10, "seed": 3, "eval_fraction": 0.1}
    # (state, runner, attempts, heartbeat age in seconds, kind, params) -> expected outcome
    table = [
        ("running", dead, 1, 0, "ingest", ingest, "requeued"),  # worker on this machine died
        ("running", this_runner(), 1, 0, "ingest", ingest, "left"),  # this process: alive
        ("running", dead, 3, 0, "ingest", ingest, "failed"),  # died max_attempts times
        ("running", "elsewhere:1:1", 1, 600, "ingest", ingest, "requeued"),  # other machine, no heartbeat
        ("running", "elsewhere:1:1", 1, 5, "ingest", ingest, "left"),  # other machine, beating
        ("queued", None, 0, 0, "ingest", ingest, "requeued"),  # its message may be lost
        ("running", dead, 1, 0, "finetune", finetune, "requeued"),
        ("running", dead, 1, 0, "ingest", {}, "failed"),  # no arguments to re-run it with
        ("succeeded", dead, 1, 0, "ingest", ingest, "left"),
    ]
    ids = []
    for state, runner, attempts, age, kind, params, _ in table:
        job = records.jobs.create(kind, params=params)
        with records._sessions.begin() as session:  # type: ignore[union-attr]
            row = session.get(JobRow, job.id)
            assert row is not None
            row.state, row.runner, row.attempts, row.stage = state, runner, attempts, "write"
            row.updated_at = utcnow() - timedelta(seconds=age)
        ids.append(job.id)
    sent: list[tuple[str, list[object], str]] = []
    done = recover_jobs(records, lambda task, args, job_id: sent.append((task, args, job_id)),
                        JobSettings(max_attempts=3, stale_after_s=60))
    expected = {i: outcome for i, (*_, outcome) in zip(ids, table, strict=True)}
    assert set(done.requeued) == {i for i, o in expected.items() if o == "requeued"}
    assert set(done.failed) == {i for i, o in expected.items() if o == "failed"}
    assert [s[2] for s in sent] == done.requeued
    assert sent[0][:2] == ("legal_rag.ingest", [["/state/uploads/ab/kra.jsonl"], False])
    assert ("finetune.build", ["/state/finetune/x", 10, 3, 0.1], ids[6]) in sent
    rows = {i: records.jobs.get(i) for i in ids}
    assert rows[ids[0]].state == "queued" and "died at stage write" in rows[ids[0]].error  # type: ignore[union-attr,operator]
    assert rows[ids[1]].state == "running" and rows[ids[4]].state == "running"  # type: ignore[union-attr]
    assert rows[ids[2]].state == "failed" and "died 3 times" in rows[ids[2]].error  # type: ignore[union-attr,operator]
    assert rows[ids[8]].state == "succeeded"  # type: ignore[union-attr]


# -- durability and failure --------------------------------------------------------------------------


def test_what_was_committed_survives_reopening(records_url: str) -> None:
    with Records(records_url) as first:
        answer = _answer(first)
        flag, _ = first.flags.add(answer_id=answer, start=0, end=3, label="misquote", viewer=PAT)
    with Records(records_url) as second:  # migrations are re-run: a no-op on an up-to-date schema
        assert second.answers.get(answer, SYSTEM) is not None
        assert [f.id for f in second.flags.list_for_answer(answer, SYSTEM)] == [flag.id]


def test_an_unreachable_database_is_unavailable_not_empty(tmp_path: Path) -> None:
    with pytest.raises(RecordsUnavailableError):
        Records("postgresql+psycopg://nobody@127.0.0.1:1/none").open()
    (tmp_path / "dir.sqlite3").mkdir()
    with pytest.raises(RecordsUnavailableError):
        Records(f"sqlite:///{tmp_path / 'dir.sqlite3'}").open()


# -- teams -------------------------------------------------------------------------------------------


def test_a_team_sees_its_own_answers_and_flags_and_no_other(records: Records) -> None:
    asha = Viewer("asha", Role.LAWYER, "chambers-a")
    pia = Viewer("pia", Role.PARALEGAL, "chambers-a")
    bo = Viewer("bo", Role.LAWYER, "chambers-b")
    ours = records.answers.add({"question": "client X's dowry facts", "as_of": "2025-01-01",
                                "answer": "BNS s.80 dowry death."}, key_name=asha.name, team=asha.team).id
    theirs = records.answers.add({"question": "client Y's facts", "as_of": "2025-01-01",
                                  "answer": "BNS s.318 cheating."}, key_name=bo.name, team=bo.team).id
    flag, _ = records.flags.add(answer_id=ours, start=0, end=3, label="misquote", viewer=pia)
    assert flag.team == "chambers-a"
    # reads: the other team's answer and flag are absent, not forbidden
    assert records.answers.get(theirs, asha) is None and records.answers.get(ours, bo) is None
    assert records.answers.get(ours, pia) is not None
    assert {a.id for a in records.answers.list(bo, limit=200)} & {ours} == set()
    assert theirs not in {a.id for a in records.answers.list(asha, limit=200)}
    assert records.flags.get(flag.id, bo) is None and records.flags.get(flag.id, pia) is not None
    assert records.flags.list_for_answer(ours, bo) == []
    assert flag.id not in {f.id for f in records.flags.export(bo)}
    assert flag.id in {f.id for f in records.flags.export(pia)}
    # writes: flagging or reviewing across teams finds nothing
    with pytest.raises(RecordNotFoundError):
        records.flags.add(answer_id=ours, start=0, end=3, label="other",
                          viewer=Viewer("bob", Role.PARALEGAL, "chambers-b"))
    with pytest.raises(RecordNotFoundError):
        records.flags.review(flag.id, "accepted", Viewer("bo-lead", Role.PARALEGAL, "chambers-b"))
    # an admin sees every team's
    assert {ours, theirs} <= {a.id for a in records.answers.list(ROOT, limit=200)}
    assert records.flags.review(flag.id, "accepted", ROOT).reviewed_by == "root"


def test_keys_carry_a_team_default_when_not_given(records: Records) -> None:
    row, _ = records.keys.create(f"teamless-{uuid.uuid4().hex[:6]}", "lawyer")
    assert row.team == "default"
    row, raw = records.keys.create(f"teamed-{uuid.uuid4().hex[:6]}", "paralegal", "chambers-a")
    assert row.team == "chambers-a" and records.keys.authenticate(raw).team == "chambers-a"  # type: ignore[union-attr]
    with pytest.raises(InvalidRecordError) as bad:
        records.keys.create(f"bad-team-{uuid.uuid4().hex[:6]}", "lawyer", "a team; drop table")
    assert bad.value.field == "team"


@pytest.fixture(params=["sqlite", "postgresql"])
def fresh_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'records.sqlite3'}"
    else:
        yield from _postgres_database()


def test_rows_from_before_teams_join_the_default_team(fresh_url: str) -> None:
    from alembic import command
    from alembic.config import Config

    from legal_rag.records.store import MIGRATIONS

    engine = create_engine(fresh_url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:  # the schema as it was before teams, with a key, an answer and a flag
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0002")
        now = datetime.now(UTC).replace(tzinfo=None)
        conn.execute(text("INSERT INTO api_keys (id, name, role, key_hash, prefix, created_at) "
                          "VALUES ('k1', 'old-key', 'lawyer', :h, 'lrk_old', :t)"), {"h": "0" * 64, "t": now})
        conn.execute(text("INSERT INTO answers (id, created_at, key_name, question, as_of, text, generator, "
                          "index_version, document) VALUES ('a1', :t, 'old-key', 'q', '2025-01-01', 'old answer', "
                          "'extractive', 0, '{}')"), {"t": now})
        conn.execute(text("INSERT INTO flags (id, answer_id, start, \"end\", span_text, label, status, key_name, "
                          "created_at) VALUES ('f1', 'a1', 0, 3, 'old', 'other', 'pending', 'old-key', :t)"),
                     {"t": now})
    engine.dispose()
    with Records(fresh_url) as records:  # opening migrates to the newest schema
        assert records.keys.list()[0].team == "default"
        default_lawyer = Viewer("new", Role.LAWYER)
        assert records.answers.get("a1", default_lawyer) is not None
        assert [f.id for f in records.flags.list_for_answer("a1", default_lawyer)] == ["f1"]
        assert records.answers.get("a1", Viewer("other", Role.LAWYER, "elsewhere")) is None
