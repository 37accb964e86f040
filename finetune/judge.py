"""The verification layer, applied to training answers: chosen answers must pass, rejected ones must fail as named.

Both the builder and ``validate`` call :class:`Judge`, so a file that validates is held to exactly the
check it was built with. A chosen answer passes when, for its as-of date,

* every citation is ``VERIFIED``, except a citation of the other side of the 2024 replacement that
  the answer *notes* as such: a ``REPEALED`` provision whose successor the answer also cites
  (verified), or a ``NOT_YET_IN_FORCE`` provision whose predecessor it cites (and the same for the
  codes named as Acts); that is what "cites the successor and notes the replacement" means;
* every quotation is ``EXACT`` against the chunk it is attributed to;
* every ``[id]`` it cites is a chunk of the context, and every quotation comes from a chunk of one of
  the example's provisions (an insufficient answer quotes nothing).

A rejected answer must show the failure its category names (:class:`Failure`), read off the same
report. ``UNCHECKED`` anywhere (graph unreachable) is never a pass or an expected failure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from finetune.prompt import ContextChunk
from finetune.statutes import NEW_TO_OLD, OLD_TO_NEW, base_section, chunk_provision
from graph_schema.store import GraphReader
from verification import CitationStatus, Label, QuoteStatus, VerificationReport, Verifier
from verification.model import CitationCheck

_IDS = re.compile(r"\[([A-Z][A-Za-z0-9]*:[^\]\s]+)\]")
REFUSAL = re.compile(r"\b(?:do(?:es)? not answer|cannot answer|cannot be answered|not enough to answer)\b")
"""How an answer says the documents do not answer (in any of the builder's wordings)."""


def refuses(text: str) -> bool:
    return bool(REFUSAL.search(text))


class Category(StrEnum):
    CORRECT = "correct"
    DISTRACTOR = "distractor"
    INSUFFICIENT = "insufficient"
    OUTDATED = "outdated"
    MISATTRIBUTED = "misattributed"


class Failure(StrEnum):
    """How a rejected answer fails verification."""

    MISQUOTED = "misquoted"
    """A quotation differs materially from the provision it cites (a number, negation or modal changed)."""
    WRONG_PROVISION = "wrong_provision"
    """Its quotations are exact, but all come from a context chunk of a provision the question is not about."""
    UNGROUNDED = "ungrounded"
    """It answers though the context cannot: it rests on a provision that is not among the documents."""
    OUTDATED = "outdated"
    """It cites a provision not in force on the as-of date (repealed, or not yet in force) as the law."""
    MISATTRIBUTED = "misattributed"
    """A quotation found verbatim in one provision is attributed to another section or Act."""


EXPECTED = {
    Category.CORRECT: Failure.MISQUOTED,
    Category.DISTRACTOR: Failure.WRONG_PROVISION,
    Category.INSUFFICIENT: Failure.UNGROUNDED,
    Category.OUTDATED: Failure.OUTDATED,
    Category.MISATTRIBUTED: Failure.MISATTRIBUTED,
}


@dataclass(frozen=True, slots=True)
class Verdict:
    ok: bool
    reason: str


class Judge:
    """Runs the verifier on an answer and decides pass / fail-as-named.

    Args:
        verifier: The verification layer (one per process; it caches Act texts).
        store: The graph, for a not-yet-in-force provision's predecessors (the report lists successors only).
    """

    def __init__(self, verifier: Verifier, store: GraphReader) -> None:
        self.verifier = verifier
        self.store = store
        self._pred: dict[str, set[tuple[str, str]]] = {}

    def report(self, text: str, context: Sequence[ContextChunk], as_of: str) -> VerificationReport:
        """The verifier's report, without the citations inside quotations.

        A statute's own cross-references ("the offence under section 136", "Chapter IX") are part of
        the quoted text, whose fidelity the quote check covers; they are not the answer's citations,
        and read without their Act they cannot be resolved.
        """
        rep = self.verifier.verify(text, [c.as_context() for c in context], as_of)
        own = [c for c in rep.citations if not any(q.start <= c.start and c.end <= q.end for q in rep.quotes)]
        return rep.model_copy(update={"citations": own})

    # -- chosen --

    def chosen(self, category: Category, text: str, context: Sequence[ContextChunk], as_of: str,
               provisions: Sequence[tuple[str, str]]) -> Verdict:
        rep = self.report(text, context, as_of)
        problems = self.citation_problems(rep) + _quote_problems(rep)
        ids = set(_IDS.findall(text))
        known = {c.id for c in context}
        problems += [f"cites [{i}], which is not in the context" for i in sorted(ids - known)]
        wanted = {(a, base_section(s)) for a, s in provisions}
        if category is Category.INSUFFICIENT:
            # The first provision is the one the documents lack: a refusal may quote the documents it has (to say
            # why they do not answer, or to answer the other ask of a partial question), never that one.
            missing = {(a, base_section(s)) for a, s in provisions[:1]}
            if any(q.source is None or q.source not in known or chunk_provision(q.source) in missing
                   for q in rep.quotes):
                problems.append("an insufficient answer quotes the missing provision or text of no document")
            if not refuses(text):
                problems.append("an insufficient answer does not say the documents do not answer")
        else:
            if not rep.quotes:
                problems.append("quotes nothing")
            off = [q.source for q in rep.quotes if q.source is None or chunk_provision(q.source) not in wanted]
            if off:
                problems.append(f"quotes a provision the question is not about: {', '.join(map(str, off))}")
        return Verdict(not problems, "; ".join(problems) or "verified")

    def citation_problems(self, rep: VerificationReport) -> list[str]:
        verified = {(c.act, base_section(c.section)) for c in rep.citations
                    if c.label is Label.PROVISION and c.status is CitationStatus.VERIFIED and c.act and c.section}
        verified_acts = {c.act for c in rep.citations if c.status is CitationStatus.VERIFIED and c.act}
        out = []
        for c in rep.citations:
            if c.status is CitationStatus.VERIFIED or self._noted(c, verified, verified_acts):
                continue
            out.append(f"{c.text!r} is {c.status.value}")
        return out

    def _noted(self, c: CitationCheck, verified: set[tuple[str, str]], verified_acts: set[str]) -> bool:
        """A citation of the code not in force, in an answer that also cites its counterpart, verified."""
        if c.status not in (CitationStatus.REPEALED, CitationStatus.NOT_YET_IN_FORCE) or not c.act:
            return False
        counterpart = OLD_TO_NEW.get(c.act) or NEW_TO_OLD.get(c.act)
        if c.label is Label.STATUTE:
            return counterpart in verified_acts
        if c.label is not Label.PROVISION or not c.section:
            return False
        if c.status is CitationStatus.REPEALED:
            return any((s.act, base_section(s.section)) in verified for s in c.successors)
        return bool(self._predecessors(c.act, base_section(c.section)) & verified)

    def _predecessors(self, act: str, section: str) -> set[tuple[str, str]]:
        key = f"{act}:{section}"
        if key not in self._pred:
            rec = self.store.get_section(act, section)
            self._pred[key] = {(p.act, base_section(p.section)) for p in rec.predecessors} if rec else set()
        return self._pred[key]

    # -- rejected --

    def rejected(self, category: Category, text: str, context: Sequence[ContextChunk], as_of: str,
                 provisions: Sequence[tuple[str, str]]) -> Verdict:
        """Does ``text`` fail the way ``category`` names? ``ok`` is True when it does."""
        rep = self.report(text, context, as_of)
        if rep.unchecked:
            return Verdict(False, "could not be checked (graph unreachable)")
        expected = EXPECTED[category]
        wanted = {(a, base_section(s)) for a, s in provisions}
        in_context = {chunk_provision(c.id) for c in context}
        known = {c.id for c in context}
        if expected is Failure.MISQUOTED:
            hit = [q for q in rep.quotes if q.status is QuoteStatus.MISQUOTED]
            return Verdict(bool(hit), hit[0].message if hit else "no quotation is misquoted")
        if expected is Failure.MISATTRIBUTED:
            hit = [q for q in rep.quotes if q.status is QuoteStatus.MISATTRIBUTED]
            return Verdict(bool(hit), hit[0].message if hit else "no quotation is misattributed")
        if expected is Failure.OUTDATED:
            verified = {(c.act, base_section(c.section)) for c in rep.citations if c.label is Label.PROVISION
                        and c.status is CitationStatus.VERIFIED and c.act and c.section}  # fmt: skip
            acts = {c.act for c in rep.citations if c.status is CitationStatus.VERIFIED and c.act}
            stale = [c for c in rep.citations if c.label is Label.PROVISION
                     and c.status in (CitationStatus.REPEALED, CitationStatus.NOT_YET_IN_FORCE)
                     and not self._noted(c, verified, acts)]  # fmt: skip
            return Verdict(bool(stale), stale[0].message if stale else "cites nothing out of force as current")
        if expected is Failure.WRONG_PROVISION:
            if not rep.quotes:
                return Verdict(False, "quotes nothing")
            sources = [q.source for q in rep.quotes]
            exact = all(q.status is QuoteStatus.EXACT for q in rep.quotes)
            wrong = all(s in known and chunk_provision(s) not in wanted for s in sources if s)
            cites_right = any((c.act, base_section(c.section or "")) in wanted for c in rep.citations
                              if c.label is Label.PROVISION)  # fmt: skip
            ok = exact and wrong and not cites_right
            return Verdict(ok, f"rests on {', '.join(map(str, sources))}" if ok
                           else "does not rest only on a wrong provision of the context")
        # UNGROUNDED: it answers although the provision the question needs is not among the documents.
        if refuses(text):
            return Verdict(False, "says the documents do not answer")
        cited = {(c.act, base_section(c.section)) for c in rep.citations
                 if c.label is Label.PROVISION and c.act and c.section}
        outside = sorted(cited - in_context)
        unsourced = [q.text[:40] for q in rep.quotes if q.source not in known]
        if outside or unsourced:
            what = ", ".join(f"{a} {s}" for a, s in outside) or f"a quotation from no document ({unsourced[0]}...)"
            return Verdict(True, f"answers from outside the documents: {what}")
        missing = {(a, base_section(s)) for a, s in provisions[:1]}
        stretched = [q.source for q in rep.quotes if q.source in known and chunk_provision(q.source) not in wanted]
        if any(c in missing for c in cited):
            return Verdict(True, "answers from the provision the documents lack")
        if rep.quotes and len(stretched) == len(rep.quotes):
            return Verdict(True, f"answers from a document that does not address the question: {stretched[0]}")
        return Verdict(False, "does not answer beyond the documents")


def _quote_problems(rep: VerificationReport) -> list[str]:
    return [f"quotation {q.status.value}: {q.message}" for q in rep.quotes if q.status is not QuoteStatus.EXACT]
