"""Start-up recovery: jobs whose worker died are re-run (or failed), and the index matches the graph.

Two mechanisms keep a job from being lost when its worker dies (``kill -9``, a crash, a lost
machine). Celery's ``acks_late`` with the broker's visibility timeout redelivers the unacknowledged
message eventually, even if nothing restarts, but only after ``jobs.visibility_timeout_s`` (an hour:
a shorter one would redeliver long jobs that are still running). So every server and worker, when it
starts, also looks at the unfinished job rows and hands back to the queue each job whose worker is
gone (:func:`recover_jobs`): at once, not an hour later. A job's row names the process running it
(:func:`this_runner`, host, pid and the process's start time, so a reused pid is not mistaken for
it); on the same machine that process is checked directly, on another machine by the row's
heartbeat. A job whose worker died ``jobs.max_attempts`` times is marked failed instead. Two
deliveries of one job are harmless: the task claims its row first and a second delivery does
nothing (``ingestion.tasks.claim_job``).

The graph and the index are two stores with no shared transaction: a job killed between its graph
write and its index update leaves an Act that can be verified but not found. Every start
therefore brings the index in line with the whole graph (``sync_from_graph``, incremental: about a
second on the shipped corpus when nothing changed), so no crash point outlives a restart.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from legal_rag.records import JobKind, JobRow, JobState, Records
from legal_rag.records.model import utcnow
from legal_rag.settings import JobSettings

__all__ = ["JobRecovery", "recover_jobs", "runner_alive", "task_call", "this_runner"]


def _start_ticks(pid: int) -> str | None:
    """The start time of process ``pid`` in clock ticks since boot (Linux ``/proc``), None if unknown."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            stat = fh.read()
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: fields are counted after its ')'.
    fields = stat[stat.rfind(")") + 2 :].split()
    return fields[19] if len(fields) > 19 else None


def this_runner() -> str:
    """This process as a job's runner: ``host:pid:start-ticks``."""
    pid = os.getpid()
    return f"{socket.gethostname()}:{pid}:{_start_ticks(pid) or '?'}"


def runner_alive(row: JobRow, stale_after_s: float) -> bool:
    """Whether the process named in ``row.runner`` may still be running the job.

    On this machine: the process with that pid exists and started at the recorded time. Elsewhere:
    the row was marked (heartbeat) within ``stale_after_s``.
    """
    if not row.runner:
        return False
    host, _, rest = row.runner.partition(":")
    pid_text, _, ticks = rest.partition(":")
    if host == socket.gethostname() and pid_text.isdigit():
        now = _start_ticks(int(pid_text))
        if now is not None or ticks != "?":
            return now is not None and now == ticks
        try:  # no /proc: the pid alone
            os.kill(int(pid_text), 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    return (utcnow() - row.updated_at).total_seconds() < stale_after_s


def task_call(row: JobRow) -> tuple[str, list[Any]] | None:
    """The Celery task and arguments that run the job of ``row`` (None: its arguments are unknown)."""
    from finetune.tasks import FINETUNE_BUILD_TASK
    from ingestion.tasks import INGEST_TASK

    p = row.params or {}
    if row.kind == JobKind.INGEST.value and isinstance(p.get("paths"), list):
        return INGEST_TASK, [list(p["paths"]), bool(p.get("strict", False))]
    if row.kind == JobKind.FINETUNE.value and "out" in p:
        return FINETUNE_BUILD_TASK, [p["out"], int(p.get("n", 1000)), int(p.get("seed", 7)),
                                     float(p.get("eval_fraction", 0.1))]
    return None


@dataclass
class JobRecovery:
    """What :func:`recover_jobs` did, by job id."""

    requeued: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    unsent: dict[str, str] = field(default_factory=dict)
    """Jobs re-queued in the records whose message the broker refused (the next start sends them)."""

    def as_dict(self) -> dict[str, Any]:
        return {"requeued": list(self.requeued), "failed": list(self.failed), "unsent": dict(self.unsent)}


Send = Callable[[str, list[Any], str], None]
"""``send(task name, args, job id)``: enqueue a job's task under the job's id."""


def recover_jobs(records: Records, send: Send, settings: JobSettings) -> JobRecovery:
    """Hand every unfinished job that no live worker runs back to the queue, or fail it.

    A ``running`` job whose runner is gone is put back to ``queued`` and its task sent again; after
    ``max_attempts`` deaths it is failed. A ``queued`` job is sent again too (its message may have
    been lost with a server killed between writing the row and enqueueing): a job that still has a
    message runs once, as the second delivery finds it claimed or finished.
    """
    out = JobRecovery()
    for row in records.jobs.unfinished():
        running = row.state == JobState.RUNNING.value
        if running and runner_alive(row, settings.stale_after_s):
            continue
        where = f" at stage {row.stage}" if row.stage else ""
        call = task_call(row)
        if running and (row.attempts >= settings.max_attempts or call is None):
            why = (f"its worker died {row.attempts} times while running it{where}; not re-run again"
                   if call is not None else f"its worker died{where} and its arguments were not recorded")
            records.jobs.fail(row.id, why)
            out.failed.append(row.id)
            continue
        if call is None:
            continue  # queued by a client that did not record arguments: its own message runs it
        if running and not records.jobs.requeue(
                row, f"re-queued at start-up: its worker ({row.runner}) died{where}; attempt {row.attempts + 1} "
                     f"of {settings.max_attempts}"):
            continue  # changed meanwhile (another process recovered it, or a worker took it)
        try:
            send(call[0], call[1], row.id)
        except Exception as exc:  # noqa: BLE001 - kept in the row and the summary; the next start sends it
            records.jobs.update(row.id, kind=row.kind, error=f"could not re-enqueue: {type(exc).__name__}: {exc}")
            out.unsent[row.id] = f"{type(exc).__name__}: {exc}"
            continue
        out.requeued.append(row.id)
    return out
