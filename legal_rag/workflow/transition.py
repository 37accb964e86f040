"""Matters pending across 2024-07-01: which repeal-and-savings provision governs them.

When the BNS, BNSS and BSA replaced the IPC, CrPC and Evidence Act, each new code repealed the old one and
saved what was pending: BNSS 531(2)(a) keeps a pending appeal, application, trial, inquiry or investigation
under the CrPC; BNS 358(2) keeps the IPC for offences committed before the repeal; BSA 170(2) keeps what was
done under the Evidence Act. A question about such a matter is answered correctly only if the answer cites
the savings provision as well as the substantive one, so the workflow brings it in whatever retrieval found.
"""

from __future__ import annotations

import calendar
import re

from graph_schema.model import NEW_CRIMINAL_CODES_IN_FORCE as CUTOVER

SAVINGS = {"procedure": ("BNSS", "531"), "offence": ("BNS", "358"), "evidence": ("BSA", "170")}

_PENDING = re.compile(
    r"\b(pending|still|continu\w*|began|begun|commenced|transition\w*|savings?|repeal\w*|came into force|"
    r"before (?:the )?(?:1(?:st)? |first )?july,? 2024|committed|filed|lodged|registered|instituted|arrested)\b",
    re.IGNORECASE,
)
_OLD_TIME = re.compile(
    r"\b(?:19\d\d|20(?:0\d|1\d|2[0-3]))\b|\b(?:jan\w*|feb\w*|mar\w*|apr\w*|may|june?)\s*,?\s*2024\b|"
    r"\b(?:IPC|CrPC|Cr\.P\.C\.?|Indian Penal Code|Code of Criminal Procedure|Evidence Act|IEA)\b|"
    r"\bbefore (?:the )?(?:1(?:st)? |first )?july,? 2024\b",
    re.IGNORECASE,
)
_PROCEDURE = re.compile(
    r"\b(trial|appeal|revision|bail|investigation|inquiry|FIR|charge-?sheet|proceedings?|CrPC|Cr\.P\.C|"
    r"Criminal Procedure|BNSS|procedur\w*|court|hearing|complaint|warrant|summons)\b", re.IGNORECASE)
_OFFENCE = re.compile(
    r"\b(IPC|Penal Code|BNS\b|offences?|punish\w*|sentenc\w*|convict\w*|committed|murder|theft|cheat\w*|"
    r"charged?)\b", re.IGNORECASE)
_EVIDENCE = re.compile(r"\b(evidence|Evidence Act|IEA|BSA|witness\w*|admissib\w*|proof|confession)\b", re.IGNORECASE)


def pending_across_cutover(question: str, as_of: str) -> bool:
    """Facts dated on or after 2024-07-01 about a matter that began under the old codes."""
    return as_of >= CUTOVER and bool(_PENDING.search(question)) and bool(_OLD_TIME.search(question))


def savings_for(question: str, as_of: str) -> list[tuple[str, str]]:
    """The savings provisions a question about a matter pending across 2024-07-01 needs: BNSS 531 for
    procedure, BNS 358 for offences, BSA 170 for evidence (both of the first two when it says neither)."""
    if not pending_across_cutover(question, as_of):
        return []
    out = [SAVINGS[k] for k, pat in (("procedure", _PROCEDURE), ("offence", _OFFENCE), ("evidence", _EVIDENCE))
           if pat.search(question)]
    return out or [SAVINGS["procedure"], SAVINGS["offence"]]


_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_abbr) if m}
_DATE = re.compile(
    r"\b(?:(?P<day>[0-3]?\d)(?:st|nd|rd|th)?\s+(?:of\s+)?)?(?P<month>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
    r"[a-z]*\.?,?\s+(?P<year>(?:19|20)\d\d)\b"
    r"|\b(?P<d>[0-3]?\d)[./-](?P<m>[01]?\d)[./-](?P<y>(?:19|20)\d\d)\b"
    r"|\b(?P<iy>(?:19|20)\d\d)-(?P<im>[01]\d)-(?P<id>[0-3]\d)\b"
    r"|\b(?P<bare>(?:19|20)\d\d)\b",
    re.IGNORECASE,
)
_BEFORE_CUTOVER = re.compile(
    r"\bbefore\s+(?:the\s+)?(?:1(?:st)?\s+|first\s+)?july,?\s+2024\b|\bbefore\s+(?:the\s+)?(?:BNS|Bharatiya\s+Nyaya\s+"
    r"Sanhita|new\s+(?:criminal\s+)?(?:laws?|codes?))\s+(?:came|come|coming)\s+into\s+force\b",
    re.IGNORECASE,
)


def dates_in(question: str) -> list[str]:
    """The dates a question gives, as ISO days; a month or a year alone is read as its last day ("March 2024" ->
    2024-03-31, "in 2023" -> 2023-12-31, "15.03.2024" -> 2024-03-15)."""
    out: list[str] = []
    for m in _DATE.finditer(question):
        g = m.groupdict()
        try:
            if g["month"]:
                year, month = int(g["year"]), _MONTHS[g["month"].lower()[:3]]
                day = int(g["day"]) if g["day"] else calendar.monthrange(year, month)[1]
            elif g["y"]:
                year, month, day = int(g["y"]), int(g["m"]), int(g["d"])
            elif g["iy"]:
                year, month, day = int(g["iy"]), int(g["im"]), int(g["id"])
            else:
                year, month, day = int(g["bare"]), 12, 31
            out.append(f"{year:04d}-{month:02d}-{day:02d}" if 1 <= day <= calendar.monthrange(year, month)[1]
                       else "")
        except (ValueError, calendar.IllegalMonthError):
            continue
    return [d for d in out if d]


def offence_date(question: str, as_of: str) -> str | None:
    """The day an offence was committed, for facts on or after 2024-07-01 about an offence committed before:
    the latest date before 2024-07-01 the question gives ("cheated him in March 2024; the FIR was lodged in
    August 2024" -> 2024-03-31), or 2024-06-30 when it says only "before 1 July 2024". The IPC governs such an
    offence (BNS 358(2)); the BNS, which cannot punish an act done before it came into force, does not. None
    when the question gives no such date: naming the IPC alone ("an FIR under section 420 IPC in 2025") does
    not date the offence."""
    if as_of < CUTOVER or not _OFFENCE.search(question) or not _PENDING.search(question):
        return None
    before = [d for d in dates_in(question) if d < CUTOVER]
    if before:
        return max(before)
    return _last_old_day() if _BEFORE_CUTOVER.search(question) else None


def _last_old_day() -> str:
    y, m, d = (int(x) for x in CUTOVER.split("-"))
    if d > 1:
        return f"{y:04d}-{m:02d}-{d - 1:02d}"
    if m > 1:
        return f"{y:04d}-{m - 1:02d}-{calendar.monthrange(y, m - 1)[1]:02d}"
    return f"{y - 1:04d}-12-31"
