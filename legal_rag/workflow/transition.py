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
from datetime import date, timedelta

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
    old = bool(_OLD_TIME.search(question)) or any(d < CUTOVER for d in dates_in(question))
    return as_of >= CUTOVER and bool(_PENDING.search(question)) and old


def savings_for(question: str, as_of: str) -> list[tuple[str, str]]:
    """The savings provisions a question about a matter pending across 2024-07-01 needs: BNSS 531 for
    procedure, BNS 358 for offences, BSA 170 for evidence (both of the first two when it says neither)."""
    if not pending_across_cutover(question, as_of):
        return []
    out = [SAVINGS[k] for k, pat in (("procedure", _PROCEDURE), ("offence", _OFFENCE), ("evidence", _EVIDENCE))
           if pat.search(question)]
    return out or [SAVINGS["procedure"], SAVINGS["offence"]]


_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
          r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?")
_YEAR = r"(?:19|20)\d\d"
_DATE = re.compile(
    rf"\b(?:(?P<day>[0-3]?\d)(?:st|nd|rd|th)?\s+(?:of\s+)?)?(?P<month>{_MONTH}),?\s+(?:(?P<day2>[0-3]?\d)(?:st|nd|rd|th)?,?"
    rf"\s+)?(?P<year>{_YEAR})\b"
    r"|\b(?P<d>[0-3]?\d)[./-](?P<m>[01]?\d)[./-](?P<y>(?:19|20)?\d\d)\b"
    rf"|\b(?P<iy>{_YEAR})-(?P<im>[01]\d)-(?P<id>[0-3]\d)\b"
    rf"|(?P<pre>(?:\b(?:Rs|INR|AIR|of|No)\.?|[₹(,\[])\s*)?\b(?P<bare>{_YEAR})\b(?P<post>\s*\)|\s*(?:SCC|SCR|Cri|"
    r"\(\d+\))\b)?",
    re.IGNORECASE,
)
"""A date in a question. A bare year counts unless it is an amount ("Rs 2000"), part of an Act's title or number
("Bharatiya Nyaya Sanhita, 2023", "45 of 1860") or of a law report citation ("(2014) 8 SCC 273", "AIR 1973")."""
_BEFORE_CUTOVER = re.compile(
    r"\b(?:before|prior\s+to)\s+(?:the\s+)?(?:(?:1(?:st)?|first)\s+(?:of\s+)?july,?\s+2024|july\s+1(?:st)?,?\s+2024|"
    r"0?1[./-]0?7[./-](?:20)?24|(?:the\s+)?(?:BNS|Bharatiya\s+Nyaya\s+Sanhita|new\s+(?:criminal\s+)?(?:laws?|codes?)"
    r"|new\s+Sanhitas?)\s+(?:came|come|coming)\s+into\s+force)\b",
    re.IGNORECASE,
)
_CLAUSE = re.compile(r"[;.?!]\s|,?\s+\b(?:but|and|while|whereas|although|though|when|after|before)\b\s+", re.IGNORECASE)
_OFFENCE_EVENT = re.compile(
    r"\b(?:committed|cheated|cheating|stole|stolen|stealing|theft|robbed|robbery|looted|killed|murdered|murder|"
    r"stabbed|shot|assaulted|attacked|beat|beaten|raped|kidnapped|abducted|forged|defrauded|duped|"
    r"misappropriated|embezzled|threatened|extorted|molested|harassed|stalked|trespassed|broke\s+into|burgled|"
    r"induced|deceived|"
    r"set\s+fire|defamed|bribe|hacked|occurred|took\s+place|happened|incident|offence)\b",
    re.IGNORECASE,
)
"""Words that tell of an offence done ("cheated him", "the incident took place"): with ``_OFFENCE``'s, what makes a
question's dates candidates for the day of an offence."""
_PROCEEDING = re.compile(
    r"\b(?:FIR|complaint|lodged|registered|filed|trial|charge-?sheet(?:ed)?|arrested|hearing|appeal|bail|summon\w*|"
    r"investigation|convicted|acquitted|sentenced|married|born|joined|known|met|bought|purchased|rented|hired|"
    r"employed|appointed|retired|released|parole)\b",
    re.IGNORECASE,
)
"""Words that date something else: a proceeding ("the FIR was lodged in August 2024") or a life event."""


def dates_in(question: str) -> list[str]:
    """The dates a question gives, as ISO days; a month or a year alone is read as its last day ("March 2024" ->
    2024-03-31, "in 2023" -> 2023-12-31, "15.03.2024" and "March 15, 2024" -> 2024-03-15, "15.03.24" likewise).
    Years that are amounts, Act titles or report citations are not dates (``_DATE``)."""
    out: list[str] = []
    for m in _DATE.finditer(question):
        g = m.groupdict()
        if g["bare"] and (g["pre"] or g["post"]):
            continue
        try:
            if g["month"]:
                year, month = int(g["year"]), _MONTHS[g["month"].lower()[:3]]
                day_text = g["day"] or g["day2"]
                day = int(day_text) if day_text else calendar.monthrange(year, month)[1]
            elif g["y"]:
                year, month, day = int(g["y"]), int(g["m"]), int(g["d"])
                year += 2000 if year < 100 else 0
            elif g["iy"]:
                year, month, day = int(g["iy"]), int(g["im"]), int(g["id"])
            else:
                year, month, day = int(g["bare"]), 12, 31
            date(year, month, day)
        except (ValueError, KeyError):
            continue
        out.append(f"{year:04d}-{month:02d}-{day:02d}")
    return out


_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_abbr) if m}


def offence_date(question: str, as_of: str) -> str | None:
    """The day an offence was committed, for facts on or after 2024-07-01 about an offence committed before:
    the latest date of a question about an offence, in the clauses that do not date a proceeding or a life event
    ("he cheated my client in March 2024, but the FIR was lodged in August 2024" -> 2024-03-31), or 2024-06-30
    when it says only "before 1 July 2024". The IPC governs
    such an offence (BNS 358(2)); the BNS, which cannot punish an act done before it came into force, does not.

    None unless the question dates the offence itself before 2024-07-01: a clause that dates a proceeding or a
    life event ("the FIR was lodged", "married in 2015") is not read, an offence clause with a date on or after
    2024-07-01 ("known him since 2019, he cheated me in October 2024") means the new code, and naming the IPC
    ("an FIR under section 420 IPC in 2025") dates nothing. The day is when the offence was last done, which is
    what decides the code."""
    if as_of < CUTOVER or not (_OFFENCE_EVENT.search(question) or _OFFENCE.search(question)):
        return None
    if _BEFORE_CUTOVER.search(question):
        return (date.fromisoformat(CUTOVER) - timedelta(days=1)).isoformat()
    days = [d for clause in _CLAUSE.split(question) if not _PROCEEDING.search(clause) for d in dates_in(clause)]
    if not days or max(days) >= CUTOVER:
        return None
    return max(days)
