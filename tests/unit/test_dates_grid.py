"""A generated grid for ``legal_rag.workflow.dates``: 36 date forms x 7 days on both sides of 2024-07-01 (day <= 12
and > 12) x lay event phrases (offences, proceedings, life events) x clause orders (date first or last, the
question before the facts, an offence and a proceeding with two dates in one sentence). Each case's expected
events, offence day (BNS 358(2)) and pending-since day (BNSS 531(2)(a)) come from the grid's own parameters, not
from the module. The test asserts >= 99% right and prints the cases it gets wrong."""

from __future__ import annotations

import calendar
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, timedelta

from dateutil.relativedelta import relativedelta

from legal_rag.workflow.dates import EventKind, offence_day, pending_since, read_dates

CUTOVER = date(2024, 7, 1)
TODAY = date(2025, 6, 20)  # the facts' day for the absolute forms
DAYS = (date(2023, 3, 5), date(2023, 11, 23), date(2024, 2, 9), date(2024, 6, 18), date(2024, 7, 4),
        date(2024, 9, 18), date(2025, 1, 7))


def _month(d: date) -> tuple[date, date]:
    return d.replace(day=1), d.replace(day=calendar.monthrange(d.year, d.month)[1])


def _ord(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


@dataclass(frozen=True)
class Form:
    """A way to write a date: ``words(d)`` as the user writes it (with its preposition), the span it means and
    the day the facts are told (``today``), which for a relative form is set so that the words mean ``d``."""

    name: str
    words: Callable[[date], str]
    span: Callable[[date], tuple[date, date]]
    today: Callable[[date], date] = lambda d: TODAY
    relative: bool = False


def _day(d: date) -> tuple[date, date]:
    return d, d


def _approx(d: date, width: relativedelta, today: date) -> tuple[date, date]:
    return d - width, min(d + width, today)


M, MN = calendar.month_abbr, calendar.month_name
FORMS: tuple[Form, ...] = (
    Form("d Mon yyyy", lambda d: f"on {d.day} {M[d.month]} {d.year}", _day),
    Form("dth Month, yyyy", lambda d: f"on {_ord(d.day)} {MN[d.month]}, {d.year}", _day),
    Form("Month d, yyyy", lambda d: f"on {MN[d.month]} {d.day}, {d.year}", _day),
    Form("dd/mm/yyyy", lambda d: f"on {d:%d/%m/%Y}", _day),
    Form("d.m.yyyy", lambda d: f"on {d.day}.{d.month}.{d.year}", _day),
    Form("dd-mm-yy", lambda d: f"on {d:%d-%m-%y}", _day),
    Form("yyyy-mm-dd", lambda d: f"on {d:%Y-%m-%d}", _day),
    Form("the dth of Month yyyy", lambda d: f"on the {_ord(d.day)} of {MN[d.month]} {d.year}", _day),
    Form("dd.mm.yy", lambda d: f"on {d:%d.%m.%y}", _day),
    Form("d Month yyyy", lambda d: f"on {d.day} {MN[d.month]} {d.year}", _day),
    Form("Mon. d, yyyy", lambda d: f"on {M[d.month]}. {d.day}, {d.year}", _day),
    Form("Mon yyyy", lambda d: f"in {M[d.month]} {d.year}", _month),
    Form("Month, yyyy", lambda d: f"in {MN[d.month]}, {d.year}", _month),
    Form("mm/yyyy", lambda d: f"in {d:%m/%Y}", _month),
    Form("the month of Month yyyy", lambda d: f"in the month of {MN[d.month]} {d.year}", _month),
    Form("during Month yyyy", lambda d: f"during {MN[d.month]} {d.year}", _month),
    Form("early Month yyyy", lambda d: f"in early {MN[d.month]} {d.year}",
         lambda d: (d.replace(day=1), d.replace(day=10))),
    Form("mid-Month yyyy", lambda d: f"in mid-{MN[d.month]} {d.year}",
         lambda d: (d.replace(day=11), d.replace(day=20))),
    Form("in yyyy", lambda d: f"in {d.year}", lambda d: (date(d.year, 1, 1), date(d.year, 12, 31))),
    Form("during yyyy", lambda d: f"during {d.year}", lambda d: (date(d.year, 1, 1), date(d.year, 12, 31))),
    Form("early yyyy", lambda d: f"in early {d.year}", lambda d: (date(d.year, 1, 1), date(d.year, 4, 30))),
    Form("summer of yyyy", lambda d: f"in the summer of {d.year}",
         lambda d: (date(d.year, 4, 1), date(d.year, 6, 30))),
    Form("late yyyy", lambda d: f"in late {d.year}", lambda d: (date(d.year, 9, 1), date(d.year, 12, 31))),
    Form("the year yyyy", lambda d: f"in the year {d.year}", lambda d: (date(d.year, 1, 1), date(d.year, 12, 31))),
    Form("through most of yyyy", lambda d: f"through most of {d.year}",
         lambda d: (date(d.year, 1, 1), date(d.year, 12, 31))),
    Form("throughout yyyy", lambda d: f"throughout {d.year}", lambda d: (date(d.year, 1, 1), date(d.year, 12, 31))),
    # relative: the facts are told on a day that makes the words mean d
    Form("yesterday", lambda d: "yesterday", _day, lambda d: d + timedelta(days=1), True),
    Form("10 days ago", lambda d: "10 days ago", _day, lambda d: d + timedelta(days=10), True),
    Form("last Month", lambda d: f"last {MN[d.month]}", _month, lambda d: d + timedelta(days=70), True),
    Form("last year", lambda d: "last year", lambda d: (date(d.year, 1, 1), date(d.year, 12, 31)),
         lambda d: date(d.year + 1, 3, 10), True),
    Form("two years back", lambda d: "two years back",
         lambda d: _approx(d, relativedelta(months=6), d + relativedelta(years=2)),
         lambda d: d + relativedelta(years=2), True),
    Form("a year and a half ago", lambda d: "a year and a half ago",
         lambda d: _approx(d, relativedelta(months=6), d + relativedelta(months=18)),
         lambda d: d + relativedelta(months=18), True),
    Form("three months ago", lambda d: "three months ago",
         lambda d: _approx(d, relativedelta(days=15), d + relativedelta(months=3)),
         lambda d: d + relativedelta(months=3), True),
    Form("in Month (no year)", lambda d: f"in {MN[d.month]}", _month, lambda d: d + timedelta(days=40), True),
    Form("on d Month (no year)", lambda d: f"on {d.day} {MN[d.month]}", _day, lambda d: d + timedelta(days=20),
         True),
    Form("last month", lambda d: "last month", _month, lambda d: _month(d)[1] + timedelta(days=10), True),
)

OFFENCES = (("my neighbour cheated me", ""), ("he stole my phone", ""), ("my brother-in-law beat me", ""),
            ("he threatened me", ""), ("a man hit my car", ""), ("he took Rs 50,000 from me", " and never returned it"),
            ("my husband harassed me for dowry", ""), ("my neighbour slapped me", ""),
            ("someone broke into my house", ""), ("a biker snatched my chain", ""))
PROCEEDINGS = ("the FIR was lodged", "he was arrested", "I filed a complaint", "the trial began",
               "the charge sheet was filed", "the police registered an FIR")
LIVES = ("we got married", "I bought the car", "I joined the company", "my son was born")
PASSIVES = ("my phone was stolen", "my shop was looted", "I was cheated by a caller", "my wife was assaulted",
            "I was threatened with a knife")
SECOND = ("threatened me", "stole my phone", "abused me", "ran away with my bag", "attacked my son")
NOISE = ("I have read (2014) 8 SCC 273 and the Bharatiya Nyaya Sanhita, 2023.",
         "My 2019 Honda City is insured for Rs 2000 a month.",
         "He is a 2016-batch officer and it was 2015 hrs.",
         "Section 318(4) of BNS 2023 and Act 45 of 1860 were cited.")


@dataclass(frozen=True)
class Case:
    question: str
    today: date
    events: tuple[tuple[EventKind, date, date, bool], ...]
    offence_day: date | None
    pending_since: date | None


def _cap(s: str) -> str:
    return s[0].upper() + s[1:]


def _expect(question: str, today: date, events: tuple[tuple[EventKind, date, date, bool], ...]) -> Case:
    offences = [e for e in events if e[0] is EventKind.OFFENCE]
    day = (max(e[2] for e in offences) if today >= CUTOVER and offences and all(e[2] < CUTOVER and not e[3]
                                                                               for e in offences) else None)
    begun = [e[1] for e in events if e[0] is EventKind.PROCEEDING and e[2] < CUTOVER]
    return Case(question, today, events, day, min(begun) if today >= CUTOVER and begun else None)


def _single(k: int, form: Form, d: date) -> Iterator[Case]:
    """One dated event, told with the date last, the date first, or after the question."""
    words, (first, last), today = form.words(d), form.span(d), form.today(d)
    verb, tail = OFFENCES[k % len(OFFENCES)]
    off = ((EventKind.OFFENCE, first, last, False),)
    yield _expect(f"{_cap(verb)} {words}{tail}. What offence has he committed?", today, off)
    yield _expect(f"{_cap(words)}, {verb}{tail}. What can I do?", today, off)
    yield _expect(f"Which law applies? {_cap(verb)} {words}{tail}.", today, off)
    proc, life = PROCEEDINGS[k % len(PROCEEDINGS)], LIVES[k % len(LIVES)]
    pro = ((EventKind.PROCEEDING, first, last, False),)
    yield _expect(f"{_cap(proc)} {words}. Which code governs the proceedings?", today, pro)
    yield _expect(f"{_cap(words)}, {proc}. Which code governs the proceedings?", today, pro)
    yield _expect(f"{_cap(life)} {words}. Can I claim anything?", today, ((EventKind.LIFE, first, last, False),))
    yield _expect(f"{NOISE[k % len(NOISE)]} {_cap(PASSIVES[k % len(PASSIVES)])} {words}. Which law applies?", today,
                  off)
    yield _expect(f"{_cap(verb)} and {SECOND[k % len(SECOND)]} {words}. What offence is it?", today, off)


def _double(k: int, f1: Form, d1: date, f2: Form, d2: date) -> Iterator[Case]:
    """An offence and a proceeding (or a life event and an offence) with two dates in one sentence."""
    (a1, b1), (a2, b2) = f1.span(d1), f2.span(d2)
    w1, w2 = f1.words(d1), f2.words(d2)
    verb, tail = OFFENCES[k % len(OFFENCES)]
    proc, life = PROCEEDINGS[k % len(PROCEEDINGS)], LIVES[k % len(LIVES)]
    off1, pro2 = (EventKind.OFFENCE, a1, b1, False), (EventKind.PROCEEDING, a2, b2, False)
    yield _expect(f"{_cap(verb)} {w1}{tail} and {proc} {w2}. Which law applies?", TODAY, (off1, pro2))
    yield _expect(f"{_cap(verb)} {w1}{tail}, but {proc} only {w2}. Which law applies?", TODAY, (off1, pro2))
    yield _expect(f"{_cap(w1)}, {verb}{tail}; {proc} {w2}.", TODAY, (off1, pro2))
    yield _expect(f"Under which code is he tried? {_cap(proc)} {w2} after {verb} {w1}{tail}.", TODAY,
                  (pro2, off1))
    yield _expect(f"{_cap(life)} {w1} and {verb} {w2}{tail}. What offence is it?", TODAY,
                  ((EventKind.LIFE, a1, b1, False), (EventKind.OFFENCE, a2, b2, False)))
    yield _expect(f"He was arrested {w2} for cheating me {w1}. Which code applies?", TODAY, (pro2, off1))
    yield _expect(f"The FIR for the theft committed {w1} was lodged {w2}.", TODAY, (off1, pro2))
    yield _expect(f"I lent him Rs 2 lakh {w1}, and he took the money and ran away {w2}. What offence is it?",
                  TODAY, ((EventKind.LIFE, a1, b1, False), (EventKind.OFFENCE, a2, b2, False)))
    yield _expect(f"{NOISE[k % len(NOISE)]} {_cap(PASSIVES[k % len(PASSIVES)])} {w1} and {proc} {w2}.", TODAY,
                  (off1, pro2))


def _ongoing(k: int, d: date) -> Iterator[Case]:
    """A continuing offence or a pending proceeding: 'since' a month or a year."""
    for words, (a, b) in ((f"{MN[d.month]} {d.year}", _month(d)), (str(d.year), (date(d.year, 1, 1),
                                                                                   date(d.year, 12, 31)))):
        yield _expect(f"My husband has been harassing me for dowry since {words}. What offence is it?", TODAY,
                      ((EventKind.OFFENCE, a, b, True),))
        yield _expect(f"The trial has been pending since {words}. Which code governs it?", TODAY,
                      ((EventKind.PROCEEDING, a, b, True),))
        yield _expect(f"My in-laws harassed me for dowry ever since {words}. What offence is it?", TODAY,
                      ((EventKind.OFFENCE, a, b, True),))
        yield _expect(f"I bought the car in {d.year - 3} and they threatened me from {words}.", TODAY,
                      ((EventKind.LIFE, date(d.year - 3, 1, 1), date(d.year - 3, 12, 31), False),
                       (EventKind.OFFENCE, a, b, True)))


def cases() -> list[Case]:
    out: list[Case] = []
    for i, form in enumerate(FORMS):
        for j, d in enumerate(DAYS):
            out.extend(_single(i * len(DAYS) + j, form, d))
    absolute = [f for f in FORMS if not f.relative]
    pairs = [(d1, d2) for d1 in DAYS for d2 in DAYS if d1 < d2]
    for rot in range(3):
        for k, (d1, d2) in enumerate(pairs):
            f1 = absolute[(k + rot * 5) % len(absolute)]
            f2 = absolute[(k * 7 + 3 + rot * 11) % len(absolute)]
            out.extend(_double(k + rot, f1, d1, f2, d2))
    for k, d in enumerate(DAYS):
        out.extend(_ongoing(k, d))
    return out


def _got(case: Case) -> tuple[tuple[tuple[EventKind, date, date, bool], ...], date | None, date | None]:
    events = read_dates(case.question, case.today)
    return (tuple((e.kind, e.start, e.end, e.ongoing) for e in events), offence_day(events, case.today),
            pending_since(events, case.today))


def test_the_grid_reads_99_percent_of_its_questions_right() -> None:
    grid = cases()
    assert len(grid) >= 1000 and len({c.question + str(c.today) for c in grid}) >= 1000
    wrong = []
    started = time.perf_counter()
    for case in grid:
        got = _got(case)
        if got != (case.events, case.offence_day, case.pending_since):
            wrong.append((case, got))
    mean_ms = (time.perf_counter() - started) / len(grid) * 1000
    for case, got in wrong:
        print(f"WRONG {case.question!r} today={case.today}\n  want {case.events} {case.offence_day} "
              f"{case.pending_since}\n  got  {got[0]} {got[1]} {got[2]}")
    rate = 1 - len(wrong) / len(grid)
    print(f"grid: {len(grid)} cases, {rate:.2%} right, read_dates mean {mean_ms:.2f} ms per question")
    assert rate >= 0.99


def test_the_grid_spans_both_sides_of_the_cutover() -> None:
    """The grid is no easy one: it dates offences and proceedings on both sides of 2024-07-01, days above and
    below 12, and expects offence days and pending days as well as Nones."""
    grid = cases()
    assert {d.day > 12 for d in DAYS} == {True, False} and {d < CUTOVER for d in DAYS} == {True, False}
    assert sum(c.offence_day is not None for c in grid) > 300 and sum(c.offence_day is None for c in grid) > 300
    assert sum(c.pending_since is not None for c in grid) > 150
    assert len({c.today for c in grid}) > 50  # relative forms are told on many days
