"""Matters pending across 2024-07-01: which repeal-and-savings provision governs them.

When the BNS, BNSS and BSA replaced the IPC, CrPC and Evidence Act, each new code repealed the old one and
saved what was pending: BNSS 531(2)(a) keeps a pending appeal, application, trial, inquiry or investigation
under the CrPC; BNS 358(2) keeps the IPC for offences committed before the repeal; BSA 170(2) keeps what was
done under the Evidence Act. A question about such a matter is answered correctly only if the answer cites
the savings provision as well as the substantive one, so the workflow brings it in whatever retrieval found.
"""

from __future__ import annotations

import re

from verification.check.existence import PENAL_CODE
from verification.check.existence import SAVINGS as EXISTENCE_SAVINGS

SAVINGS = {topic: EXISTENCE_SAVINGS[old] for topic, old in (("procedure", "CRPC"), ("offence", PENAL_CODE),
                                                              ("evidence", "IEA"))}
"""The savings provision by what the matter is about (BNSS 531, BNS 358, BSA 170), from the checker's table."""

_OLD_CODE = re.compile(
    r"\b(?:IPC|CrPC|Cr\.P\.C\.?|Indian Penal Code|Code of Criminal Procedure|Evidence Act|IEA)\b", re.IGNORECASE)
"""The old codes named: a pending matter that names them is one begun under them, dated or not."""
_PROCEDURE = re.compile(
    r"\b(trial|appeal|revision|bail|investigation|inquiry|FIR|charge-?sheet|proceedings?|CrPC|Cr\.P\.C|"
    r"Criminal Procedure|BNSS|procedur\w*|court|hearing|complaint|warrant|summons)\b", re.IGNORECASE)
_OFFENCE = re.compile(
    r"\b(IPC|Penal Code|BNS\b|offences?|crimes?|punish\w*|sentenc\w*|convict\w*|commit(?:ted)?|murder|theft|"
    r"cheat\w*|charged?)\b", re.IGNORECASE)
_EVIDENCE = re.compile(r"\b(evidence|Evidence Act|IEA|BSA|witness\w*|admissib\w*|proof|confession|presum\w*|prove[ds]?|"
                       r"proving|dying\s+declaration|used\s+(?:in\s+court|(?:at|in|during)\s+(?:the\s+|his\s+|her\s+|"
                       r"my\s+)?trial|against|"
                       r"as\s+evidence))\b", re.IGNORECASE)


_STILL_PENDING = re.compile(r"\b(?:pending|still\s+(?:going\s+on|on|under\s+way|being\s+\w+)|continu\w*|began|begun|"
                            r"commenced|under\s+trial|undertrial)\b", re.IGNORECASE)


def named_pending(question: str) -> bool:
    """A pending matter told under the old codes' names, dated or not ("an appeal under section 374 CrPC is
    still pending"): words that say it is pending, not words any proceeding has ("registered", "filed", which a
    matter begun yesterday under a wrongly named code has too)."""
    return bool(_STILL_PENDING.search(question)) and bool(_OLD_CODE.search(question))


def savings_for(question: str, pending: bool) -> list[tuple[str, str]]:
    """The savings provisions a question about a matter pending across 2024-07-01 (``pending``:
    ``QuestionFacts.pending``) needs: BNSS 531 for procedure, BNS 358 for offences, BSA 170 for evidence (both of
    the first two when it says neither)."""
    if not pending:
        return []
    out = [SAVINGS[k] for k, pat in (("procedure", _PROCEDURE), ("offence", _OFFENCE), ("evidence", _EVIDENCE))
           if pat.search(question)]
    return out or [SAVINGS["procedure"], SAVINGS["offence"]]


def savings_told(question: str, *, pending: bool, offence_dated: bool, proceedings_dated: bool,
                 which_code: bool = False, civil_evidence: bool = False) -> list[tuple[str, str]]:
    """The savings provisions an answer quotes for facts across 2024-07-01 (``savings_for``), with what the dates read
    from the question decide: an offence dated before that day is the IPC's by BNS 358(2), whatever words the question
    uses for it ("her in-laws kept demanding a car and beating her"); the CrPC's savings (BNSS 531) only for
    proceedings begun before that day or told as still pending, not for an old offence's complaint made today. A
    question that asks which code governs (``which_code``) is answered by the repeal-and-savings provision of the
    codes it is about, whichever way its dates fall ("the State filed an appeal in August 2024 against a May 2024
    acquittal: CrPC 378 or BNSS 419?" is answered by what BNSS 531(2)(a) keeps and what it does not). What may prove a
    civil matter pending on that day (``civil_evidence``) is saved by BSA 170(2) alone: the CrPC's and the IPC's
    savings stay only for a criminal matter or an offence the question also dates."""
    out = savings_for(question, pending or which_code)
    if offence_dated and SAVINGS["offence"] not in out:
        out.append(SAVINGS["offence"])
    if offence_dated and not proceedings_dated and not which_code and not _STILL_PENDING.search(question):
        out = [s for s in out if s != SAVINGS["procedure"]]
    if civil_evidence:
        out = [s for s in out if s == SAVINGS["evidence"] or (s == SAVINGS["procedure"] and proceedings_dated)
               or (s == SAVINGS["offence"] and offence_dated)]
        out += [] if SAVINGS["evidence"] in out else [SAVINGS["evidence"]]
    return out
