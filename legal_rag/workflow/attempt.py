"""Attempts: the general attempt provision, where the offence has no attempt provision of its own.

An attempt to commit an offence is punished under the offence's own words when its section provides for the
attempt ("Whoever attempts to commit robbery", BNS 309(5)) or a section is headed for it ("Attempt to murder",
BNS 109); otherwise under the general provision, BNS 62 (IPC 511 for acts before 2024-07-01), "where no express
provision is made by this Sanhita for the punishment of such attempt". A question about an attempt to commit
theft or rape is answered right only with both the offence's section and the general one, so the workflow
brings the general one in when nothing retrieved provides for the attempt.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graph_schema.model import NEW_CRIMINAL_CODES_IN_FORCE as CUTOVER
from legal_rag.workflow.generators.extractive import passage_title
from legal_rag.workflow.types import Passage

GENERAL_ATTEMPT = {"BNS": "62", "IPC": "511"}

_ATTEMPT = re.compile(
    r"\battempt(?:s|ed|ing)?\s+to\s+commit\s+(?:an?\s+|the\s+)?(?:offen[cs]e\s+of\s+)?"
    r"(?P<offence>[a-z][a-z\-]*(?:\s+[a-z][a-z\-]*){0,3}?)(?=\s*(?:[?.,;:\-\u2013\u2014]|$)|\s+(?:and|under|in|by|"
    r"is|was|what|which|with|for|against)\b)",
    re.IGNORECASE,
)


def attempted_offence(question: str) -> str | None:
    """ "What is the punishment for attempt to commit rape?" -> "rape"; None when it asks about no attempt."""
    m = _ATTEMPT.search(question)
    return m.group("offence").lower() if m else None


def general_attempt_for(question: str, as_of: str, passages: Sequence[Passage]) -> tuple[str, str] | None:
    """The general attempt provision for facts on ``as_of`` (BNS 62, or IPC 511 before 2024-07-01) when the
    question asks about an attempt and no retrieved provision provides for that attempt itself."""
    offence = attempted_offence(question)
    if offence is None:
        return None
    own = re.compile(rf"\battempts?\s+to\s+commit\s+{re.escape(offence)}\b", re.IGNORECASE)
    for p in passages:
        if passage_title(p).lower().startswith("attempt") or own.search(p.text):
            return None
    code = "BNS" if as_of >= CUTOVER else "IPC"
    return code, GENERAL_ATTEMPT[code]
