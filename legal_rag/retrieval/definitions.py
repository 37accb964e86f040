"""Definition questions: "Define 'cognizable offence'", "What is the meaning of public servant?".

Statutes define a term by quoting it: ``(c) "cognizable offence" means ...`` (CrPC 2(c)), ``The words "public
servant" denote ...`` (IPC 21), ``For the purposes of section 85, "cruelty" means ...`` (BNS 86). Neither BM25 nor
the embedding model ranks that clause first for "Define cognizable offence": the sections headed "Offences to be
cognizable" share more words with the question. So the index's defining clauses are read once per index version
into a table (term -> clauses), and a question that asks for a definition has the clause that defines its term
pinned, like a provision it names. A clause in a definitions section outranks one that defines a word for its
own section only ("For the purposes of this sub-section ..."), which is never used for a question that does not
name that section.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from legal_rag.retrieval.types import Chunk

_QUOTED_TERM = r"(?:[\"\u201c]|(?<![A-Za-z])['\u2018])([^\"\u201c\u201d\u2018\u2019'\n]{2,80})[\"\u201d\u2019']"
"""A term in quotation marks (an apostrophe after a letter, "Act's", opens none)."""
_DEFINES = re.compile(
    rf"{_QUOTED_TERM}\s*(?:,\s*)?"
    r"(?:means|includes|denotes?|shall\s+mean|shall\s+include|(?:is|are)\s+intended\s+to\s+include"
    r"|has\s+the\s+(?:same\s+)?meaning)\b",
    re.IGNORECASE,
)
"""A quoted term followed by "means" (or "includes", "denote(s)"...): anywhere in a chunk, since some definition
sections are held as a few long chunks (CrPC s.2)."""
_DEFINES_SPLIT = re.compile(
    rf"{_QUOTED_TERM}((?:\s+(?!(?:shall|also|and|or|which|that|it|as|is|are|has|have|be|does|do|not|means|includes|denotes?)\b)"
    r"[a-z][a-z-]*)"
    r"{1,5})\s*(?:,\s*)?(?:means|includes|denotes?)\b")
"""A term whose closing quotation mark the printed text misplaced, the rest of the term after it (JJA 2(13):
"\u201cchild\u201d in conflict with law means ..."): the quoted words and the lower-case words up to "means" are the
term."""
_NAMES = re.compile(
    r"(?:(?:is|are)\s+said\s+to\s+(?:commit|cause|be)|(?:is|are)\s+designated\s+as|\bcommits)\s+"
    rf"(?:the\s+offence\s+of\s+)?{_QUOTED_TERM}",
    re.IGNORECASE,
)
"""A quoted term after the conduct that makes it out: the penal codes define an offence so ("Whoever ... is said
to commit \u201ctheft\u201d", BNS 303(1); "... commits \u201ccriminal breach of trust\u201d", IPC 405; "The following
kinds of hurt only are designated as \u201cgrievous\u201d", BNS 116)."""
_OWN_SECTION = re.compile(
    r"\b(?:in|for\s+the\s+purposes?\s+of)\s+this\s+(?:section|sub-section|clause|Explanation)\b", re.IGNORECASE
)
"""A definition that holds only inside its own section or clause ("For the purposes of this sub-section")."""
_EXPLANATION = re.compile(r"\W*Explanation\b", re.IGNORECASE)
_DEFINITIONS_HEADING = re.compile(r"\b(?:definitions?|interpretation|meaning)\b", re.IGNORECASE)
_STRONG_CUE = re.compile(
    r"\b(?:define[sd]?|definition\s+of|meaning\s+of|meant\s+by|"
    r"(?:what|who)\s+(?:counts|qualifies|(?:is|are)\s+(?:treated|considered|regarded))\s+as|"
    r"what\s+amounts\s+to|what\s+comes\s+(?:within|under)|what\s+constitutes)\s*(?:(?<=as\s)(?:an?|the)\s+)?",
    re.IGNORECASE
)
"""Anywhere in the question: "... charged u/s 85. What counts as cruelty for this offence?" ("who counts as a senior
citizen", "what is treated as dowry") asks what the word covers
after the facts as plainly as at the start ("What is the offence?" after facts does not: ``_WHAT_IS``)."""
_WHAT_IS = re.compile(
    r"^\s*(?:what\s+(?:is|are)|what\s+(?:amounts?|constitutes?)\s+(?:to\s+)?|who\s+(?:is|are)(?=\s+an?\s))\s*"
    r"(?:an?\s+|the\s+)?", re.IGNORECASE
)
"""Only at the start of the question: "What is the offence?" after a fact pattern asks what the facts make out. "Who
is a ..." asks who counts as one ("Who is a 'senior citizen'?", "Who is a public servant?"); "Who is the ..." asks
for a person, not a word's meaning."""
_WHEN_IS = re.compile(r"^\s*(?:when\s+(?:is|are|does|do)\b|(?:is|are)\s+(?![\"'\u2018\u201c]))", re.IGNORECASE)
"""Asks for a definition only with a quoted term: "When is hurt 'grievous'?", "Are WhatsApp chats 'documents' under
the new evidence law?" (whether something falls within a defined word is answered by its definition). After "is" or
"are" the quoted word must be what the subject is said to be, not the subject ("Is 'theft' a compoundable offence?"
asks about theft, not what it means)."""
_QUOTED = re.compile(_QUOTED_TERM)
_WITHIN_QUOTED = re.compile(
    r"\b(?:does|do)\s+(?=[\"'\u2018\u201c])|"
    r"\b(?:am\s+i|are\s+(?:we|they|you)|is\s+(?:he|she|it|this|that|(?:my|our|his|her|their|the)\s+\w+))\s+(?:an?\s+|the\s+)?"
    r"(?=[\"'\u2018\u201c])", re.IGNORECASE)
"""Whether someone or something falls within a quoted word: "Does 'domestic violence' mean only beating?", "am I a
'consumer' who can file ...?", "is my tenant a 'workman'?" (its definition answers it)."""
_WORDS = re.compile(r"[A-Za-z][A-Za-z\-']*")
_ARTICLE = re.compile(r"^(?:an?|the)\s+", re.IGNORECASE)
MAX_TERM_WORDS = 8
GENERIC = frozenset({
    "offence", "offences", "punishment", "penalty", "sentence", "remedy", "procedure", "law", "section",
    "provision", "difference", "liability", "position", "effect", "consequence", "rule", "right", "rights",
})  # fmt: skip
"""Words a question asks about without asking for their definition ("What is the punishment ...")."""


@dataclass(frozen=True, slots=True)
class Definition:
    chunk_id: str
    general: bool
    """In a definitions section, or at least not limited to its own section."""


def normalise(term: str) -> str:
    """Lower case, single spaces, no leading article: "the  Cognizable Offence" -> "cognizable offence"."""
    return _ARTICLE.sub("", " ".join(term.lower().split()))


def defined_terms(chunks: Iterable[Chunk]) -> dict[str, list[Definition]]:
    """Normalised term -> the clauses that define it, those of a definitions section first, then index order."""
    out: dict[str, list[Definition]] = {}
    for c in chunks:
        heading = bool(_DEFINITIONS_HEADING.search(c.title or ""))
        for m in (*_DEFINES.finditer(c.text), *_NAMES.finditer(c.text), *_DEFINES_SPLIT.finditer(c.text)):
            own = bool(_OWN_SECTION.search(c.text, 0, m.start()) or
                       _EXPLANATION.match(c.text))  # fmt: skip
            term = m.group(1) + (m.group(2) if m.re is _DEFINES_SPLIT else "")
            found = out.setdefault(normalise(term), [])
            if all(d.chunk_id != c.id for d in found):
                found.append(Definition(c.id, heading or not own))
    for found in out.values():
        found.sort(key=lambda d: not d.general)
    return out


def asked_terms(question: str) -> list[str]:
    """Candidate terms a definition question asks about, normalised, longest first: the quoted ones, else the
    words after the cue, every prefix of up to ``MAX_TERM_WORDS`` words ("Define officer in charge of a police
    station under the BNSS" -> "officer in charge of a police station under the bnss", ..., "officer"); the
    caller keeps the first the index defines. Plurals also as singulars. [] when it asks for no definition."""
    cue = _STRONG_CUE.search(question) or _WHAT_IS.search(question)
    quoted = [normalise(q) for q in _QUOTED.findall(question)]
    if quoted and (cue is not None or _WHEN_IS.search(question) or _WITHIN_QUOTED.search(question)):
        return _with_singulars(quoted)
    if cue is None:
        return []
    words = _WORDS.findall(question[cue.end() :].split("?")[0].split(".")[0].split(",")[0])
    words = [w.lower() for w in words][:MAX_TERM_WORDS]
    prefixes = [normalise(" ".join(words[:n])) for n in range(len(words), 0, -1)]
    return _with_singulars([p for p in prefixes if p and p not in GENERIC])


def _with_singulars(terms: list[str]) -> list[str]:
    out: list[str] = []
    for t in terms:
        out.append(t)
        if t.endswith("ies") and len(t) > 4:
            out.append(t[:-3] + "y")
        elif t.endswith("s") and not t.endswith("ss") and len(t) > 3:
            out.append(t[:-1])
    return list(dict.fromkeys(out))
