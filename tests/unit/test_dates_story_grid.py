"""A generated grid for the story's dating of an offence told without a date (``dates._bounded``): undated offences told
in the past x the event the story tells after them (leaving, an FIR, an arrest, going back home, a death, a
conviction) x date forms x where the date stands x how the two are joined x days on both sides of 2024-07-01. The
expected offence day comes from the grid's own parameters: the end of the later event's date when that is before
2024-07-01 (the offence was committed by then: the IPC's, BNS 358(2)), else none (it may be of either code). A second
grid tells the same offences in the present or with a time of their own, which no later date bounds; a third tells
after them what looks back or is another matter (a record, another's death, a span's bound, an earlier quarrel). Each
test asserts >= 99% right and prints the cases it gets wrong."""

from __future__ import annotations

import calendar
from collections.abc import Callable, Iterator
from datetime import date

from legal_rag.workflow.dates import offence_day, read_dates

CUTOVER = date(2024, 7, 1)
TODAY = date(2025, 6, 20)
DAYS = (date(2023, 3, 5), date(2023, 11, 23), date(2024, 2, 9), date(2024, 6, 18), date(2024, 7, 4),
        date(2024, 9, 18), date(2025, 1, 7))
M, MN = calendar.month_abbr, calendar.month_name


def _month_end(d: date) -> date:
    return d.replace(day=calendar.monthrange(d.year, d.month)[1])


FORMS: tuple[tuple[str, Callable[[date], str], Callable[[date], date]], ...] = (
    ("d Mon yyyy", lambda d: f"on {d.day} {M[d.month]} {d.year}", lambda d: d),
    ("Month yyyy", lambda d: f"in {MN[d.month]} {d.year}", _month_end),
    ("dd/mm/yyyy", lambda d: f"on {d:%d/%m/%Y}", lambda d: d),
)
OFFENCES = (
    "her husband kept beating her",
    "my neighbour stole my motorbike",
    "the accountant cheated our firm of ten lakh",
    "a man stalked my daughter on her way to college",
    "her in-laws harassed her for dowry",
    "he threatened to kill me",
    "someone hacked my email account",
    "my tenant's son assaulted my father",
)
EVENTS = (
    "she left their house",
    "we lodged an FIR",
    "the police arrested him",
    "I went back to my parents",
    "she died in hospital",
    "he was convicted for it",
)
JOINS = (
    lambda o, e: f"{o}, and {e}.",
    lambda o, e: f"{o}. {e[0].upper()}{e[1:]}.",
    lambda o, e: f"{o}; finally {e}.",
    lambda o, e: f"{o} and then {e}.",
)
ASK = " What can we do now?"


def _stories() -> Iterator[tuple[str, date | None]]:
    for offence in OFFENCES:
        for event in EVENTS:
            for _, words, end in FORMS:
                for day in DAYS:
                    expected = end(day) if end(day) < CUTOVER else None
                    dated_after = f"{event} {words(day)}"
                    dated_before = f"{words(day)} {event}"
                    for join in JOINS:
                        for told in (dated_after, dated_before):
                            yield join(offence[0].upper() + offence[1:], told) + ASK, expected


PRESENT = (
    "her husband beats her every day",
    "my neighbour keeps stealing from my shop",
    "he is harassing me on the phone",
    "he has been threatening me",
    "someone hacked my email account again recently",
    "her in-laws still demand more dowry",
)


def _present() -> Iterator[str]:
    for offence in PRESENT:
        for event in EVENTS:
            for _, words, _end in FORMS:
                for day in DAYS:
                    for join in JOINS:
                        yield join(offence[0].upper() + offence[1:], f"{event} {words(day)}") + ASK


def test_an_undated_offence_is_dated_by_the_event_the_story_tells_after_it() -> None:
    cases = list(_stories())
    wrong = [(q, want, got) for q, want in cases
             if (got := offence_day(read_dates(q, TODAY), TODAY)) != want]
    for q, want, got in wrong[:25]:
        print(f"{q!r}: want {want}, got {got}")
    assert len(cases) >= 1000
    assert len(wrong) <= 0.01 * len(cases), f"{len(wrong)} of {len(cases)} wrong"


def test_an_offence_told_in_the_present_is_not_dated_by_a_later_event() -> None:
    cases = list(_present())
    wrong = [q for q in cases if offence_day(read_dates(q, TODAY), TODAY) is not None]
    for q in wrong[:25]:
        print(repr(q))
    assert len(cases) >= 1000
    assert len(wrong) <= 0.01 * len(cases), f"{len(wrong)} of {len(cases)} wrong"


LOOKS_BACK = (
    lambda o, d: f"{o}. Earlier, {d}, he had stolen my gold.",
    lambda o, d: f"{o}. He was previously convicted of theft {d}.",
    lambda o, d: f"{o}. Back {d} he cheated my father too.",
    lambda o, d: f"{o}. Before that, {d}, we had a fight over money.",
    lambda o, d: f"{o}. I paid him rent till {d.removeprefix('in ').removeprefix('on ')}.",
    lambda o, d: f"{o}. My grandfather died {d}.",
    lambda o, d: f"{o}. I married him {d}.",
)


def test_an_undated_offence_is_not_dated_by_what_looks_back_or_is_another_matter() -> None:
    cases = [join(offence[0].upper() + offence[1:], words(day)) + ASK
             for offence in OFFENCES for join in LOOKS_BACK for _, words, _end in FORMS for day in DAYS]
    wrong = [q for q in cases if offence_day(read_dates(q, TODAY), TODAY) is not None]
    for q in wrong[:25]:
        print(repr(q))
    assert len(cases) >= 1000
    assert len(wrong) <= 0.01 * len(cases), f"{len(wrong)} of {len(cases)} wrong"
