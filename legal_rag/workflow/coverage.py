"""Does the evidence address the question? The share of the question's subject words that the kept claims
and the headings of the provisions they quote contain.

A verified quotation can still answer another question: asked for the time limit of a cheque-dishonour
complaint, the pipeline once quoted BNSS 514 (limitation for taking cognizance in general), the Consumer
Protection Act and NI Act 142A, none of which says it, and every check passed. What those quotations lack is
the question's subject ("cheque", "dishonour"). Words every legal question shares ("punishment", "section",
"law", "offence") say nothing about the subject and are not counted. A term of art counts as addressed when the
evidence uses most of its statutory wording ("dying declaration" -> "statement ... as to the cause of his death").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from legal_rag.retrieval.expand import TermsOfArt
from legal_rag.workflow.generators.extractive import content_stems

GENERIC = frozenset(content_stems(
    "punishment punish punished punishable penalty offence offences offense section sections subsection provision "
    "provisions law laws legal act acts code sanhita adhiniyam india indian under what when where whether which how "
    "can could does did explain explained provide provides provided say says said tell applicable apply applies "
    "relevant rule rules court courts person persons accused client clients case cases matter question answer "
    "procedure procedural statute statutory liable liability mean means meaning define defined definition "
    "there their they them would should must shall will also about other than then into onto upon file filed "
    "lawyer advocate sir madam please kindly need needs want wants know you your my me our his her him its this "
    "that these those is are was were be been has have had do does any all some "
    "bns bnss bsa ipc crpc iea cpc"
))  # fmt: skip
"""Stems that any legal question may contain: they do not name its subject."""


LOOKUP = frozenset(content_stems(
    "text bare full copy share read out give show sec new number numbers replaced replace replaces replacement "
    "corresponding correspond equivalent counterpart still force valid repealed omitted changed kya hai batao "
    "details detail about contents content"
))  # fmt: skip
"""Stems a question that names a provision uses to ask for it ("Text of section 103 BNS please", "Section 351 BNS
kya hai?", "which BNSS section replaced 167 CrPC?"): the named provision is their subject."""


_SENTENCE = re.compile(r"[^.?!]+[.?!]?")

_HYPHENS = re.compile(r"[\-\u2013\u2014]+")
"""Statutes join words ("house-breaking"); questions seldom do."""


@dataclass(frozen=True, slots=True)
class Coverage:
    share: float
    """0..1: the question's subject words found in the evidence (1.0 when the question has none)."""
    missing: tuple[str, ...]
    """The subject words (as written in the question) the evidence does not contain."""


def subject_words(question: str) -> dict[str, str]:
    """Stem -> the question's own word, for the words that name its subject."""
    out: dict[str, str] = {}
    for w in re.split(r"[\s/\-\u2013\u2014]+", question):
        w = w.strip(".,;:?!()[]\"'\u2018\u2019\u201c\u201d")
        for s in content_stems(w):
            if s not in GENERIC and not s.isdigit():
                out.setdefault(s, w.lower())
    return out


def question_coverage(
    question: str, evidence: Iterable[str], terms: TermsOfArt | None = None, *, names_quoted: bool = False
) -> Coverage:
    """How much of the question's subject the ``evidence`` (kept claims, headings) contains. ``names_quoted``:
    the question names a provision and the evidence quotes it, so the words that only ask for it (``LOOKUP``)
    are addressed, and the facts told around it are context; any other words of its asks ("is it bailable,
    and which court tries it?") still have to be found."""
    if names_quoted:
        # the asks, without the facts told around them ("charged under 406 and 420 IPC for an investment fraud.")
        asks = [s for s in _SENTENCE.findall(question) if s.rstrip().endswith("?")]
        subject = {s: w for s, w in subject_words(" ".join(asks) or question).items() if s not in LOOKUP}
    else:
        subject = subject_words(question)
    if not subject:
        return Coverage(1.0, ())
    found = set().union(*(content_stems(_HYPHENS.sub(" ", t)) for t in evidence))
    if terms is not None:
        for m, term in terms.matches(question):
            wording = content_stems(term.expansion) - GENERIC
            if wording and len(wording & found) / len(wording) >= 0.5:
                found |= content_stems(m.group(0))
    missing = tuple(w for s, w in subject.items() if s not in found)
    return Coverage(round(1 - len(missing) / len(subject), 4), missing)
