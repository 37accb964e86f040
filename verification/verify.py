"""``verify(text, context_chunks, as_of)``: every citation and quote in an answer, checked.

The pipeline: extract citations -> check each against the graph for ``as_of`` -> find quotes ->
attribute each quote to a context chunk (``[chunk-id]`` after it) or to the nearest cited provision
in its sentence -> check it against that source, and against the other candidates for
misattribution.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from graph_schema.acts import ActResolver
from graph_schema.dates import check_day, day_or_today
from graph_schema.errors import ConfigurationError, StoreUnavailableError
from graph_schema.model import CitationKey, main_section
from graph_schema.store import GraphReader
from verification.check.existence import NEW_CODES, PENAL_CODE, SAVINGS, CitationChecker, Verdict, unit_label
from verification.check.quotes import Passage, QuoteChecker, QuoteResult, QuoteSpan, find_quotes
from verification.extract import CitationExtractor, adjacent_sections
from verification.model import (
    Citation,
    CitationCheck,
    CitationStatus,
    Label,
    QuoteCheck,
    QuoteStatus,
    SuccessorOut,
    VerificationReport,
)

ContextChunk = Mapping[str, Any]
"""A retrieved chunk: at least ``id`` and ``text`` (optionally ``act``, ``section``)."""

_MARKERS = re.compile(r"[^\[\]\n]{0,12}?((?:\[[^\]\s]+\][ \t]*)+)")
"""The chunk markers ("[BNS:103:1:0] [BNS:103:2:0]") after a quotation, a few characters on at most."""
_SENTENCE_END = re.compile(r"(?<=[.;!?])\s+(?=[A-Z(\"“])|\n{2,}")


@dataclass
class Verifier:
    """Holds the extractor, the graph checker and the quote checker; build once, call many times."""

    store: GraphReader
    extractor: CitationExtractor | None = None
    quotes: QuoteChecker | None = None
    fuzzy_threshold: float = 0.9
    resolver: ActResolver | None = None
    """The process's Act resolver (a ``LiveActResolver`` in a long-lived process, so an Act loaded by another
    process is known to the checks too); read from ``store`` when not given."""

    def __post_init__(self) -> None:
        self._checker: CitationChecker | None = None
        self._act_passages: dict[str, tuple[Passage, ...]] = {}

    def _ready(self) -> tuple[CitationExtractor, CitationChecker, QuoteChecker]:
        if self._checker is None:
            resolver = self.resolver
            if resolver is None:
                try:
                    resolver = ActResolver(self.store.all_acts())
                except StoreUnavailableError:
                    resolver = None  # checks will report UNCHECKED; extraction still works on curated names
            self._checker = CitationChecker(self.store, resolver)
            if self.extractor is None:
                self.extractor = CitationExtractor(resolver.resolve if resolver else None)
        if self.quotes is None:
            self.quotes = QuoteChecker(self.fuzzy_threshold)
        assert self.extractor is not None
        return self.extractor, self._checker, self.quotes

    def verify(
        self, text: str, context_chunks: Sequence[ContextChunk] = (), as_of: str | None = None,
        *, offence_on: str | None = None, proceedings_on: str | None = None, adjacent: bool = False,
        saved: bool = False,
    ) -> VerificationReport:
        """Check every citation and quote in ``text`` for facts on ``as_of`` (default today).

        ``adjacent``: also check a bare number written beside an Act's name ("will it be 376 IPC?", "a 138 NI Act
        complaint": ``extract.adjacent_sections``), as a user's question writes sections.

        ``offence_on``: the day the offence was committed, when that is before the new codes and ``as_of`` is
        after (an FIR lodged in August 2024 for cheating in March 2024). The penal codes are then checked on that
        day: the IPC still governs the offence (BNS 358(2)), and the BNS, which came into force after it, does not
        (its savings section itself is checked on ``as_of``).

        ``proceedings_on``: the day proceedings began, when they were pending on 2024-07-01 (an arrest on 20 June
        2024, a trial begun in 2022): the CrPC and the Evidence Act still govern them (BNSS 531(2)(a), BSA 170(2)),
        so they are checked on that day. The new codes' procedure and evidence provisions stay on ``as_of``, unless
        ``saved``: the question names them for the very proceedings pending on 2024-07-01 (a further investigation under
        "s.193(9) BNSS" of an investigation pending since 2023), which go on "as if this Sanhita had not come into
        force", so they too are checked on that day and fail, naming the CrPC's section; not a bail application, an
        appeal or a revision (``FRESH_PROCEEDINGS``), which is a proceeding of its own, pending only from when it is
        made.
        """
        day = day_or_today(as_of)
        for name, value in (("offence_on", offence_on), ("proceedings_on", proceedings_on)):
            if value is not None:
                check_day(value, name)
        days = _Days(day, offence_on, proceedings_on, saved=saved)
        extractor, checker, quote_checker = self._ready()
        cits = extractor.extract(text)
        if adjacent:
            cits = _with_adjacent(text, cits)
        checker.prefetch([k for c in cits if c.label is Label.PROVISION for k in c.keys])
        checks: list[CitationCheck] = []
        unreachable = False
        sources: list[tuple[int, str, str | None]] = []  # (position, label, text) of checked provisions
        spans = find_quotes(text)
        for c in cits:
            for verdict, key_label in self._check(c, checker, days, _cited_as(c, cits)):
                checks.append(_citation_out(c, verdict, key_label))
                unreachable |= verdict.unreachable
                # A section named inside a quotation is the statute's own cross-reference ("... under section 509
                # of the Indian Penal Code"): no quotation is attributed to it.
                inside = any(q.start <= c.start < q.end for q in spans)
                if c.label is Label.PROVISION and verdict.act and verdict.section and not inside:
                    sources.append((c.start, f"{verdict.act} {verdict.section}", verdict.text))
        quotes = [self._check_quote(q, text, sources, context_chunks, quote_checker) for q in spans]
        summary = Counter(c.status.value for c in checks)
        summary.update(f"quote_{q.status.value}" for q in quotes)
        # Incomplete only when something could not be reached: a rule the graph does not hold is unchecked
        # (shown as such), but the report on everything else is whole.
        unchecked = unreachable or any(q.status is QuoteStatus.UNCHECKED for q in quotes)
        return VerificationReport(as_of=day, citations=checks, quotes=quotes, summary=dict(summary),
                                  unchecked=unchecked)

    def _check(
        self, c: Citation, checker: CitationChecker, days: _Days, cited_as: str
    ) -> list[tuple[Verdict, str | None]]:
        day = days.as_of
        if c.label is Label.PROVISION:
            out: list[tuple[Verdict, str | None]] = []
            if not c.act and c.statute is not None and (c.keys or c.units):  # linked to a statute we do not hold
                unheld = f"{c.text}: its statute, {cited_as}, is not in the statute graph, so it"
                out += [(Verdict(CitationStatus.UNRESOLVED, f"{unheld} could not be checked"), k.label) for k in c.keys]
                out += [(Verdict(CitationStatus.UNCHECKED, f"{unheld} was not checked"), unit_label(kind, k))
                        for kind, k in c.units]  # fmt: skip
                return out
            out += [(checker.check_provision(k, days.day_for(k.act, k.section), c.text), k.label)
                    for k in c.keys]  # fmt: skip
            out += [(checker.check_unit(kind, k, day, c.text), unit_label(kind, k)) for kind, k in c.units]
            return out or [(Verdict(CitationStatus.UNRESOLVED, f"'{c.text}' could not be read as a provision"), None)]
        if c.label is Label.STATUTE:
            return [(checker.check_statute(c.act, cited_as, days.day_for(c.act, None)), None)]
        if c.label is Label.PRECEDENT:
            return [(checker.check_precedent(c.text), None)]
        return [(Verdict(CitationStatus.NOT_IN_REGISTRY, f"{c.text}: no registry of notifications is loaded; "
                         "could not verify"), None)]

    # -- quotes --

    def _check_quote(
        self,
        q: QuoteSpan,
        text: str,
        sources: list[tuple[int, str, str | None]],
        chunks: Sequence[ContextChunk],
        checker: QuoteChecker,
    ) -> QuoteCheck:
        chunk_passages = [Passage(str(ch["id"]), str(ch["text"])) for ch in chunks if ch.get("text")]
        chunk = _chunk_after(q, text, chunk_passages)
        lo, hi = _attribution_window(text, q)
        named = _nearest(q, sources, lo, hi)  # whether or not the graph holds its text
        # Unless the sentence also names the chunk's provision ("Section 303(2) of the BNS, which replaced
        # section 379 IPC, provides: ..." names BNS 303):
        if chunk is not None and named is not None and not any(
                same_provision(chunk.source, s[1]) for s in sources if lo <= s[0] < hi):
            # The sentence attributes the quotation to one provision and marks it as taken from another:
            # what the reader sees is the named provision, so that is what the quotation must match.
            if not named[2]:
                return QuoteCheck(
                    text=q.text, start=q.start, end=q.end, source=named[1], status=QuoteStatus.MISATTRIBUTED,
                    score=0.0, right_source=chunk.source,
                    message=f"the quotation is taken from {chunk.source} but attributed to {named[1]}, "
                            "whose text the graph does not hold",
                )  # fmt: skip
            cited: Passage | None = Passage(named[1], named[2])
        else:
            cited = chunk or self._provision_near(q, text, sources)
        others = [p for p in chunk_passages if cited is None or p.source != cited.source]
        if cited is not None and cited.source.split(" ")[0] in self._known_acts():
            others.extend(self._same_act(cited.source.split(" ")[0], exclude=cited.source))
        try:
            res = checker.check(q.text, cited, others)
            if res.status is QuoteStatus.MISATTRIBUTED and cited is not None:
                res = self._misquote_or_misattribution(q.text, cited, res, checker)
        except StoreUnavailableError as exc:
            return QuoteCheck(text=q.text, start=q.start, end=q.end, source=cited.source if cited else None,
                              status=QuoteStatus.UNCHECKED, score=0.0, message=f"could not check: {exc}")
        return QuoteCheck(text=q.text, start=q.start, end=q.end, source=cited.source if cited else None,
                          status=res.status, score=round(res.score, 4), closest=res.closest,
                          right_source=res.right_source, message=res.message)

    def _misquote_or_misattribution(
        self, quote: str, cited: Passage, found_elsewhere: QuoteResult, checker: QuoteChecker
    ) -> QuoteResult:
        """Statute language repeats: "imprisonment of either description for a term which may extend
        to ten years" is verbatim in dozens of sections. When the cited provision holds a near copy
        of the quote that differs materially (ten years for seven), the error is a misquote of the
        cited provision, not an attribution to the wrong one."""
        own = checker.check(quote, cited, [])
        if own.status is QuoteStatus.MISQUOTED and own.score >= self.fuzzy_threshold:
            return QuoteResult(
                QuoteStatus.MISQUOTED, own.score, own.closest, found_elsewhere.right_source,
                f"{own.message} (the quoted words do appear verbatim in {found_elsewhere.right_source})",
            )
        return found_elsewhere

    def _provision_near(self, q: QuoteSpan, text: str, sources: list[tuple[int, str, str | None]]) -> Passage | None:
        """The cited provision in the quote's sentence whose text the graph holds, the last one before the
        quote first."""
        pick = _nearest(q, [s for s in sources if s[2]], *_sentence_bounds(text, q.start))
        return Passage(pick[1], pick[2] or "") if pick else None

    def _known_acts(self) -> set[str]:
        checker = self._checker
        return checker.resolver.codes() if checker and checker.resolver else set()

    def _same_act(self, act: str, exclude: str) -> list[Passage]:
        """Every unit of the cited Act, for "found verbatim in a different provision" (cached per Act)."""
        passages = self._act_passages.get(act)
        if passages is None:  # built once: an Act has hundreds of units, and every quote asks
            passages = tuple(Passage(f"{act} {label}", t) for label, t in self.store.act_texts(act).items() if t)
            self._act_passages[act] = passages
        return [p for p in passages if p.source != exclude]


def _with_adjacent(text: str, cits: list[Citation]) -> list[Citation]:
    """``cits`` and, after them (the extractor's indexes into ``cits`` stay right), a provision for each bare
    number beside a statute the graph knows."""
    index = {id(c): i for i, c in enumerate(cits)}
    extra = [Citation(start=pos, end=pos + len(number), text=number, label=Label.PROVISION,
                      keys=(CitationKey(statute.act, number),), act=statute.act, statute=index[id(statute)],
                      kind="section")
             for pos, statute, number in adjacent_sections(text, cits) if statute.act]  # fmt: skip
    return [*cits, *extra]


def _cited_as(c: Citation, cits: Sequence[Citation]) -> str:
    """How a citation is named in messages: "the said Act" and "the Act" by the statute they refer back to, a
    provision whose statute the graph does not know by that statute."""
    if c.label is Label.STATUTE and c.said and "antecedent" in c.extra:
        return cits[int(c.extra["antecedent"])].text
    if c.label is Label.PROVISION and not c.act and c.statute is not None:
        return f"'{_cited_as(cits[c.statute], cits)}'"
    return c.text


def same_provision(chunk_id: str, label: str) -> bool:
    """Does chunk ``BNSS:402:a:0`` belong to provision ``BNSS 402(1)``? Same Act and same section number.
    A source that is not a chunk id (a provision label) is compared the same way."""
    if ":" in chunk_id:
        parts = chunk_id.split(":")
        act, section = parts[0], parts[1] if len(parts) > 1 else ""
    else:
        act, _, section = chunk_id.partition(" ")
    l_act, _, l_section = label.partition(" ")
    return act == l_act and main_section(section) == main_section(l_section)


def _chunk_after(q: QuoteSpan, text: str, chunks: list[Passage]) -> Passage | None:
    """A ``[chunk-id]`` marker within a few characters after the closing quote attributes it."""
    # Only the run of markers right after the quote: a short next sentence's marker is not this quote's.
    run = _MARKERS.match(text, q.end, q.end + 80)
    marked = [p for p in chunks if run is not None and f"[{p.source}]" in run.group()]
    # A sentence that quotes a clause after its lead-in is marked with both chunks: the one holding the quote.
    quoted = " ".join(q.text.split())
    return next((p for p in marked if quoted in " ".join(p.text.split())), marked[0] if marked else None)


def _nearest(
    q: QuoteSpan, sources: list[tuple[int, str, str | None]], start: int, end: int
) -> tuple[int, str, str | None] | None:
    """The provision cited in ``[start, end)`` closest to the quote: the last one before it, else the first after."""
    before = [s for s in sources if start <= s[0] < q.start]
    after = [s for s in sources if q.end <= s[0] < end]
    return before[-1] if before else (after[0] if after else None)


def _attribution_window(text: str, q: QuoteSpan) -> tuple[int, int]:
    """Where a quotation's attribution can be: from the end of whatever came before it in its sentence (a
    previous quotation, chunk marker or line) to a few words after it, up to its own chunk marker. A sentence
    that ends inside a quotation (':"') must not lend the next sentence's citation to this one, or the other
    way round."""
    start, end = _sentence_bounds(text, q.start)
    opening = max(q.start - 1, start)
    prev = max(text.rfind("]", start, opening), text.rfind('"', start, opening), text.rfind("\n", start, opening))
    lo = prev + 1 if prev >= 0 else start
    nxt = [i for i in (text.find('"', q.end + 1, end), text.find("\n", q.end, end), text.find("]", q.end, end))
           if i >= 0]
    hi = min([end, q.end + 60, *nxt])
    return lo, hi


def _sentence_bounds(text: str, pos: int) -> tuple[int, int]:
    start = 0
    for m in _SENTENCE_END.finditer(text, 0, pos):
        start = m.end()
    end = _SENTENCE_END.search(text, pos)
    return start, (end.start() if end else len(text))


def _citation_out(c: Citation, v: Verdict, key_label: str | None) -> CitationCheck:
    return CitationCheck(
        start=c.start, end=c.end, text=c.text, label=c.label, act=v.act or c.act, act_title=v.act_title,
        section=v.section or key_label, status=v.status,
        successors=[SuccessorOut(act=p.act, section=p.section, relation=p.relation, note=p.note)
                    for p in v.successors],
        message=v.message,
        key=f"{v.act} {v.section}" if c.label is Label.PROVISION and v.act and v.section else (c.normalised or None),
    )


FRESH_PROCEEDINGS: dict[str, tuple[tuple[int, int], ...]] = {"BNSS": ((413, 445), (478, 496))}
"""Sections of the new procedure code that begin a proceeding of its own: appeals (Chapter XXXI, ss.413-435),
reference and revision (Chapter XXXII, ss.436-445), bail and bonds (Chapter XXXV, ss.478-496). One made after
2024-07-01 in a matter pending then was not itself pending immediately before it, which is all BNSS s.531(2)(a)
keeps under the CrPC."""


def fresh_proceeding(act: str, section: str) -> bool:
    """Whether ``act`` s.``section`` begins a proceeding of its own (``FRESH_PROCEEDINGS``)."""
    m = re.match(r"\d+", section)
    return m is not None and any(lo <= int(m.group()) <= hi for lo, hi in FRESH_PROCEEDINGS.get(act, ()))


@dataclass(frozen=True, slots=True)
class _Days:
    """The days citations are checked on (``Verifier.verify``)."""

    as_of: str
    offence_on: str | None = None
    proceedings_on: str | None = None
    saved: bool = False

    def day_for(self, act: str | None, section: str | None) -> str:
        """The old penal code, and the new one's sections other than its repeal-and-savings section, on the day
        of the offence; the old procedure and evidence codes on the day pending proceedings began, and, when
        ``saved`` (``Verifier.verify``), the new ones' sections too but their repeal-and-savings sections and the
        sections of fresh proceedings (BNSS s.531(2)(a), BSA s.170(2): what was pending on 2024-07-01 goes on "as if
        this Sanhita had not come into force", so the BNSS's s.193 is not the law of an investigation pending since
        2023, the CrPC's s.173 is); everything else, and a new code named as a whole (``section`` None), on
        ``as_of``."""
        if act is None:
            return self.as_of
        if self.proceedings_on is not None:
            if act in SAVINGS and act != PENAL_CODE:
                return self.proceedings_on
            if (self.saved and act in NEW_CODES and NEW_CODES[act] != PENAL_CODE and section is not None
                    and section != SAVINGS[NEW_CODES[act]][1] and not fresh_proceeding(act, section)):
                return self.proceedings_on
        if self.offence_on is None:
            return self.as_of
        new, savings = SAVINGS[PENAL_CODE]
        if act == PENAL_CODE or (act == new and section is not None and section != savings):
            return self.offence_on
        return self.as_of


def verify(
    text: str,
    context_chunks: Sequence[ContextChunk] = (),
    as_of: str | None = None,
    *,
    store: GraphReader | None = None,
    verifier: Verifier | None = None,
    offence_on: str | None = None,
    proceedings_on: str | None = None,
) -> VerificationReport:
    """Verify ``text``. Pass a built ``verifier`` (fast, reusable) or a ``store`` (one-off); ``offence_on`` and
    ``proceedings_on`` as in ``Verifier.verify``.

    Raises:
        ConfigurationError: neither a verifier nor a store was given.
    """
    if verifier is None:
        if store is None:
            raise ConfigurationError("verify() needs store= (a GraphReader) or verifier= (a Verifier)")
        verifier = Verifier(store)
    return verifier.verify(text, context_chunks, as_of, offence_on=offence_on, proceedings_on=proceedings_on)
