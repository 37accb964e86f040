"""Date words in a question, read as spans of days: the first stage of ``dates.read_dates``.

Our own patterns find the candidate words (dateparser's ``search_dates`` is too eager: it reads "may" and "march"
as verbs, amounts and report citations as dates), and dateparser parses each with Indian day-month order
(DATE_ORDER='DMY', PREFER_DATES_FROM='past', RELATIVE_BASE=today), cross-checked against the fields the pattern
captured: dateparser silently reads "05/13/2024" as 13 May even with DMY order, and such a date is dropped.
A year counts only when said as a time ("in 2023", "since 2022", "early 2023"): an Act's title ("BNS 2023"), an
amount ("Rs 2000"), a report ("(2014) 8 SCC 273"), a model ("my 2019 car"), a time ("2015 hrs"), a batch
("2016-batch"), a range ("2016-17") or a case number ("FIR No. 12/2023") is no date. Festivals ("on Diwali
2023") are left unread. A month or a year is a span ("Nov 2023" is 2023-11-01..2023-11-30), an approximate
time a span around it ("two years back": half a year either way), a bound ("before 1 July 2024") runs from
``OPEN_START``.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from enum import Enum
from functools import lru_cache

import dateparser
from dateutil.relativedelta import relativedelta

from graph_schema.model import NEW_CRIMINAL_CODES_IN_FORCE

CUTOVER = date.fromisoformat(NEW_CRIMINAL_CODES_IN_FORCE)
OPEN_START = date.min
"""The start of a bound ("before 1 July 2024"): the day is unknown, only that it is no later than ``end``."""

_MON = (r"(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
        r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b(?:(?<=jan|feb|mar|apr|jun|jul|aug|sep|ept|oct|"
        r"nov|dec)\.)?")
"""A month's name; the dot only after an abbreviation ("Sept. 2024"), never a sentence's full stop ("last March.")."""
_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_abbr) if m}
_Y4 = r"(?P<y>(?:19|20)\d\d)"
_ORD = r"(?:st|nd|rd|th)?"
_NOT_A_YEAR = r"(?!\s*[-–/]?\s*(?:\d|hrs\b|hours\b|h\b|batch\b|model\b)|[,.]\d)"
_TIME_CUE = re.compile(
    r"\b(?:in|during|since|from|by|until|till|before|after|to|prior\s+to|ever\s+since|the\s+year|year|between|"
    # a year the events fill ("through most of 2018", "throughout 2022", "for much of 2019")
    r"through(?:out)?|(?:most|much|part|parts)\s+of|"
    r"between\s+(?:the\s+years?\s+)?(?:19|20)\d\d\s+and)\s+(?:the\s+)?$",
    re.IGNORECASE)
_WORD_NUM = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
             "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "couple of": 2, "a couple of": 2,
             "few": 3, "a few": 3}
_NUM = (r"(?P<n>\d{1,2}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
        r"(?:a\s+)?couple\s+of|(?:a\s+)?few)")


@dataclass(frozen=True, slots=True)
class Span:
    """Date words at ``start_at``..``end_at`` of the question, meaning the days ``first``..``last``; ``ongoing``
    for an event that began then and continues ("since 2022")."""

    start_at: int
    end_at: int
    first: date
    last: date
    ongoing: bool = False


def _i(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


_DAY_NAMED = _i(rf"\b(?P<d>[0-3]?\d){_ORD}\s+(?:of\s+)?{_MON},?\s*{_Y4}\b")
_NAMED_DAY = _i(rf"\b{_MON}\s+(?P<d>[0-3]?\d){_ORD},?\s+{_Y4}\b")
_ISO = _i(r"\b(?P<y>(?:19|20)\d\d)-(?P<m>[01]\d)-(?P<d>[0-3]\d)\b")
_NUMERIC = _i(r"(?<![\d./-])(?P<d>[0-3]?\d)(?P<sep>[./-])(?P<m>[01]?\d)(?P=sep)(?P<y>(?:19|20)\d\d|\d\d)"
              r"(?![\d]|[./-]\d)")
_MONTH_YEAR = _i(rf"\b(?:(?P<q>early|mid|late|end\s+of|beginning\s+of|start\s+of)[\s-]+)?{_MON}(?:,|\s+of)?\s*{_Y4}\b")
_MONTH_SHORT_YEAR = _i(rf"\b{_MON},?\s*['’](?P<y>\d\d)\b")
"""A month and a year's last two digits: "Feb '24"."""
_NUM_MONTH_YEAR = _i(r"(?<![\d./-])(?P<m>[01]?\d)[/-](?P<y>(?:19|20)\d\d)(?![\d/-])")
_DAY_MONTH = _i(rf"\b(?P<d>[0-3]?\d){_ORD}\s+(?:of\s+)?{_MON}(?!,?\s*\d)")
_ON_MONTH_DAY = _i(rf"(?<=\bon\s){_MON}\s+(?P<d>[0-3]?\d){_ORD}\b(?!,?\s*\d)")
_MONTH_ALONE = _i(rf"\b(?P<cue>in|during|last|this|since|before|after|until|till|by)\s+(?:the\s+month\s+of\s+)?"
                  rf"{_MON}(?!\s*['’]?\d)(?!(?<=may)\s+(?:be|have|not|also|well|come|go|get|take|file|apply|seek|"
                  rf"lead|result|cause|help|include)\b)(?!(?<=march)\s+(?:on|to|through|towards|past|in)\b)")
"""A month named without a year after a time word; "may" and "march" as verbs ("the last may be filed", "in
march on the road") are no months."""
_CASE_NUMBER = _i(r"\b(?:no|nos|number|case|crime|cr|crl|fir|cc|c\.c|sc|st|appeal|petition|w\.?p|o\.?s|r\.?c|a)\.?"
                  r"\s*(?:no\.?\s*)?$")
"""Before "12/2023": a case or crime number ("FIR No. 12/2023", "Crl.A. 5/2023"), no month."""
_YEAR = _i(rf"\b(?:(?P<q>early|mid|late|end\s+of|beginning\s+of|start\s+of|(?:the\s+)?(?:summer|winter|monsoon|"
           rf"spring|autumn)\s+of|the\s+years?)[\s-]+)?{_Y4}\b{_NOT_A_YEAR}")
_NEW_LAWS = _i(
    r"\b(?:before|prior\s+to)\s+(?:the\s+)?(?:(?:new|three)\s+(?:criminal\s+)?(?:laws?|codes?|sanhitas?)|BNSS?|BSA|"
    r"Bharatiya\s+(?:Nyaya|Nagarik|Sakshya)\s+\w+)\s+(?:came|come|coming|were\s+brought|took\s+effect)"
    r"(?:\s+(?:in(?:to\s+(?:force|effect))?))?\b")
_RELATIVE_DAY = _i(r"\b(?P<w>(?:the\s+)?day\s+before\s+yesterday|yesterday|last\s+night|today|tonight|"
                   r"this\s+(?:morning|afternoon|evening))\b")
_RELATIVE_UNIT = _i(r"\b(?P<w>last|this|previous|past)\s+(?P<u>week|month|year)\b")
_AGO = _i(rf"\b(?:(?P<half1>(?:one|1|a)\s+and\s+a\s+half)|{_NUM}(?P<half2>\s+and\s+a\s+half)?)\s+"
          r"(?P<u>day|week|month|year)s?(?:\s+and\s+a\s+half)?\s+(?P<dir>ago|back|before(?!\s+(?:the|that|this|his|her|"
          r"my|our|their|\d)))\b")
_RECENTLY = _i(r"\b(?:recently|lately|of\s+late)\b")
_ANAPHORIC = _i(r"\b(?:(?:the\s+)?(?P<same>same|that(?:\s+(?:same|very))?|very\s+same)\s+(?P<u1>day|week|month|year)|"
                r"(?P<n>\d{1,2}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+"
                r"(?P<u2>day|week|month|year)s?\s+later|"
                r"the\s+(?:next|following)\s+(?P<u3>day|week|month|year))\b(?!-)")
"""A time told by the date before it: "the FIR was registered the same month", "that year", "two months later",
"the next day". Not "next month" (counted from today), "a few days later" (no count), "year-end"."""
_MODIFIER = _i(r"\b(?P<m>ever\s+since|since|from|before|prior\s+to|after|until|till|up\s+to|by)\s+(?:the\s+)?$")
_SEASONS = {"summer": (4, 6), "monsoon": (6, 9), "spring": (2, 3), "autumn": (10, 11), "winter": (1, 12)}
_PART_OF_YEAR = {"early": (1, 4), "beginning of": (1, 4), "start of": (1, 4), "mid": (5, 8), "late": (9, 12),
                 "end of": (9, 12), "the year": (1, 12)}
_PART_OF_MONTH = {"early": (1, 10), "beginning of": (1, 10), "start of": (1, 10), "mid": (11, 20), "late": (21, 31),
                  "end of": (21, 31)}


def _month_end(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def _month(text: str) -> int:
    return _MONTHS[text.lower().rstrip(".")[:3]]


class _Read(Enum):
    DAY = "day"  # strict: a day, a month and a year must all be there
    MONTH = "month"  # a month and a year, read as the month's first day
    RELATIVE = "relative"  # "24 months ago", counted from today


@lru_cache(maxsize=4096)
def _parse(text: str, today: date, read: _Read) -> date | None:
    """dateparser's reading of a span we found, in Indian day-month order, relative to ``today``."""
    settings: dict[str, object] = {"DATE_ORDER": "DMY", "PREFER_DATES_FROM": "past",
                                   "RELATIVE_BASE": datetime(today.year, today.month, today.day)}
    if read is _Read.DAY:
        settings["STRICT_PARSING"] = True
    elif read is _Read.MONTH:
        settings |= {"PREFER_DAY_OF_MONTH": "first", "REQUIRE_PARTS": ["month", "year"]}
    found = dateparser.parse(text, languages=["en"], settings=settings)
    return found.date() if found is not None else None


def _checked(text: str, today: date, year: int, month: int, day: int | None) -> date | None:
    """The day (or month's first day) dateparser reads in ``text``, if it agrees with the fields we captured."""
    try:
        want = date(year, month, day or 1)
    except ValueError:
        return None  # "31.02.2024": no such day
    got = _parse(text, today, _Read.DAY if day is not None else _Read.MONTH)
    return want if got == want else None


def _year(text: str) -> int:
    y = int(text)
    return y + (2000 if y <= 50 else 1900) if y < 100 else y


class _Taken:
    """The spans found so far: a later, less specific form skips what an earlier one took."""

    def __init__(self) -> None:
        self.spans: list[Span] = []

    def free(self, m: re.Match[str]) -> bool:
        return all(m.end() <= s.start_at or m.start() >= s.end_at for s in self.spans)

    def add(self, m: re.Match[str], first: date | None, last: date | None, start_at: int | None = None) -> None:
        if first is not None and last is not None:
            self.spans.append(Span(m.start() if start_at is None else start_at, m.end(), first, last))


def _days(question: str, today: date, taken: _Taken) -> None:
    """"5 Mar 2024", "March 5, 2024", "2024-03-05", "05/03/2024", "5.3.2024", "05-03-24" (day first)."""
    for pattern in (_DAY_NAMED, _NAMED_DAY, _ISO, _NUMERIC):
        for m in pattern.finditer(question):
            if taken.free(m):
                g = m.groupdict()
                month = _month(g["mon"]) if g.get("mon") else int(g["m"])
                text = m.group(0) if pattern is not _NUMERIC else f"{int(g['d'])}/{month}/{_year(g['y'])}"
                day = _checked(text, today, _year(g["y"]), month, int(g["d"]))
                taken.add(m, day, day)


def _months(question: str, today: date, taken: _Taken) -> None:
    """"Nov 2023", "November, 2023", "early March 2024", "03/2023"; "on 5 March", "in March", "last March"
    (the latest such day or month by today)."""
    for pattern in (_MONTH_YEAR, _MONTH_SHORT_YEAR, _NUM_MONTH_YEAR):
        for m in pattern.finditer(question):
            g = m.groupdict()
            month, year = _month(g["mon"]) if g.get("mon") else int(g["m"]), _year(g["y"])
            if not taken.free(m) or not 1 <= month <= 12 or (
                    pattern is _NUM_MONTH_YEAR and _CASE_NUMBER.search(question[max(0, m.start() - 15):m.start()])):
                continue
            first = _checked(f"{calendar.month_name[month]} {year}", today, year, month, None)
            last = _month_end(year, month)
            lo, hi = _PART_OF_MONTH.get(_norm(g.get("q")), (1, last.day))
            taken.add(m, first and first.replace(day=lo), last.replace(day=min(hi, last.day)))
    for pattern in (_DAY_MONTH, _ON_MONTH_DAY):
        for m in pattern.finditer(question):
            if taken.free(m):
                taken.add(m, *_day_without_year(int(m.group("d")), _month(m.group("mon")), today))
    for m in _MONTH_ALONE.finditer(question):
        if taken.free(m):
            cue = m.group("cue").lower()
            start_at = m.start() if cue in ("last", "this") else m.start("mon")
            taken.add(m, *_month_without_year(_month(m.group("mon")), today, strictly_before=cue == "last"),
                      start_at=start_at)


_YEAR_OF = re.compile(r"\b(?:my|his|her|our|their|its|the|a|an|this|that)\s+$", re.IGNORECASE)
_EVENT_AFTER = re.compile(
    r"\s+(?!(?:[\w-]+\s+){0,2}?(?:acts?|codes?|rules?|amendments?|sanhitas?|judge?ments?|verdicts?|rulings?|"
    r"decisions?)\b)(?:[\w-]+\s+){0,2}?(?:trials?|cases?|FIRs?|complaints?|arrests?|hearings?|appeals?|convictions?|"
    r"marriages?|weddings?|divorces?|accidents?|incidents?|theft|robbery|burglary|fraud|scam|assault|"
    r"attacks?|raids?|bail|charge-?sheets?|investigations?|inquiry|enquiry|petitions?|suits?|sale|purchase|agreements?|"
    r"loans?|notices?|proceedings?|prosecutions?|seizures?|detentions?|remand|summons|warrants?|dispute)\b",
    re.IGNORECASE)
"""A year that says which event a noun names ("my 2023 trial", "the 2021 FIR", "his 2019 conviction"), not which law
or which thing ("the 2013 Act", "the 2018 amendment", "my 2019 Honda City"), nor which court's ruling ("the 2018
Joseph Shine judgment" is the law's history, not the day of the facts)."""


_OVER = _i(r"\b(?:over|across)\s+(?:the\s+(?:course\s+of\s+|year\s+))?$")
_COUNTED = _i(r"\s+(?!(?:and|or|to|till|until|when|while|before|after|he|she|they|i|we|it|the|his|her|my|our|their|"
              r"in|on|at|by|for|from|with|without|through|itself)\b)[a-z]+")
"""A year the events fill told with "over" ("transferred company money to his account over 2022, and ..."), not a
number above which something is counted ("over 2000 workers", "over 2019 people", "over 2000 sq ft"): a word after
it that is no joint, pronoun or preposition is what was counted."""


def _years(question: str, today: date, taken: _Taken) -> None:
    """A year said as a time: "in 2023", "during 2022", "since 2021", "early 2023", "in the summer of 2023", "my
    2023 trial"."""
    for m in _YEAR.finditer(question):
        q = _norm(m.group("q"))
        cued = q or _TIME_CUE.search(question[max(0, m.start() - 40):m.start()]) or (
            _OVER.search(question[max(0, m.start() - 30):m.start()]) and not _COUNTED.match(question, m.end())) or (
            _YEAR_OF.search(question[max(0, m.start() - 10):m.start()]) and _EVENT_AFTER.match(question, m.end()))
        if not taken.free(m) or not cued:
            continue
        year = int(m.group("y"))
        season = q.removeprefix("the ").removesuffix(" of")
        lo, hi = _SEASONS[season] if season in _SEASONS else _PART_OF_YEAR.get(q, (1, 12))
        taken.add(m, date(year, lo, 1), _month_end(year, hi))


_OCCASIONS: dict[str, tuple[int, int]] = {
    "republic day": (1, 1), "independence day": (8, 8), "christmas": (12, 12), "new year": (1, 1),
    "makar sankranti": (1, 1), "sankranti": (1, 1), "pongal": (1, 1), "lohri": (1, 1), "holi": (3, 3),
    "raksha bandhan": (8, 8), "rakhi": (8, 8), "janmashtami": (8, 9), "ganesh chaturthi": (8, 9), "ganpati": (8, 9),
    "onam": (8, 9), "navratri": (9, 10), "durga puja": (9, 10), "dussehra": (10, 10), "dasara": (10, 10),
    "diwali": (10, 11), "deepavali": (10, 11), "chhath": (10, 11), "eid": (1, 12), "lockdown": (1, 12),
    "covid": (1, 12), "election": (1, 12), "elections": (1, 12), "ipl": (3, 5), "world cup": (1, 12),
}
"""Occasions people date a story by with the year after them ("Diwali 2023", "in Holi 2023", "during covid lockdown
2021", "at the Republic Day 2024 parade"), each with the months it falls in (a festival's day moves with the lunar
calendar within them; an occasion of no fixed month is the whole year)."""
_OCCASION_NAMES = "|".join(re.escape(o) for o in sorted(_OCCASIONS, key=len, reverse=True))
_OCCASION = _i(rf"\b(?P<o>{_OCCASION_NAMES})(?:\s+(?:of|in))?[\s-]+{_Y4}\b{_NOT_A_YEAR}")


_WHOSE = re.compile(r"\b(?:my|our|his|her|their|its|your)\s+$", re.IGNORECASE)
"""Before an occasion, a thing it names ("our Christmas 2022 photos", "my Diwali 2023 bonus"), not a time."""


def _occasions(question: str, today: date, taken: _Taken) -> None:
    """A year told by the occasion before it ("Diwali 2023"): the months the occasion falls in; not a thing the occasion
    names (``_WHOSE``)."""
    for m in _OCCASION.finditer(question):
        if _WHOSE.search(question[max(0, m.start() - 8):m.start()]):
            continue
        lo, hi = _OCCASIONS[_norm(m.group("o"))]
        year = int(m.group("y"))
        if taken.free(m) and date(year, lo, 1) <= today:
            taken.add(m, date(year, lo, 1), min(_month_end(year, hi), today))


def _absolute(question: str, today: date) -> list[Span]:
    """Days, months and years written out, most specific form first; a year told by an occasion with the occasion's
    months."""
    taken = _Taken()
    for find in (_days, _months, _occasions, _years):
        find(question, today, taken)
    return taken.spans


def _norm(text: str | None) -> str:
    return re.sub(r"\s+", " ", text.lower()) if text else ""


def _day_without_year(day: int, month: int, today: date) -> tuple[date | None, date | None]:
    """"on 5 March": the latest such day on or before today."""
    for year in (today.year, today.year - 1):
        try:
            d = date(year, month, day)
        except ValueError:
            continue
        if d <= today:
            return d, d
    return None, None


def _month_without_year(month: int, today: date, *, strictly_before: bool) -> tuple[date, date]:
    """"in March" is the latest March begun by today (up to today); "last March" the latest one before this
    month."""
    year = today.year if (month < today.month or (month == today.month and not strictly_before)) else today.year - 1
    return date(year, month, 1), min(_month_end(year, month), today)


def _relative(question: str, today: date, taken: list[tuple[int, int]]) -> list[Span]:
    """Dates counted from ``today``: "yesterday", "last year", "two years back", "a year and a half ago"."""
    spans: list[Span] = []

    def free(m: re.Match[str]) -> bool:
        return all(m.end() <= a or m.start() >= b for a, b in taken)

    for m in _RELATIVE_DAY.finditer(question):
        w = _norm(m.group("w"))
        back = 2 if "before" in w else 1 if w in ("yesterday", "last night") else 0
        spans.append(Span(m.start(), m.end(), today - timedelta(days=back), today - timedelta(days=back)))
    for m in _RELATIVE_UNIT.finditer(question):
        w, unit = m.group("w").lower(), m.group("u").lower()
        if not free(m):
            continue
        if unit == "year":
            year = today.year - (w != "this")
            first, last = date(year, 1, 1), date(year, 12, 31)
        elif unit == "month":
            anchor = today if w == "this" else today.replace(day=1) - timedelta(days=1)
            first, last = anchor.replace(day=1), _month_end(anchor.year, anchor.month)
        else:
            monday = today - timedelta(days=today.weekday()) - timedelta(weeks=w != "this")
            first, last = monday, monday + timedelta(days=6)
        spans.append(Span(m.start(), m.end(), first, min(last, today)))
    for m in _AGO.finditer(question):
        if not free(m):
            continue
        unit = m.group("u").lower()
        n_text = _norm(m.group("n")) if m.group("n") else "1"
        count = float(_WORD_NUM.get(n_text, 0) or int(n_text)) + (0.5 if (m.group("half1") or m.group("half2")
                                                                           or "half" in m.group(0)) else 0)
        months = round(count * 12) if unit == "year" else round(count) if unit == "month" else 0
        days = round(count * 7) if unit == "week" else round(count) if unit == "day" else 0
        words = f"{months} months ago" if months else f"{days} days ago"
        centre = _parse(words, today, _Read.RELATIVE)
        if centre is None:
            continue
        # an approximate time: half a unit either way ("two years back" is not a day)
        width = relativedelta(months=6) if unit == "year" else relativedelta(days=15) if unit == "month" else \
            relativedelta(days=3) if unit == "week" else relativedelta()
        if "few" in n_text:
            width = relativedelta(months=months // 3 * 2) if months else relativedelta(days=days // 3 * 2)
        spans.append(Span(m.start(), m.end(), centre - width, min(centre + width, today)))
    for m in _RECENTLY.finditer(question):
        spans.append(Span(m.start(), m.end(), today - relativedelta(months=6), today))
    return spans


def _modified(question: str, span: Span, today: date) -> Span:
    """A span read with the word before it: "since 2022" continues, "before 1 July 2024" is a bound ending the
    day before, "after March 2024" runs to today, "until/by March 2024" is a bound ending with it."""
    m = _MODIFIER.search(question, max(0, span.start_at - 20), span.start_at)
    if m is None or m.end() != span.start_at:
        return span
    word = _norm(m.group("m"))
    if word in ("since", "ever since", "from"):
        return Span(m.start(), span.end_at, span.first, span.last, ongoing=True)
    if word in ("before", "prior to"):
        return Span(m.start(), span.end_at, OPEN_START, span.first - timedelta(days=1))
    if word == "after":
        return Span(m.start(), span.end_at, span.last + timedelta(days=1), max(today, span.last + timedelta(days=1)))
    return Span(m.start(), span.end_at, OPEN_START, span.last)


_RANGE_OPEN = _i(r"\b(?:between|from)\s+(?:the\s+(?:years?\s+)?)?$")
_RANGE_GAP = _i(r"\s*(?:and|to|till|until|-|–)\s*(?:the\s+)?")


def _ranges(question: str, spans: list[Span]) -> list[Span]:
    """"between 2020 and 2022", "from March 2023 to June 2023": one span from the first's start to the
    second's end (a "from" alone is a start: "since")."""
    spans = sorted(spans, key=lambda s: s.start_at)
    out: list[Span] = []
    i = 0
    while i < len(spans):
        s = spans[i]
        opened = _RANGE_OPEN.search(question, max(0, s.start_at - 20), s.start_at)
        if (opened and opened.end() == s.start_at and i + 1 < len(spans)
                and _RANGE_GAP.fullmatch(question, s.end_at, spans[i + 1].start_at)
                and s.first <= spans[i + 1].last):
            out.append(Span(opened.start(), spans[i + 1].end_at, s.first, spans[i + 1].last))
            i += 2
            continue
        out.append(s)
        i += 1
    return out


def told_by_date_before(phrase: str) -> bool:
    """``phrase`` is a time told by the date before it ("the same month", "two days later"): see ``_anaphoric``."""
    return bool(_ANAPHORIC.fullmatch(phrase.strip()))


def _anaphoric(question: str, spans: list[Span], today: date) -> list[Span]:
    """Times told by the nearest date written before them (``_ANAPHORIC``), itself perhaps one so told: "in November
    2023 I paid ... the FIR was registered the same month" dates the FIR November 2023; "two months later" moves that
    date on by two months, "the next day" by one day. "The same year" of a date within one year is that year, "the
    same month" of a date within one month that month; of a longer date (a range, "two years back") the date itself,
    which bounds it. A bound ("before 1 July 2024") tells no day to count from: a time after it stays unread, as does
    one counted past ``today``."""
    out: list[Span] = []
    for m in _ANAPHORIC.finditer(question):
        if any(not (m.end() <= s.start_at or m.start() >= s.end_at) for s in spans):
            continue
        before = [s for s in (*spans, *out) if s.end_at <= m.start()]
        if not before:
            continue
        anchor = max(before, key=lambda s: s.end_at)
        if anchor.first == OPEN_START:
            continue
        unit = (m.group("u1") or m.group("u2") or m.group("u3")).lower()
        first, last = anchor.first, anchor.last
        if m.group("same"):
            if unit == "year" and first.year == last.year:
                first, last = date(first.year, 1, 1), date(first.year, 12, 31)
            elif unit == "month" and (first.year, first.month) == (last.year, last.month):
                first, last = first.replace(day=1), _month_end(first.year, first.month)
        else:
            n_text = _norm(m.group("n")) if m.group("n") else "1"
            n = _WORD_NUM.get(n_text, 0) or int(n_text)
            step = {"day": relativedelta(days=n), "week": relativedelta(weeks=n), "month": relativedelta(months=n),
                    "year": relativedelta(years=n)}[unit]
            whole_months = first.day == 1 and last == _month_end(last.year, last.month)
            first, last = first + step, last + step
            if unit in ("month", "year") and whole_months:  # a month on from November is all of December
                last = _month_end(last.year, last.month)
        if first > today:
            continue
        out.append(Span(m.start(), m.end(), first, min(last, today)))
    return out


def find_spans(question: str, today: date) -> list[Span]:
    """The date words of ``question`` as spans of days, in the order written, none overlapping: the new laws'
    commencement as a bound, then days, months and years written out (ranges joined), then dates counted from
    ``today``; each read with the word before it ("since", "before", "after", "until"); last, the times told by the
    date before them ("the same month", "two days later")."""
    bounds = [Span(m.start(), m.end(), OPEN_START, CUTOVER - timedelta(days=1)) for m in _NEW_LAWS.finditer(question)]
    taken = [(s.start_at, s.end_at) for s in bounds]
    absolute = [s for s in _absolute(question, today)
                if all(s.end_at <= a or s.start_at >= b for a, b in taken)]
    taken += [(s.start_at, s.end_at) for s in absolute]
    found = bounds + [_modified(question, s, today) for s in _ranges(question, absolute)
                      + _relative(question, today, taken)]
    found.sort(key=lambda s: s.start_at)
    out: list[Span] = []
    for s in found:  # "from" in "from 2019" and a span inside another: keep the first
        if not out or s.start_at >= out[-1].end_at:
            out.append(s)
    out = _closed_from(question, out)
    return sorted(out + _anaphoric(question, out, today), key=lambda s: s.start_at)


_FROM = _i(r"from\b")
_TILL = _i(r"\b(?:till|until|untill|up\s+to|upto)\b")


def _closed_from(question: str, spans: list[Span]) -> list[Span]:
    """"from 2021 till she left their home in March 2024": a span opened by "from" and closed, in its sentence, by a
    later date after "till" ("until", "up to"; not a bare "to": "harassing me to bring more dowry") runs to that
    date's end; it is not going on. The closing date stays a span of its own (it dates what its clause tells)."""
    out = list(spans)
    for i, s in enumerate(out):
        if not (s.ongoing and _FROM.match(question, s.start_at)) or i + 1 >= len(out):
            continue
        nxt = out[i + 1]
        between = question[s.end_at:nxt.start_at]
        if (len(between) <= 80 and not re.search(r"[.!?;]", between) and _TILL.search(between)
                and nxt.first != OPEN_START and nxt.last >= s.first):
            out[i] = Span(s.start_at, s.end_at, s.first, nxt.last)
    return out
