"""Matters pending across 2024-07-01: which repeal-and-savings provision governs them.

When the BNS, BNSS and BSA replaced the IPC, CrPC and Evidence Act, each new code repealed the old one and
saved what was pending: BNSS 531(2)(a) keeps a pending appeal, application, trial, inquiry or investigation
under the CrPC; BNS 358(2) keeps the IPC for offences committed before the repeal; BSA 170(2) keeps what was
done under the Evidence Act. A question about such a matter is answered correctly only if the answer cites
the savings provision as well as the substantive one, so the workflow brings it in whatever retrieval found.
"""

from __future__ import annotations

import re

from graph_schema.model import NEW_CRIMINAL_CODES_IN_FORCE as CUTOVER

SAVINGS = {"procedure": ("BNSS", "531"), "offence": ("BNS", "358"), "evidence": ("BSA", "170")}

_PENDING = re.compile(
    r"\b(pending|still|continu\w*|began|begun|commenced|transition\w*|savings?|repeal\w*|came into force|"
    r"before (?:the )?(?:1st? |first )?july,? 2024|committed|filed|lodged|registered|instituted|arrested)\b",
    re.IGNORECASE,
)
_OLD_TIME = re.compile(
    r"\b(?:19\d\d|20(?:0\d|1\d|2[0-3]))\b|\b(?:jan\w*|feb\w*|mar\w*|apr\w*|may|june?)\s*,?\s*2024\b|"
    r"\b(?:IPC|CrPC|Cr\.P\.C\.?|Indian Penal Code|Code of Criminal Procedure|Evidence Act|IEA)\b",
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
