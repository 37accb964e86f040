"""Plain progress lines off a terminal (CI logs, ``| tee``, containers): done/total, rate, ETA."""

from __future__ import annotations

import io

from legal_rag.cli.progress import ProgressLines, progress_reporter


class Clock:
    """A clock the test moves by hand (no sleeping, no timing)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_lines_carry_done_total_rate_and_eta_and_are_throttled() -> None:
    out, clock = io.StringIO(), Clock()
    progress = ProgressLines({"embed": "embedding chunks"}, out, every_s=3.0, clock=clock)
    progress("embed", 0, 1000)
    clock.now += 1.0
    progress("embed", 100, 1000)  # within 3 s of the last line: nothing
    clock.now += 3.0
    progress("embed", 400, 1000)  # 400 in 4 s: 100/s, 600 left: 6 s
    clock.now += 6.0
    progress("embed", 1000, 1000)
    progress("embed", 1000, 1000)  # the completed stage is reported once
    assert out.getvalue().splitlines() == [
        "embedding chunks: 0/1000 (0%)",
        "embedding chunks: 400/1000 (40%) 100.0/s ETA 6 s",
        "embedding chunks: 1000/1000 (100%) 100.0/s",
    ]


def test_a_new_stage_starts_its_own_clock_and_an_empty_stage_prints_nothing() -> None:
    out, clock = io.StringIO(), Clock()
    progress = ProgressLines({}, out, clock=clock)
    progress("write", 0, 0)
    clock.now += 10.0
    progress("headings", 0, 50)
    clock.now += 5.0
    progress("headings", 50, 50)
    assert out.getvalue().splitlines() == ["headings: 0/50 (0%)", "headings: 50/50 (100%) 10.0/s"]


def test_not_a_terminal_gets_plain_lines_and_quiet_gets_none() -> None:
    out = io.StringIO()  # isatty() is False, as for a pipe or a CI log
    with progress_reporter({"write": "writing records"}, stream=out) as progress:
        progress("write", 0, 10)
        progress("write", 10, 10)
    lines = out.getvalue().splitlines()
    assert lines[0] == "writing records: 0/10 (0%)" and lines[-1].startswith("writing records: 10/10 (100%)")
    quiet = io.StringIO()
    with progress_reporter({"write": "writing records"}, quiet=True, stream=quiet) as progress:
        progress("write", 10, 10)
    assert quiet.getvalue() == ""
