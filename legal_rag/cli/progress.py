"""Progress for long CLI work: a live bar on a terminal, a plain line every few seconds otherwise.

CI logs, ``| tee`` and containers are not terminals; rich's bar prints nothing there, so work
that takes minutes looked hung. :class:`ProgressLines` writes ``label: done/total (pct), rate/s,
ETA`` to stderr at most every ``every_s`` seconds and once when a stage completes.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import TextIO

Progress = Callable[[str, int, int], None]


class ProgressLines:
    """A ``progress(stage, done, total)`` callback printing plain lines (see module docstring)."""

    def __init__(self, labels: Mapping[str, str] | None = None, stream: TextIO | None = None,
                 every_s: float = 3.0, clock: Callable[[], float] = time.monotonic) -> None:
        self._labels = dict(labels or {})
        self._stream = stream or sys.stderr
        self._every = every_s
        self._clock = clock
        self._stage: str | None = None
        self._start = 0.0
        self._last = 0.0
        self._done_reported = False

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = self._clock()
        if stage != self._stage:
            self._stage, self._start, self._last, self._done_reported = stage, now, now, False
            if total:
                self._line(stage, done, total, now)
            return
        finished = bool(total) and done >= total
        if finished and not self._done_reported:
            self._done_reported = True
            self._line(stage, done, total, now)
        elif not finished and now - self._last >= self._every:
            self._line(stage, done, total, now)

    def _line(self, stage: str, done: int, total: int, now: float) -> None:
        self._last = now
        label = self._labels.get(stage, stage)
        elapsed = now - self._start
        parts = [f"{label}: {done}/{total}" if total else f"{label}: {done}"]
        if total:
            parts.append(f"({100 * done / total:.0f}%)")
        if elapsed > 0 and done:
            rate = done / elapsed
            parts.append(f"{rate:.1f}/s")
            if total and done < total:
                parts.append(f"ETA {(total - done) / rate:.0f} s")
        elif done >= total:
            parts.append("done")
        self._stream.write(" ".join(parts) + "\n")
        self._stream.flush()


@contextmanager
def progress_reporter(labels: Mapping[str, str], *, quiet: bool = False,
                      stream: TextIO | None = None) -> Iterator[Progress]:
    """A progress callback: a rich bar on a terminal, :class:`ProgressLines` otherwise, nothing if ``quiet``."""
    target = stream or sys.stderr
    if quiet:
        yield lambda stage, done, total: None
        return
    if not target.isatty():
        yield ProgressLines(labels, target)
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TimeRemainingColumn(), console=Console(file=target)) as bar:
        task = bar.add_task("starting", total=None)

        def update(stage: str, done: int, total: int) -> None:
            bar.update(task, description=labels.get(stage, stage), completed=done, total=total or None)

        yield update
