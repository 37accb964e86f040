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
    """Facts dated on or after 2024-07-01 about a matter that began under the old codes, or an offence the
    question dates before 2024-07-01 (``offence_date``)."""
    if as_of < CUTOVER:
        return False
    if offence_date(question, as_of) is not None:
        return True
    return bool(_PENDING.search(question)) and bool(_OLD_TIME.search(question))


def savings_for(question: str, pending: bool) -> list[tuple[str, str]]:
    """The savings provisions a question about a matter pending across 2024-07-01 (``pending``, from
    ``pending_across_cutover``) needs: BNSS 531 for procedure, BNS 358 for offences, BSA 170 for evidence (both of
    the first two when it says neither)."""
    if not pending:
        return []
    out = [SAVINGS[k] for k, pat in (("procedure", _PROCEDURE), ("offence", _OFFENCE), ("evidence", _EVIDENCE))
           if pat.search(question)]
    return out or [SAVINGS["procedure"], SAVINGS["offence"]]


_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
          r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?")
_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_abbr) if m}
_YEAR = r"(?:19|20)\d\d"
_DATE = re.compile(
    rf"\b(?:(?P<day>[0-3]?\d)(?:st|nd|rd|th)?\s+(?:of\s+)?)?(?P<month>{_MONTH}),?\s+(?:(?P<day2>[0-3]?\d)(?:st|nd|rd|th)?,?"
    rf"\s+)?(?P<year>{_YEAR})\b"
    r"|\b(?P<d>[0-3]?\d)[./-](?P<m>[01]?\d)[./-](?P<y>(?:19|20)?\d\d)\b"
    rf"|\b(?P<iy>{_YEAR})-(?P<im>[01]\d)-(?P<id>[0-3]\d)\b"
    rf"|\b(?:in|during)\s+(?:the\s+year\s+|(?:early|late|mid)[\s-]+)?(?P<bare>{_YEAR})\b(?!\s*(?:-\s*\d|hrs|hours|batch))",
    re.IGNORECASE,
)
"""A date in a question: a day, a month ("March 2024"), or a year said as a time ("in 2023", "during 2022"). A year
any other way is no date: an Act's title ("BNS 2023", "Bharatiya Nyaya Sanhita, 2023"), an amount ("Rs 2000"), a
report citation ("(2014) 8 SCC 273"), a model or a batch ("my 2019 Honda City", "a 2016-batch officer")."""
_BEFORE_CUTOVER = re.compile(
    r"\b(?:before|prior\s+to)\s+(?:the\s+)?(?:(?:1(?:st)?|first)\s+(?:of\s+)?july,?\s+2024|july\s+1(?:st)?,?\s+2024|"
    r"0?1[./-]0?7[./-](?:20)?24|(?:the\s+)?(?:BNS|Bharatiya\s+Nyaya\s+Sanhita|new\s+(?:criminal\s+)?(?:laws?|codes?)"
    r"|new\s+Sanhitas?)\s+(?:came|come|coming)\s+into\s+force)\b",
    re.IGNORECASE,
)
_CLAUSE = re.compile(r"[;.?!:]\s|,?\s+\b(?:but|and|while|whereas|although|though)\b\s+", re.IGNORECASE)
_OFFENCE_EVENT = re.compile(
    r"\b(?:committ\w*|cheat\w*|stole\w*|steal\w*|theft|robb\w*|looted|kill\w*|murder\w*|stabb\w*|shot|assault\w*|"
    r"attack\w*|beat\w*|rap(?:e|ed)|kidnap\w*|abduct\w*|forg(?:ed|ery)|defraud\w*|dup(?:ed|ing)|misappropriat\w*|"
    r"embezzl\w*|threaten\w*|extort\w*|molest\w*|harass\w*|stalk\w*|trespass\w*|broke\s+into|burgl\w*|induc\w*|"
    r"deceiv\w*|set\s+fire|defam\w*|bribe\w*|hack\w*|occurred|took\s+place|happened|incident|offences?|"
    r"pretend\w*|impersonat\w*|swindl\w*|conned|scamm\w*|snatch\w*|smash\w*|vandali[sz]\w*|slapp\w*|punch\w*|"
    r"grop\w*)\b",
    re.IGNORECASE,
)
"""Words that tell of an offence done ("cheated him", "the incident took place"): a date is the offence's only in
a clause with one of them."""
_OTHER_EVENT = re.compile(
    r"\b(?:FIR|complaint|lodged|registered|filed|trial|charge-?sheet\w*|arrest\w*|hearing|appeal|bail|summon\w*|"
    r"investigation|convict\w*|acquitt\w*|sentenc\w*|(?:previous|prior|earlier|past|old)\s+(?:case|offence|crime|"
    r"incident|theft|conviction|record)s?|history|record|married|marriage|born|"
    r"birth|joined|known|met|bought|purchased|owned|rented|hired|employed|worked|appointed|retired|released|parole|"
    r"enacted|passed|notified|amended|introduced|came\s+into\s+force|judgment|decided|reported)\b",
    re.IGNORECASE,
)
"""Words that date something else in the same clause: a proceeding ("the FIR was lodged in August 2024"), a past
conviction, a life event ("married in 2015", "owned it since 2021") or a law ("the BNS, enacted in December 2023")."""
_ONGOING = re.compile(
    r"\b(?:yesterday|today|tonight|last\s+(?:night|week|month|year)|this\s+(?:morning|week|month|year)|recently|"
    r"since|till\s+date|to\s+date|till\s+now|until\s+now|so\s+far|still|ongoing|continu\w*|has\s+been|have\s+been|"
    r"keeps|kept\s+on)\b",
    re.IGNORECASE,
)
"""Words that place the offence near the day of the facts or make it a continuing one: the new code's."""


def dates_in(question: str) -> list[str]:
    """The dates a question gives (``_DATE``), as ISO days; a month or a year alone is read as its last day
    ("March 2024" -> 2024-03-31, "in 2023" -> 2023-12-31, "15.03.2024" and "March 15, 2024" -> 2024-03-15,
    "15.03.24" likewise; a two-digit year is this century's up to 50)."""
    out: list[str] = []
    for m in _DATE.finditer(question):
        g = m.groupdict()
        try:
            if g["month"]:
                year, month = int(g["year"]), _MONTHS[g["month"].lower()[:3]]
                day_text = g["day"] or g["day2"]
                day = int(day_text) if day_text else calendar.monthrange(year, month)[1]
            elif g["y"]:
                year, month, day = int(g["y"]), int(g["m"]), int(g["d"])
                if year < 100:
                    year += 2000 if year <= 50 else 1900
            elif g["iy"]:
                year, month, day = int(g["iy"]), int(g["im"]), int(g["id"])
            else:
                year, month, day = int(g["bare"]), 12, 31
            date(year, month, day)
        except (ValueError, KeyError):
            continue
        out.append(f"{year:04d}-{month:02d}-{day:02d}")
    return out


def offence_date(question: str, as_of: str) -> str | None:
    """The day an offence was committed, for facts on or after 2024-07-01 about an offence the question itself
    dates before that day: "he cheated my client in March 2024, but the FIR was lodged in August 2024" ->
    2024-03-31; "the theft was committed before 1 July 2024" -> 2024-06-30. The IPC governs such an offence
    (BNS 358(2)); the BNS, which cannot punish an act done before it came into force, does not.

    Wrongly dating an offence before the new codes would report a repealed IPC section verified and flag the
    right BNS one, so every doubt means None (the new code, as for any later facts): a date counts only in a
    clause that tells of the offence and dates nothing else (``_OTHER_EVENT``); any date on or after 2024-07-01 in
    such a clause, or a recent or continuing offence (``_ONGOING``: "yesterday", "since 2022", "has been
    harassing"), means None; naming the IPC dates nothing. The day is the latest the clauses give."""
    if as_of < CUTOVER or _ONGOING.search(question):
        return None
    clauses = [c for c in _CLAUSE.split(question) if _OFFENCE_EVENT.search(c)]
    dated = [(c, dates_in(_BEFORE_CUTOVER.sub(" ", c))) for c in clauses]  # "before 1 July 2024" is no day
    if any(d >= CUTOVER for _, days in dated for d in days):
        return None
    told = [(c, ds) for c, ds in dated if not _OTHER_EVENT.search(c)]
    if any(not ds and not _BEFORE_CUTOVER.search(c) and not c.rstrip().endswith("?") for c, ds in told):
        return None  # an offence told without a date may be today's ("her husband now threatens to kill me")
    days = [d for _, ds in told for d in ds]
    if days:
        return max(days)
    if any(_BEFORE_CUTOVER.search(c) and not _OTHER_EVENT.search(c) for c in clauses):
        return (date.fromisoformat(CUTOVER) - timedelta(days=1)).isoformat()
    return None
