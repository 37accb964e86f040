"""The separate asks of a multi-part question, so that each gets its own retrieval and its own provision.

"What is the punishment for theft, and can a Magistrate release the accused on bail?" asks two things, answered
by two provisions (BNS 303, BNSS 480). Retrieved and ranked as one query, the provisions about the larger part
crowd out the other: the answer quotes three bail sections and never the theft one. The question is cut where a
question mark is followed by more text, and at "and" followed by a question word ("..., and when can the spouses
divorce", "... and is it bailable?"). A piece is an ask when a clause of it opens with a wh-word ("what", "when",
"within what time"), or when it ends with the question mark and opens with one of the other question words ("can",
"is", "does"): "He was arrested on 3 March and is still in custody" states facts. Facts belong to the ask that
follows them.
"""

from __future__ import annotations

import re

from verification.claims.terms import STOPWORDS

_WH = ("what", "when", "which", "who", "whom", "whose", "how", "where", "why", "within", "whether")
_AUX = ("can", "could", "may", "must", "should", "is", "are", "does", "do", "did", "will", "would")
_ASK_WORDS = frozenset(_WH + _AUX)
_ANY = "(?:" + "|".join(sorted(_ASK_WORDS)) + ")"
_JOIN = re.compile(rf"(?:,\s*|\s+)and\s+(?={_ANY}\b)|\?\s+(?=\S)", re.IGNORECASE)
_PREP = r"(?:(?:by|under|in|on|for|to|from|at|with)\s+)?"
_OPENS_WH = re.compile(rf"(?:^|[.:;,]\s+){_PREP}(?:{'|'.join(_WH)})\b", re.IGNORECASE)
_OPENS_AUX = re.compile(rf"(?:^|[.:;,]\s+)(?:{'|'.join(_AUX)})\b", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z][A-Za-z\-]+")
_CONTENT = STOPWORDS | _ASK_WORDS
MIN_WORDS = 1
"""A piece needs a content word to be an ask of its own ("and how?" has none; "is it bailable?" has one)."""
MAX_PARTS = 3


def question_parts(question: str) -> tuple[str, ...]:
    """The question's asks, as written (without the joining "and" or "?"); () when it asks one thing."""
    text = question.strip()
    pieces: list[tuple[str, bool]] = []  # (piece, ends with "?")
    start = 0
    for m in _JOIN.finditer(text):
        pieces.append((text[start : m.start()], m.group(0).startswith("?")))
        start = m.end()
    pieces.append((text[start:], text.endswith("?")))
    asks: list[str] = []
    facts = ""
    for raw, questioned in pieces:
        piece = raw.strip(" ,;?")
        is_ask = bool(_OPENS_WH.search(piece)) or (questioned and bool(_OPENS_AUX.search(piece)))
        if not is_ask or _content_words(piece) < MIN_WORDS:
            facts = f"{facts} {piece}".strip()  # joins the next ask (or the last one, at the end)
            continue
        asks.append(f"{facts} {piece}".strip())
        facts = ""
    if facts and asks:
        asks[-1] = f"{asks[-1]} {facts}"
    return tuple(asks[:MAX_PARTS]) if len(asks) >= 2 else ()


def _content_words(text: str) -> int:
    return sum(1 for w in _WORD.findall(text) if len(w) > 2 and w.lower() not in _CONTENT)
