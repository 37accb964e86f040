"""Matters pending across 2024-07-01: which repeal-and-savings provision governs them.

When the BNS, BNSS and BSA replaced the IPC, CrPC and Evidence Act, each new code repealed the old one and
saved what was pending: BNSS 531(2)(a) keeps a pending appeal, application, trial, inquiry or investigation
under the CrPC; BNS 358(2) keeps the IPC for offences committed before the repeal; BSA 170(2) keeps what was
done under the Evidence Act. A question about such a matter is answered correctly only if the answer cites
the savings provision as well as the substantive one, so the workflow brings it in whatever retrieval found.
"""

from __future__ import annotations

import re
from datetime import date

from graph_schema.model import NEW_CRIMINAL_CODES_IN_FORCE as CUTOVER
from legal_rag.workflow.dates import offence_day, pending_since, read_dates
from verification.check.existence import PENAL_CODE
from verification.check.existence import SAVINGS as EXISTENCE_SAVINGS

SAVINGS = {topic: EXISTENCE_SAVINGS[old] for topic, old in (("procedure", "CRPC"), ("offence", PENAL_CODE),
                                                              ("evidence", "IEA"))}
"""The savings provision by what the matter is about (BNSS 531, BNS 358, BSA 170), from the checker's table."""

_PENDING = re.compile(
    r"\b(pending|still|continu\w*|began|begun|commenced|transition\w*|savings?|repeal\w*|came into force|"
    r"before (?:the )?(?:1(?:st)? |first )?july,? 2024|committed|filed|lodged|registered|instituted|arrested)\b",
    re.IGNORECASE,
)
_OLD_CODE = re.compile(
    r"\b(?:IPC|CrPC|Cr\.P\.C\.?|Indian Penal Code|Code of Criminal Procedure|Evidence Act|IEA)\b", re.IGNORECASE)
"""The old codes named: a pending matter that names them is one begun under them, dated or not."""
_PROCEDURE = re.compile(
    r"\b(trial|appeal|revision|bail|investigation|inquiry|FIR|charge-?sheet|proceedings?|CrPC|Cr\.P\.C|"
    r"Criminal Procedure|BNSS|procedur\w*|court|hearing|complaint|warrant|summons)\b", re.IGNORECASE)
_OFFENCE = re.compile(
    r"\b(IPC|Penal Code|BNS\b|offences?|punish\w*|sentenc\w*|convict\w*|committed|murder|theft|cheat\w*|"
    r"charged?)\b", re.IGNORECASE)
_EVIDENCE = re.compile(r"\b(evidence|Evidence Act|IEA|BSA|witness\w*|admissib\w*|proof|confession)\b", re.IGNORECASE)


def pending_across_cutover(question: str, as_of: str) -> bool:
    """Facts dated on or after 2024-07-01 about a matter that began under the old codes: an offence the question
    dates before 2024-07-01 (``dates.offence_day``), a proceeding it dates as begun before then
    (``dates.pending_since``), or a pending matter told under the old codes' names ("an appeal under section 374
    CrPC is still pending")."""
    today = _day(as_of)
    if today < date.fromisoformat(CUTOVER):
        return False
    events = read_dates(question, today)
    if offence_day(events, today) is not None or pending_since(events, today) is not None:
        return True
    return named_pending(question)


_STILL_PENDING = re.compile(r"\b(?:pending|still\s+(?:going\s+on|on|under\s+way|being\s+\w+)|continu\w*|began|begun|"
                            r"commenced|under\s+trial|undertrial)\b", re.IGNORECASE)


def named_pending(question: str) -> bool:
    """A pending matter told under the old codes' names, dated or not ("an appeal under section 374 CrPC is
    still pending"): words that say it is pending, not words any proceeding has ("registered", "filed", which a
    matter begun yesterday under a wrongly named code has too)."""
    return bool(_STILL_PENDING.search(question)) and bool(_OLD_CODE.search(question))


def savings_for(question: str, pending: bool) -> list[tuple[str, str]]:
    """The savings provisions a question about a matter pending across 2024-07-01 (``pending``, from
    ``pending_across_cutover``) needs: BNSS 531 for procedure, BNS 358 for offences, BSA 170 for evidence (both of
    the first two when it says neither)."""
    if not pending:
        return []
    out = [SAVINGS[k] for k, pat in (("procedure", _PROCEDURE), ("offence", _OFFENCE), ("evidence", _EVIDENCE))
           if pat.search(question)]
    return out or [SAVINGS["procedure"], SAVINGS["offence"]]


def _day(as_of: str) -> date:
    try:
        return date.fromisoformat(as_of)
    except ValueError as exc:
        raise ValueError(f"as_of must be an ISO date (YYYY-MM-DD), got {as_of!r}") from exc


def dates_in(question: str) -> list[str]:
    """The dates a question writes (``dates.read_dates``), in the order written, each as the last day of its
    span ("March 2024" -> 2024-03-31, "in 2023" -> 2023-12-31, "15.03.24" -> 2024-03-15, "before 1 July 2024"
    -> 2024-06-30); relative dates ("two years back") count from the system's today."""
    return [e.end.isoformat() for e in read_dates(question, date.today()) if e.phrase]


def offence_date(question: str, as_of: str) -> str | None:
    """The day an offence was committed, for facts on or after 2024-07-01 about an offence the question itself
    dates before that day: "he cheated my client in March 2024, but the FIR was lodged in August 2024" ->
    2024-03-31; "the theft was committed before 1 July 2024" -> 2024-06-30. The IPC governs such an offence
    (BNS 358(2)); the BNS, which cannot punish an act done before it came into force, does not.

    Wrongly dating an offence before the new codes would report a repealed IPC section verified and flag the
    right BNS one, so every doubt means None (``dates.offence_day``): a date counts only for the event its clause
    tells; an offence dated on or after 2024-07-01, a continuing one ("since 2022", "has been harassing") or one
    told without a date means None; naming the IPC dates nothing."""
    today = _day(as_of)
    day = offence_day(read_dates(question, today), today)
    return day.isoformat() if day is not None else None
