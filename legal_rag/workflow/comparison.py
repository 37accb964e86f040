"""The two sides of a comparison question, so that an answer quotes a provision for each.

"What is the difference between theft and extortion?" is answered by the provision headed "Theft" and the one
headed "Extortion". Ranked by how much of the question a provision covers, the winners are instead provisions
that mention both ("culpable homicide not amounting to murder" beats "Culpable homicide" and "Murder" alike), so
the generator looks each side up by heading (``side_pick`` in ``generators/extractive.py``).

Sides are read from the usual phrasings: "difference between A and B", "A vs B", "A versus B", "how does A
differ from B", "what is A, and how does it differ from B", "distinguish A from B", "compare A with B". A side
keeps its words up to a clause boundary ("murder - what distinguishes them under the BNS" is "murder").
"""

from __future__ import annotations

import re

_SIDE = r"[^?.;,:\n]+?"
_END = (r"(?=\s+[-\u2013\u2014]\s|\s+(?:under|in|as\s+per|according\s+to|for|when|if|and\s+how|what|which)\b"
        r"|[?.;,:\n]|$)")
_PATTERNS = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        rf"\bdifference(?:s)?\s+between\s+(?P<a>{_SIDE})\s+and\s+(?P<b>{_SIDE}){_END}",
        rf"\bdistinguish(?:es|ed)?\s+(?:between\s+)?(?P<a>{_SIDE})\s+(?:from|and)\s+(?P<b>{_SIDE}){_END}",
        rf"\bwhat\s+is\s+(?P<a>{_SIDE}),?\s+and\s+how\s+(?:does|is)\s+it\s+(?:differ(?:ent)?|distinguished)\s+"
        rf"from\s+(?P<b>{_SIDE}){_END}",
        rf"\bhow\s+(?:does|do|is|are)\s+(?P<a>{_SIDE})\s+(?:differ(?:ent)?|distinguished)\s+from\s+(?P<b>{_SIDE}){_END}",
        rf"\bcompare\s+(?P<a>{_SIDE})\s+(?:with|and|to)\s+(?P<b>{_SIDE}){_END}",
        rf"(?:^|[?.;:]\s*)(?P<a>{_SIDE})\s+(?:vs\.?|versus|v/s)\s+(?P<b>{_SIDE}){_END}",
    )
)
_LEAD = re.compile(r"^(?:(?:the|a|an|offen[cs]es?\s+of|crimes?\s+of)\s+)+", re.IGNORECASE)
_TAIL = re.compile(r"\s+(?:under|in|as\s+per|according\s+to)\s.*$", re.IGNORECASE)


def comparison_sides(question: str) -> tuple[str, ...]:
    """The two things a comparison question sets side by side, as written; () when it is not one."""
    for rx in _PATTERNS:
        m = rx.search(question)
        if m is not None:
            sides = tuple(_TAIL.sub("", _LEAD.sub("", m.group(g).strip())).strip() for g in ("a", "b"))
            if all(sides) and sides[0].lower() != sides[1].lower():
                return sides
    return ()
