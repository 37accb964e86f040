"""Paralegals' accepted flags as examples for the provision relevance model, and a rule-based paralegal.

A flag marks a span of a stored answer with what is wrong with it. Two labels say that a quoted provision should
not have been quoted (``RELEVANCE_LABELS``): ``wrong_provision`` (it does not bear on the question) and
``outdated_law`` (it was not the law for the facts' date). Such a flag names the provision it was put on: the
citation inside the span, or else the one provision the span's line quotes (its ``[n]`` source markers). A span that
names none, or several without one inside the span, is reported and not used: a training label is never guessed.
A flag's correction that cites provisions names what should have been quoted instead.

To use a flag, the stored question is asked again (``collect`` in ``legal_rag.evaluation.relevance``): the
generator's candidates that are the flagged provision become examples labelled not relevant, those the correction
cites relevant, and the rest stay unlabelled (a flag says nothing about them). A flagged provision that is no longer
among the candidates (the index changed) leaves the flag unused, with the reason.

``paralegal_spans`` is the rule-based paralegal the evaluation uses to measure what training on flags does (see
docs/evaluation.md): on an answer to a labelled development question it flags each quoted provision the labels do
not expect, at the citation's text, as a paralegal flags a wrong provision on the research page.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from graph_schema.model import main_section
from legal_rag.evaluation.relevance import Example
from legal_rag.workflow.relevance import Decision

RELEVANCE_LABELS: Mapping[str, str] = {
    "wrong_provision": "the quoted provision does not bear on the question",
    "outdated_law": "the quoted provision was not the law for the facts' date",
}
"""Flag labels that say a quoted provision should not have been quoted (the others, e.g. a misquote, say nothing
about which provisions are relevant)."""

Key = tuple[str, str]
"""A provision as the model labels it: (Act, main section)."""

_MARKER = re.compile(r"\[(\d{1,3})\]")


@dataclass(frozen=True, slots=True)
class FlaggedAnswer:
    """The accepted flags on one stored answer, read as labels: the provisions it should not have quoted and
    those its corrections cite."""

    answer_id: str
    question: str
    as_of: str | None
    flags: tuple[tuple[str, Key], ...]
    """Each flag used: its id and the provision it was put on."""
    right: frozenset[Key] = frozenset()
    """The provisions the flags' corrections cite instead."""

    @property
    def wrong(self) -> frozenset[Key]:
        """The provisions the answer should not have quoted: those the flags were put on."""
        return frozenset(key for _, key in self.flags)


@dataclass
class FlagReading:
    answers: list[FlaggedAnswer] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)
    """One entry per flag not used: flag id, answer id, reason."""


def _line(text: str, start: int, end: int) -> tuple[int, int]:
    lo = text.rfind("\n", 0, start) + 1
    hi = text.find("\n", end)
    return lo, len(text) if hi < 0 else hi


def _citations(document: Mapping[str, Any]) -> list[tuple[str, Key]]:
    out = []
    for c in document.get("citations", []):
        if isinstance(c, dict) and c.get("text") and c.get("act") and c.get("section"):
            out.append((str(c["text"]), (str(c["act"]), main_section(str(c["section"])))))
    return out


def _sources(document: Mapping[str, Any]) -> dict[int, Key]:
    out = {}
    for s in document.get("sources", []):
        if isinstance(s, dict) and isinstance(s.get("n"), int) and s.get("act") and s.get("section"):
            out[s["n"]] = (str(s["act"]), main_section(str(s["section"])))
    return out


def flagged_provision(document: Mapping[str, Any], start: int, end: int) -> Key | str:
    """The provision a flag on ``answer[start:end]`` was put on, or the reason none can be told."""
    text = str(document.get("answer", ""))
    span = text[start:end]
    inside = {key for cited, key in _citations(document) if _find(span, cited) >= 0}
    if len(inside) == 1:
        return next(iter(inside))
    if len(inside) > 1:
        return f"the span cites {len(inside)} provisions ({_names(inside)}): flag one citation at a time"
    lo, hi = _line(text, start, end)
    sources = _sources(document)
    marked = {sources[int(n)] for n in _MARKER.findall(text[lo:hi]) if int(n) in sources}
    if len(marked) == 1:
        return next(iter(marked))
    if not marked:
        return "the span's line quotes no provision"
    return f"the span's line quotes {len(marked)} provisions ({_names(marked)}) and the span cites none of them"


def _find(text: str, cited: str) -> int:
    """Where the citation text ``cited`` first stands whole in ``text`` ("Section 66" is not in "Section 66C" or
    "Section 66(1)"), or -1."""
    m = re.search(r"(?<![\w(])" + re.escape(cited) + r"(?![\w(])", text)
    return m.start() if m else -1


def unused(flag_id: str, answer_id: str, reason: str) -> dict[str, str]:
    """A flag that gave no training label, as the model card lists it."""
    return {"flag": flag_id, "answer": answer_id, "reason": reason}


def _names(keys: Iterable[Key]) -> str:
    return ", ".join(f"{a} {s}" for a, s in sorted(keys))


def read_flags(flags: Sequence[Any], answer: Callable[[str], Any | None],
               cite: Callable[[str], Sequence[Key]]) -> FlagReading:
    """Accepted relevance flags (``RELEVANCE_LABELS``) -> one ``FlaggedAnswer`` per flagged answer.

    ``answer(id)`` returns the stored answer (an object with ``document``) or None; ``cite(text)`` the provisions a
    correction cites.
    """
    reading = FlagReading()
    by_answer: dict[str, tuple[Mapping[str, Any], list[tuple[Any, Key]], set[Key]]] = {}
    for flag in sorted(flags, key=lambda f: (f.answer_id, f.id)):

        def skip(reason: str, flag: Any = flag) -> None:
            reading.skipped.append(unused(flag.id, flag.answer_id, reason))

        if str(flag.label) not in RELEVANCE_LABELS:
            skip(f"label {flag.label!r} says nothing about which provisions bear on the question")
            continue
        stored = answer(flag.answer_id)
        if stored is None:
            skip("the flagged answer is not in the records")
            continue
        doc = stored.document
        text = doc.get("answer")
        if not isinstance(text, str) or not isinstance(doc.get("question"), str):
            skip("the stored answer has no answer text or question")
            continue
        if text[flag.start:flag.end] != flag.span_text:
            skip(f"the flagged span {flag.start}:{flag.end} does not match the stored answer text")
            continue
        found = flagged_provision(doc, flag.start, flag.end)
        if isinstance(found, str):
            skip(found)
            continue
        entry = by_answer.setdefault(flag.answer_id, (doc, [], set()))
        entry[1].append((flag, found))
        if flag.correction:
            # what the correction cites instead; the flagged provision itself is never made relevant by it
            entry[2].update(k for a, s in cite(flag.correction) if (k := (a, main_section(s))) != found)
    for answer_id, (doc, used, right) in by_answer.items():
        conflicted = {key for _, key in used} & right
        for flag, key in used:
            if key in conflicted:
                reading.skipped.append(unused(flag.id, answer_id, f"another flag's correction on this answer cites "
                                              f"{_names([key])}, which this flag says should not have been quoted"))
        kept = [(f.id, key) for f, key in used if key not in conflicted]
        if not kept and not right - conflicted:
            continue
        # asked again on the date the answer was made for, so that it sees what the flagged answer saw
        as_of = doc.get("as_of") if isinstance(doc.get("as_of"), str) else None
        reading.answers.append(FlaggedAnswer(answer_id, str(doc["question"]), as_of, tuple(kept),
                                             frozenset(right - conflicted)))
    return reading


def labels_for(answer: FlaggedAnswer, decision: Decision) -> tuple[bool | None, ...]:
    """Per candidate of the re-asked question: False for a flagged provision, True for one a correction cites,
    None for the rest."""
    out: list[bool | None] = []
    for c in decision.candidates:
        key = (c.act, main_section(c.section))
        out.append(False if key in answer.wrong else True if key in answer.right else None)
    return tuple(out)


def paralegal_spans(document: Mapping[str, Any], expected: Iterable[Key]) -> list[tuple[int, int, Key]]:
    """Where the rule-based paralegal flags ``wrong_provision``: the first occurrence, on each line, of the
    citation of a quoted provision that ``expected`` (the question's labels) does not hold; once per provision."""
    want = {(a, main_section(s)) for a, s in expected}
    text = str(document.get("answer", ""))
    sources = _sources(document)
    citations = _citations(document)
    spans: list[tuple[int, int, Key]] = []
    done: set[Key] = set()
    pos = 0
    for line in text.split("\n"):
        lo = pos
        pos += len(line) + 1
        quoted = {sources[int(n)] for n in _MARKER.findall(line) if int(n) in sources}
        for cited, key in citations:
            if key in want or key in done or key not in quoted:
                continue
            at = _find(line, cited)
            if at >= 0:
                spans.append((lo + at, lo + at + len(cited), key))
                done.add(key)
    return spans


def examples_from_flags(pairs: Sequence[tuple[FlaggedAnswer, Decision]]) -> tuple[list[Example], list[dict[str, str]]]:
    """The re-asked flagged answers as training examples (never scored in cross-validation), and the flags that
    gave none: asked again, the answer no longer has the flagged provision among the generator's candidates."""
    out: list[Example] = []
    skipped: list[dict[str, str]] = []
    for flagged, decision in pairs:
        present = {(c.act, main_section(c.section)) for c in decision.candidates}
        placed = {(a, main_section(sec)) for a, sec in decision.first}
        for fid, key in flagged.flags:
            if key in placed and key not in present:
                skipped.append(unused(fid, flagged.answer_id, f"{_names([key])} is quoted before the ranked "
                                      "candidates (the question names it, or it is a comparison side or an ask's "
                                      "pick): the relevance model does not rank it"))
            elif key not in present:
                skipped.append(unused(fid, flagged.answer_id,
                                      f"asked again, the answer no longer has {_names([key])} among its candidates"))
        labels = labels_for(flagged, decision)
        if all(v is None for v in labels):
            continue
        # its fold in cross-validation: the Act of the provision it labels (kept out of folds holding that Act)
        group = sorted(flagged.wrong | flagged.right)[0][0]
        out.append(Example(f"answer-{flagged.answer_id}", group, decision, labels, scored=False))
    return out, skipped


@dataclass(frozen=True, slots=True)
class SimulatedFlags:
    """What the rule-based paralegal did: questions asked, answers flagged, flags made (all accepted)."""

    questions: int
    answers_flagged: int
    flags: int

    def as_dict(self) -> dict[str, int]:
        return asdict(self)
