"""Definition questions: "Define 'cognizable offence'", "What is the meaning of public servant?".

A statute defines its terms in clauses written one way: ``(c) "cognizable offence" means an offence for which ...``
(CrPC 2(c)), ``For the purposes of section 85, "cruelty" means ...`` (BNS 86). Neither BM25 nor the embedding model
ranks that clause first for "Define cognizable offence": the sections headed "Offences to be cognizable" share
more words with the question. So the index's defining clauses are read once per index version into a table
(term -> chunk ids), and a question that asks for a definition has the clause that defines its term pinned, like
a provision it names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from legal_rag.retrieval.types import Chunk

_DEFINES = re.compile(
    r"[\"\u201c\u2018']([^\"\u201c\u201d\u2018\u2019'\n]{2,80})[\"\u201d\u2019']\s*,?\s*"
    r"(?:means|includes|denotes|shall\s+mean|shall\s+include|has\s+the\s+(?:same\s+)?meaning)\b",
    re.IGNORECASE,
)
"""A quoted term followed by "means" (or "includes", "denotes"...): anywhere in a chunk, since some definition
sections are held as a few long chunks (CrPC s.2)."""
_STRONG_CUE = re.compile(r"\b(?:define[sd]?|definition\s+of|meaning\s+of|meant\s+by)\s*", re.IGNORECASE)
_WHAT_IS = re.compile(r"\bwhat\s+(?:is|are)\s+(?:an?\s+|the\s+)?", re.IGNORECASE)
_QUOTED = re.compile(r"[\"\u201c\u2018']([^\"\u201c\u201d\u2018\u2019']{2,80})[\"\u201d\u2019']")
_TERM_END = re.compile(
    r"\s+(?:under|in|as\s+per|according\s+to|for\s+the\s+purposes?|within|by)\b|[?.,;:!(]|$", re.IGNORECASE
)
_ARTICLE = re.compile(r"^(?:an?|the)\s+", re.IGNORECASE)
MAX_TERM_WORDS = 6


def normalise(term: str) -> str:
    """Lower case, single spaces, no leading article: "the  Cognizable Offence" -> "cognizable offence"."""
    return _ARTICLE.sub("", " ".join(term.lower().split()))


def defined_terms(chunks: Iterable[Chunk]) -> dict[str, list[str]]:
    """Normalised term -> ids of the chunks whose text defines it, in index order."""
    out: dict[str, list[str]] = {}
    for c in chunks:
        for m in _DEFINES.finditer(c.text):
            ids = out.setdefault(normalise(m.group(1)), [])
            if c.id not in ids:
                ids.append(c.id)
    return out


def asked_terms(question: str) -> list[str]:
    """The terms a definition question asks about, normalised: the quoted ones, else the words after the cue
    ("Define cognizable offence under CrPC", "What is the meaning of public servant?"). [] when it asks for none."""
    cue = _STRONG_CUE.search(question) or _WHAT_IS.search(question)
    if cue is None:
        return []
    quoted = [normalise(q) for q in _QUOTED.findall(question)]
    if quoted:
        return quoted
    rest = question[cue.end() :]
    end = _TERM_END.search(rest)
    term = normalise(rest[: end.start() if end else len(rest)])
    if not term or len(term.split()) > MAX_TERM_WORDS:
        return []
    # a plural asked, a singular defined ("bailable offences" / "bailable offence")
    return [term, term[:-1]] if term.endswith("s") and len(term) > 3 else [term]
