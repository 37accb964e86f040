"""The separate asks of a multi-part question, so that each gets its own retrieval and its own provision.

"What is the punishment for theft, and can a Magistrate release the accused on bail?" asks two things, answered
by two provisions (BNS 303, BNSS 480). Retrieved and ranked as one query, the provisions about the larger part
crowd out the other: the answer quotes three bail sections and never the theft one. Asks are split where a
question mark is followed by more text, or at "and" followed by a question word ("..., and when can the spouses
divorce", "... and within what time must he be produced"). A piece that only states facts ("A wife died of burns
in May 2025; ...") belongs to the ask that follows it.
"""

from __future__ import annotations

import re

from verification.claims.terms import STOPWORDS

_ASK_WORDS = frozenset((
    "what", "when", "which", "who", "whom", "whose", "how", "where", "why", "within", "whether",
    "can", "could", "may", "must", "should", "is", "are", "does", "do", "did", "will", "would",
))  # fmt: skip
_ASK = "(?:" + "|".join(sorted(_ASK_WORDS)) + ")"
_JOIN = re.compile(rf"(?:,\s*|\s+)and\s+(?={_ASK}\b)|\?\s+(?=\S)", re.IGNORECASE)
_ASKS = re.compile(rf"(?:^|[.:;,]\s+)(?:(?:by|under|in|on|for|to|from|at|with)\s+)?{_ASK}\b", re.IGNORECASE)
"""A piece asks something when one of its clauses opens with a question word ("By when must he pay")."""
_WORD = re.compile(r"[A-Za-z][A-Za-z\-]+")
MIN_WORDS = 2
"""A piece needs this many content words to be an ask of its own ("and how?" is not)."""
MAX_PARTS = 3


def question_parts(question: str) -> tuple[str, ...]:
    """The question's asks, as written (without the joining "and" or "?"); () when it asks one thing."""
    asks: list[str] = []
    facts = ""
    for piece in _JOIN.split(question.strip()):
        piece = piece.strip(" ,;?")
        if not _ASKS.search(piece) or _content_words(piece) < MIN_WORDS:
            facts = f"{facts} {piece}".strip()  # joins the next ask (or the last one, at the end)
            continue
        asks.append(f"{facts} {piece}".strip())
        facts = ""
    if facts and asks:
        asks[-1] = f"{asks[-1]} {facts}"
    return tuple(asks[:MAX_PARTS]) if len(asks) >= 2 else ()


def _content_words(text: str) -> int:
    return sum(1 for w in _WORD.findall(text) if len(w) > 2 and w.lower() not in STOPWORDS | _ASK_WORDS)
