"""The workflow's nodes. Each takes the state and the runtime (whose ``context`` holds every
collaborator) and returns the state keys it sets."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import date
from functools import partial
from itertools import zip_longest

from langgraph.runtime import Runtime

from graph_schema.acts import CURATED_BY_CODE
from graph_schema.errors import GenerationError
from graph_schema.model import main_section
from legal_rag.retrieval.hybrid import Retrieved
from legal_rag.retrieval.offences import PENAL_CODES, PROCEDURE_CODES
from legal_rag.retrieval.types import Chunk
from legal_rag.workflow import confidence as conf
from legal_rag.workflow.amounts import admits
from legal_rag.workflow.attempt import general_attempt_for
from legal_rag.workflow.context import WorkflowContext
from legal_rag.workflow.coverage import Coverage, question_coverage, subject_words
from legal_rag.workflow.date_spans import find_spans
from legal_rag.workflow.dates import EventKind
from legal_rag.workflow.direct import with_direct_answers
from legal_rag.workflow.facts import (
    EVE,
    OUTSIDE_STATUTES,
    SHORTHAND_CODES,
    Ask,
    AskKind,
    QuestionFacts,
    asking_text,
    colloquial_numbers,
    investigated_then,
    pending_choice_warnings,
    read_facts,
    shorthand_numbers,
    steps_since_cutover,
    textless_statement,
    textless_warning,
    unknown_act_warning,
)
from legal_rag.workflow.forms import about, decides, form_query, formed_asks, of_the_story, prosecutes, sets_up
from legal_rag.workflow.generators.extractive import (
    content_stems,
    heading_title,
    lead_in_only,
    parent_prefix,
    unit_of,
)
from legal_rag.workflow.mixups import (
    OLD_CODES,
    PARTNER_CODE,
    NumberMixup,
    Side,
    find_mixups,
    fits_elsewhere,
    unconfirmed,
)
from legal_rag.workflow.parts import question_parts
from legal_rag.workflow.personal_law import community_acts
from legal_rag.workflow.results import (
    Claim,
    Confidence,
    ConfidenceLabel,
    DraftClaim,
    Source,
    VerificationMethod,
    VerificationSummary,
)
from legal_rag.workflow.state import WorkflowState
from legal_rag.workflow.transition import SAVINGS, savings_for, savings_told
from legal_rag.workflow.types import PUT_FORWARD, Complexity, Generation, Passage, Pin, Verdict
from verification.check.existence import SAVINGS as EXISTENCE_SAVINGS
from verification.model import CitationCheck, CitationStatus, Label, QuoteStatus
from verification.verify import same_provision

FABRICATED = frozenset({CitationStatus.NOT_FOUND, CitationStatus.UNKNOWN_ACT})
"""A claim citing one of these rests on a provision that does not exist: it is removed."""
NO_ANSWER = "None of the drafted statements could be verified against the statutes, so no answer is given."


ASSERTED_WARNING = ("The question takes something about the law as given. The provisions quoted say what the law "
                    "is; this answer does not judge the statement: check it against their words before relying on it.")


def classify(state: WorkflowState, runtime: Runtime[WorkflowContext]) -> WorkflowState:
    return {"classification": runtime.context.classifier.classify(state["question"])}


def understand(state: WorkflowState, runtime: Runtime[WorkflowContext]) -> WorkflowState:
    """Read the question once (``QuestionFacts``: its dates, asks, named provisions and premises) and check the
    provisions it names for the date of the facts: a repealed one is flagged with its successor, one that does not
    exist is said not to exist, one with no successor is a premise the answer corrects first."""
    ctx = runtime.context
    question, as_of = state["question"], state["as_of"]

    comparison = state["classification"].complexity is Complexity.ANALYTICAL

    def read(day: str) -> QuestionFacts:
        """The question read for facts on ``day``, its citations checked for that day."""
        # the new procedure and evidence codes the question names for the proceedings pending on 2024-07-01 are
        # checked as of then, unless it tells a step of a criminal matter taken since (an FIR, an arrest, a
        # conviction in 2025), which the new codes govern
        since = steps_since_cutover(question, day)

        def checks_for(offence_on: str | None, proceedings_on: str | None) -> list[CitationCheck]:
            saved = proceedings_on is not None and not since
            report = ctx.verifier.verify(question, [], day, offence_on=offence_on, proceedings_on=proceedings_on,
                                         adjacent=True, saved=saved)
            found = [c for c in report.citations if c.label in (Label.PROVISION, Label.STATUTE)]
            if any(c.act for c in found):  # an Act named: the extractor read the numbers with it
                return found
            # no Act named: a number used as a name ("a section 377 case") is read as its code's, in place of the
            # section no statute was found for
            shorthand = _shorthand_checks(ctx, question, day, offence_on, proceedings_on)
            return [c for c in found if not any(s.start < c.end and c.start < s.end for s in shorthand)] + shorthand

        def known_act(name: str) -> bool:
            report = ctx.verifier.verify(name, [], day)
            return any(c.label is Label.STATUTE and c.act for c in report.citations)

        return read_facts(question, day, comparison=comparison, checks_for=checks_for, lapsed=ctx.lapsed,
                          known_act=known_act)

    facts = read(as_of)
    if facts.closed_on is not None:  # a matter over before 2024-07-01: its law is the law of that day
        # read again on that day, its dates kept as read from today ("three years ago" is not re-anchored)
        as_of = facts.closed_on
        facts = replace(read(as_of), closed_on=facts.closed_on, dates=facts.dates)
    if not comparison:  # a comparison names both codes' numbers on purpose
        facts = replace(facts, mixups=_mixups(ctx, question, facts))
        facts = replace(facts, textless=_textless(ctx, facts), absent=_absent(ctx, facts))
        if not facts.mixups:  # a mix-up is said already, and answered from the section meant
            lapsed = {(p.lapsed.act, p.lapsed.section) for p in facts.premises}
            facts = replace(facts, unconfirmed=unconfirmed(question, facts.checks, partial(_section_text, ctx),
                                                           similarity=ctx.similarity, skip=lapsed))
    checks = list(facts.checks)
    # A confused number's own check would send the user to its successor ("IPC s.318 ... cite BNS s.94", concealment
    # of birth) beside the mix-up warning pointing elsewhere: the mix-up warning replaces it.
    warnings = [c.message for c in checks if c.status is not CitationStatus.VERIFIED and c.label is Label.PROVISION
                and not facts.confused(c)]
    warnings += [unknown_act_warning(name) for name in facts.unknown_acts]
    warnings += [textless_warning(act, section) for act, section, _ in facts.textless]
    warnings += pending_choice_warnings(question, facts)
    warnings += [p.warning() for p in facts.premises] + [m.warning() for m in facts.mixups]
    warnings += [f"Check that {name} fits the facts told: its text uses none of the question's own words for them, "
                 "and is far from them in meaning." for name in facts.unconfirmed]
    if facts.asserted_unanswered():
        warnings.append(ASSERTED_WARNING)
    return {"facts": facts, "question_checks": checks, "warnings": warnings, "as_of": as_of}


def _mixups(ctx: WorkflowContext, question: str, facts: QuestionFacts) -> tuple[NumberMixup, ...]:
    """The question's sections whose number it seems to take from the other code (``mixups.find_mixups``), each
    with what answers its subject on the facts' date: the meant section itself when its code governs them, else
    what replaced it."""

    def title(act: str, section: str) -> str | None:
        chunks = ctx.retriever.section_chunks(act, section)
        return next((c.title for c in chunks if c.title), None)

    def targets(meant: Side) -> tuple[tuple[str, str], ...]:
        old = meant.act if meant.act in OLD_CODES else PARTNER_CODE[meant.act]
        # the meant section's other side when the other code governs the facts: what replaced an old section for
        # facts after 2024-07-01, what a new section replaced for an offence before it
        want = Pin.SUCCESSOR if meant.act in OLD_CODES else Pin.PREDECESSOR
        if (meant.act in OLD_CODES) != facts.old_law_governs(old):
            other = tuple(dict.fromkeys((c.act, c.section) for pin, c in ctx.retriever.counterparts(
                meant.act, meant.section) if pin is want))  # fmt: skip
            if other:
                return other
        return ((meant.act, meant.section),)

    def text(act: str, section: str) -> str:
        return " ".join(c.text for c in ctx.retriever.section_chunks(act, section))

    return find_mixups(question, facts.checks, title=title,
                       exists=lambda act, section: bool(ctx.retriever.section_chunks(act, section)),
                       targets=targets, similarity=ctx.similarity, text=text)  # fmt: skip


def _textless(ctx: WorkflowContext, facts: QuestionFacts) -> tuple[tuple[str, str, str | None], ...]:
    """The provisions the question names that the graph records (the check found them) without their text
    (``QuestionFacts.textless``: its record says so), with their headings."""
    if ctx.section_record is None:
        return ()
    out: dict[tuple[str, str], str | None] = {}
    for c in facts.checks:
        if c.label is not Label.PROVISION or not c.act or not c.section or c.status in FABRICATED:
            continue
        number = c.section.split("(")[0]
        if (c.act, number) in out or facts.confused(c):
            continue
        record = ctx.section_record(c.act, number)
        if record is not None and not record.has_text:
            out[(c.act, number)] = record.title
    return tuple((act, section, title) for (act, section), title in out.items())


def _absent(ctx: WorkflowContext, facts: QuestionFacts) -> tuple[str, ...]:
    """What the checker said of the sections the question names that are not there (``QuestionFacts.absent``): found
    nowhere in an Act whose text the index holds, so that the Act's own sections show the number is not among them.
    Not a sub-unit the checker could not match to its section's clauses ("13(1)(i-a)" of the HMA: the section is
    there), an Act held by its index of sections only (some are indexed by page, so a missing number proves nothing),
    or an Act the graph does not hold at all (the Constitution: not checked, said by the checker's warning)."""
    out: dict[str, None] = {}
    for c in facts.checks:
        if (c.label is not Label.PROVISION or c.status is not CitationStatus.NOT_FOUND or not c.act or not c.section
                or facts.confused(c)):
            continue
        held = ctx.retriever.section_chunks(c.act, "1")
        if held and not ctx.retriever.section_chunks(c.act, main_section(c.section)):
            out[c.message] = None
    return tuple(out)


def _section_text(ctx: WorkflowContext, act: str, section: str) -> str:
    """A section's heading and whole text ("" when the index does not hold it)."""
    chunks = ctx.retriever.section_chunks(act, section)
    title = next((c.title for c in chunks if c.title), "")
    return " ".join([title or "", *(c.text for c in chunks)]).strip()


def after_understand(state: WorkflowState, runtime: Runtime[WorkflowContext]) -> str:
    """A lookup of provisions that do not exist is answered by saying so, not by quoting neighbours."""
    provisions = [c for c in state.get("question_checks", []) if c.label is Label.PROVISION]
    simple = state["classification"].complexity is Complexity.SIMPLE
    facts = state.get("facts")
    meant = facts is not None and bool(facts.mixups)  # "theft under section 379 BNS": answered from IPC 379's successor
    # a lookup of provisions the graph holds no text of, in force on the date (or replaced by nothing), likewise
    unquotable = [c for c in provisions if c.status in FABRICATED or (
        facts is not None and facts.is_textless(c) and (c.status is CitationStatus.VERIFIED or not c.successors))]
    if provisions and simple and len(unquotable) == len(provisions) and not meant:
        return "finalise"
    return "retrieve"


def to_passage(r: Retrieved) -> Passage:
    relevance = 1.0 if r.pinned else max(0.0, float(r.scores.get("dense", 0.0)))
    return _passage(r.chunk, score=r.score, pinned=r.pinned, relevance=round(relevance, 4), told=r.told,
                    told_score=float(r.scores.get("lay", 0.0)) if r.told else 0.0)


def _passage(c: Chunk, *, score: float, pinned: Pin | None, relevance: float, told: str = "",
             told_score: float = 0.0) -> Passage:
    return Passage(
        chunk_id=c.id, act=c.act, section=c.section, heading=c.heading, text=c.text, status=c.status,
        score=score, pinned=pinned, in_force_from=c.in_force_from, in_force_to=c.in_force_to, relevance=relevance,
        told=told, told_score=told_score,
    )  # fmt: skip


def _first_per_section(passages: Sequence[Passage]) -> list[Passage]:
    """Each section once, at its first (best-ranked) passage."""
    first: dict[tuple[str, str], Passage] = {}
    for p in passages:
        first.setdefault((p.act, p.section), p)
    return list(first.values())


def retrieval_is_weak(passages: Sequence[Passage], threshold: float) -> bool:
    """No passage is relevant enough or pinned for what the question names (``Pin.ASK`` is put forward for the kind of
    an ask, not for its subject: it does not make weak retrieval strong)."""
    return not any((p.pinned and p.pinned not in PUT_FORWARD) or p.relevance >= threshold for p in passages)


def retrieve(state: WorkflowState, runtime: Runtime[WorkflowContext]) -> WorkflowState:
    """Hybrid retrieval for the question; a second round (only after a weak first) widens k and
    searches the question's content words alone, without the conversational wrapper."""
    ctx = runtime.context
    rnd = state.get("retrieval_round", 0) + 1
    k = ctx.settings.k[state["classification"].complexity.value]
    query = without_dates(_numbers_named(state["question"], state.get("question_checks", [])), state["facts"])
    if rnd > 1:
        k *= 2
        words = [w for w in query.split() if content_stems(w)]
        query = " ".join(words) or query
    found = _in_personal_law([to_passage(r) for r in ctx.retriever.retrieve(query, k, as_of=state["as_of"])],
                             state["facts"])
    # A question that asks what a named Act itself says ("penalty for drunk driving under the Motor Vehicles Act") gets
    # that Act's own best sections right after the whole index's best, however strongly another Act's wording pulls
    # the whole index (the penal code's "rash driving" for "drunk driving"). Not for an ask that other law may decide
    # ("a legal notice under section 138 of the NI Act: can I get anticipatory bail?"), nor when the question rests on
    # a provision that is not law ("an FIR under section 66A of the IT Act"), nor when it names only the criminal
    # codes, whose wording the whole index already ranks first for it.
    scope = _named_scope(state["facts"])
    if scope - _CRIMINAL_CODES and not state["facts"].premises and state["facts"].kinds() & _OWN_WORDS:
        found = _with_own_sections(ctx, found, query, state["as_of"], scope)
    # A family matter of the one community the question tells ("We are Hindus ... can the marriage be cancelled?") gets
    # that community's Acts' own best sections after the whole index's best: the other communities' Acts, which
    # share its words, are left out (``personal_law``), and what they held the places of is searched for.
    family = _family_acts(found, state["facts"])
    if family:
        found = _with_own_sections(ctx, found, query, state["as_of"], family)
    # A child the story tells was caught or arrested is dealt with under the Juvenile Justice Act (its s.1(4): all
    # matters of children in conflict with law), whose own best sections follow the whole index's best
    if state["facts"].child_accused and JUVENILE_JUSTICE in ctx.act_titles:
        found = _with_own_sections(ctx, found, query, state["as_of"], {JUVENILE_JUSTICE})
    parts = question_parts(state["question"])
    # A multi-part question: each ask's own best sections follow the whole question's, so that one ask's
    # provisions do not crowd out the other's ("punishment for theft, and can a Magistrate grant bail?").
    if parts:
        head = {(p.act, p.section) for p in _first_per_section(found)[:SECTIONS_EXPANDED]}
        extra = [p for part in parts for p in _ask_passages(ctx, part, state["as_of"], {p.act for p in found})]
        found = _union(_union([p for p in found if (p.act, p.section) in head], extra), found)
    day = state["facts"].offence_on
    if day is not None:
        found = _with_old_penal_code(ctx, found, query, day)
    if state["facts"].pending_since is not None:
        found = _with_old_procedure(ctx, found, query, EVE)
    elif state["facts"].civil_evidence or (
            investigated_then(state["facts"], state["question"]) and _evidence_asked(state["question"], found)):
        # (or a civil matter pending since then whose question asks what may prove it: BSA 170(2) saves it too)
        # an offence of before 2024-07-01 that a death or the story's proceedings show was investigated then: what
        # may prove it is the Evidence Act's (BSA 170(2)), as for any matter pending on that day
        found = _with_old_codes(ctx, found, query, EVE, [SAVINGS["evidence"]])
    found = _with_meant(ctx, found, state["facts"].mixups)
    found = _with_today(ctx, found, state["facts"])
    found = _with_ask_forms(ctx, found, state["facts"])
    found = _with_story_offence(ctx, found, state["facts"])
    top = SECTIONS_EXPANDED + PART_K * len(parts)
    passages = _with_partners(ctx, _with_siblings(ctx, found, top=top), top=top)
    passages = _with_lead_ins(ctx, passages)
    if state["classification"].complexity is Complexity.ANALYTICAL:
        passages = _with_counterparts(ctx, passages, state["question"], top=COUNTERPARTS)
    passages = _with_savings(ctx, passages, state["question"], state["facts"])
    passages = _with_general_attempt(ctx, passages, state["question"], day or state["as_of"])
    # again: what the steps above added (partners, siblings, forms) may be another community's too
    passages = _in_personal_law(passages, state["facts"])
    if rnd > 1:  # keep the better of the two rounds
        passages = _union(state.get("passages", []), passages)
    return {"passages": passages, "retrieval_round": rnd}


def _with_own_sections(ctx: WorkflowContext, found: list[Passage], query: str, as_of: str,
                       acts: set[str]) -> list[Passage]:
    """``found`` with the best ``SCOPED_K`` sections of ``acts`` for ``query`` right after its first."""
    own = [to_passage(r) for r in ctx.retriever.retrieve(query, SCOPED_K, as_of=as_of, acts=acts)]
    return _union(_union(found[:1], own), found)


def _family_acts(found: Sequence[Passage], facts: QuestionFacts) -> set[str]:
    """The personal-law Acts of the one community the question tells, when retrieval's first sections are of one of
    them (a family matter, not a crime that happens to name the parties' faith)."""
    told = facts.personal_law
    if len(told.communities) != 1 or told.civil:
        return set()
    acts = set(community_acts(next(iter(told.communities))))
    first = {p.act for p in _first_per_section(found)[:SECTIONS_EXPANDED]}
    return acts if first & acts else set()


def _in_personal_law(passages: list[Passage], facts: QuestionFacts) -> list[Passage]:
    """Without the provisions of another community's personal law than the one the question tells ("We are Hindus":
    not the Divorce Act's grounds for Christians; ``personal_law``), unless the question names them."""
    return [p for p in passages if p.pinned is Pin.CITED or not facts.outside_personal_law(p.act, p.section)]


_BARE_NUMBER = re.compile(r"\d{1,3}[A-Z]{0,2}")


# "two years" of "Two years before the new laws came in, ...": a count of time at the head of a clause that only places
# the date after it (not "sentenced to seven years before ...", "in jail for 90 days before ...": a fact)
_COUNT_BEFORE = re.compile(r"(?:^|[.,;:!?]\s*|\b(?:and|but|so)\s+)(?P<count>(?:\d{1,3}|an?|one|two|three|four|five|six|"
                           r"seven|eight|nine|ten|eleven|twelve|a\s+few|few|some|several|many)\s+(?:years?|yrs?|months?|"
                           r"weeks?|days?))\s*$", re.IGNORECASE)


def without_dates(query: str, facts: QuestionFacts) -> str:
    """``query`` as retrieval reads it: the date words the question's reading attached to events ("Back in 2021",
    "Two years before the new criminal laws came in", "from 2023", "in April 2024") left out, where they are written
    (found again in ``query``: a month's name that is no date, "May I sue him?", stays). They decide which law governs
    (the facts' dates do that), never which provision: "two years" and "criminal laws" match every section that
    punishes with two years or names a criminal law, and crowd out the one the story tells ("a servant took 1.5 lakh
    from the cash drawer": theft by clerk or servant). A law's own date ("after the 2005 amendment") is no event's and
    stays; so do time limits the question asks about ("within 30 days"), which date nothing."""
    text = " ".join(query.split())
    phrases = {e.phrase for e in facts.dates if e.phrase and e.kind is not EventKind.LAW}
    if not phrases:
        return text or query
    cuts: list[tuple[int, int]] = []
    for span in find_spans(text, date.fromisoformat(facts.as_of)):
        words = text[span.start_at:span.end_at]
        if words not in phrases:
            continue
        start = span.start_at
        if words.lower().startswith(("before", "after")):
            count = _COUNT_BEFORE.search(text[:start])
            start = count.start("count") if count else start
        cuts.append((start, span.end_at))
    out, at = [], 0
    for start, end in cuts:
        out.append(text[at:start])
        at = max(at, end)
    out.append(text[at:])
    return " ".join(" ".join(out).split()) or query


def _numbers_named(question: str, checks: Sequence[CitationCheck]) -> str:
    """The question as retrieval reads it: a number it uses as a section's name with no Act ("a 420 case", "the 138
    case": ``_shorthand_checks``) written as the provision it was read as ("section 420 IPC"), so that retrieval brings
    that provision and what replaced it, as for one named in full, and does not match the bare number in other Acts'
    headings (BNSS s.420, an appeal, for "a 420 case")."""
    out, at = [], 0
    for c in sorted((c for c in checks if c.act and c.section and _BARE_NUMBER.fullmatch(c.text)),
                    key=lambda c: c.start):
        if c.start < at or question[c.start:c.end] != c.text or re.search(
                rf"\b{re.escape(c.act or '')}\b", question[max(0, c.start - 12):c.end + 12], re.IGNORECASE):
            continue  # not the number written, or its Act named beside it ("a 318 BNS case")
        out += [question[at:c.start], f"section {c.text} {c.act}"]
        at = c.end
    return "".join([*out, question[at:]])


def _ask_passages(ctx: WorkflowContext, ask: str, as_of: str, acts: set[str]) -> list[Passage]:
    """The best ``PART_K`` passages for one ask of a multi-part question, among the Acts the whole question
    retrieved: the asks share its subject ("within what time must the complaint be filed" is about the
    cheque-bounce complaint of the first ask, not any complaint). Over every Act when nothing there is relevant
    (the other asks filled the whole question's results with their own Act)."""
    found = [to_passage(r) for r in ctx.retriever.retrieve(ask, PART_K, as_of=as_of, acts=acts)]
    if retrieval_is_weak(found, ctx.settings.weak_retrieval):
        found = [to_passage(r) for r in ctx.retriever.retrieve(ask, PART_K, as_of=as_of)]
    return found


SCOPED_K = 3
"""Sections of the Acts a question names put right after the whole index's best (``retrieve``)."""
_OWN_WORDS = frozenset({AskKind.PUNISHMENT, AskKind.INGREDIENTS, AskKind.DEFINITION, AskKind.TEXT})
"""Asks that what a named Act itself says decides."""
SECTIONS_EXPANDED = 4
PART_K = 2
"""Sections retrieved (and expanded whole) for each ask of a multi-part question."""
SIBLINGS = 12
COUNTERPARTS = 3


def _with_counterparts(ctx: WorkflowContext, passages: list[Passage], question: str, top: int) -> list[Passage]:
    """ANALYTICAL questions (compare, how it changed) get the other side of the 2024 replacement
    (pinned ``Pin.COUNTERPART``) for the ``top`` old- or new-code sections that share most
    words with the question, whatever the date: the date filter would hide it."""
    q = content_stems(question)
    best: dict[tuple[str, str], tuple[int, Passage]] = {}
    for p in passages:
        hit = len(q & content_stems(f"{p.heading} {p.text}"))
        key = (p.act, p.section)
        if key not in best or hit > best[key][0]:
            best[key] = (hit, p)
    chosen = [p for _, p in sorted(best.values(), key=lambda hp: -hp[0])[:top]]
    return _with_chunks(passages, (
        (c, p.score, Pin.COUNTERPART, p.relevance)
        for p in chosen for _, c in ctx.retriever.counterparts(p.act, p.section)
    ))  # fmt: skip


def _with_savings(ctx: WorkflowContext, passages: list[Passage], question: str, facts: QuestionFacts) -> list[Passage]:
    """A matter pending across 2024-07-01 is governed by the new code's repeal-and-savings provision (BNSS 531,
    BNS 358, BSA 170) as well as the substantive one: bring it in, pinned so that it is quoted."""
    return _with_chunks(passages, (
        (c, float("inf"), Pin.SAVINGS, 1.0)
        for act, section in savings_told(question, pending=facts.pending, offence_dated=facts.offence_on is not None,
                                         proceedings_dated=facts.pending_since is not None,
                                         which_code=AskKind.WHICH_CODE in facts.kinds(),
                                         civil_evidence=facts.civil_evidence)
        for c in ctx.retriever.section_chunks(act, section)[:SIBLINGS]
    ))  # fmt: skip


def _with_old_penal_code(ctx: WorkflowContext, passages: list[Passage], question: str, day: str) -> list[Passage]:
    """An offence committed on ``day``, before 2024-07-01, and tried after is governed by the IPC (BNS 358(2)):
    the BNS cannot punish an act done before it came into force (``_with_old_codes``). The question's facts date an
    offence, so the statutes' wording for the story it tells is searched whatever it asks ("which code applies?")."""
    return _with_old_codes(ctx, passages, question, day, [SAVINGS["offence"]], offence_told=True)


def _with_old_procedure(ctx: WorkflowContext, passages: list[Passage], question: str, day: str) -> list[Passage]:
    """Proceedings begun before 2024-07-01 and pending on it (``day``: the eve of that day) are governed by the
    CrPC (BNSS 531(2)(a)) and, for evidence, the Evidence Act (BSA 170(2)) (``_with_old_codes``): evidence when the
    question says so or retrieval points to the evidence code among its best sections ("At the trial in 2023, could
    that statement be used against him?")."""
    saved = [SAVINGS["procedure"], *([SAVINGS["evidence"]] if _evidence_asked(question, passages) else [])]
    return _with_old_codes(ctx, passages, question, day, saved)


def _evidence_asked(question: str, passages: Sequence[Passage]) -> bool:
    """The question says it is about evidence, or retrieval points to the evidence code among its best sections."""
    return SAVINGS["evidence"] in savings_for(question, True) or any(
        p.act == SAVINGS["evidence"][0] for p in _first_per_section(passages)[:SECTIONS_EXPANDED])


def _with_old_codes(ctx: WorkflowContext, passages: list[Passage], question: str, day: str,
                    saved: Sequence[tuple[str, str]], *, offence_told: bool = False) -> list[Passage]:
    """The old codes whose new codes' savings provisions are ``saved`` govern the matter, which the date filter
    hides: what the correspondence tables say the new codes' best sections replaced comes first, each beside the old
    codes' own best ``SECTIONS_EXPANDED`` sections for the question, as in force on ``day`` (the search of the whole
    index, with its lay situations, finds "Punishment for murder" in the BNS for "stabbed to death ... what
    punishment?" and "Theft by clerk or servant" for "the servant took cash from the drawer", so IPC 302 and IPC 381
    are brought in by the table even where a search of the IPC's own words ranks others first; on 265 development
    questions of old-code facts, table first was right on 188, search first on 186); and the new codes' sections
    retrieval found leave, except their savings sections and a provision the question names (checked and flagged as
    such)."""
    olds = {old for old, savings in EXISTENCE_SAVINGS.items() if savings in saved}
    news = {new for new, _ in saved}
    kept = [p for p in passages if p.act not in news or (p.act, p.section) in saved or p.pinned is not None]
    found = [to_passage(r) for r in ctx.retriever.retrieve(question, SECTIONS_EXPANDED, as_of=day, acts=olds,
                                                          offence_told=offence_told)]
    replaced = [_passage(c, score=p.score, pinned=None, relevance=p.relevance, told=p.told, told_score=p.told_score)
                for p in _first_per_section(passages)[:SECTIONS_EXPANDED]
                if p.act in news and p.pinned is None and (p.act, p.section) not in saved
                for _, c in ctx.retriever.counterparts(p.act, p.section)
                if c.act in olds and _in_force(c, day)]
    return _union(_interleaved(replaced, found), kept)


def _interleaved(first: Sequence[Passage], second: Sequence[Passage]) -> list[Passage]:
    """The sections of ``first`` and ``second`` taken in turn, each section's passages together, each once."""
    def sections(ps: Sequence[Passage]) -> list[list[Passage]]:
        out: dict[tuple[str, str], list[Passage]] = {}
        for p in ps:
            out.setdefault((p.act, p.section), []).append(p)
        return list(out.values())

    out: dict[str, Passage] = {}
    for pair in zip_longest(sections(first), sections(second)):
        for p in (p for g in pair if g is not None for p in g):
            out.setdefault(p.chunk_id, p)
    return list(out.values())


def _with_meant(ctx: WorkflowContext, passages: list[Passage], mixups: Sequence[NumberMixup]) -> list[Passage]:
    """A section named by the other code's number ("murder under section 302 BNS") is not quoted as the answer: it
    and what replaced it or what it replaced leave the pinned passages, and the sections that answer the subject it
    describes (``NumberMixup.targets``) come first, pinned ``Pin.MEANT``."""
    if not mixups:
        return passages
    wrong = {(m.named.act, m.named.section) for m in mixups}
    wrong |= {(c.act, c.section) for m in mixups for _, c in ctx.retriever.counterparts(m.named.act, m.named.section)}
    meant = [(c, float("inf"), Pin.MEANT, 1.0) for m in mixups for act, section in m.targets
             for c in ctx.retriever.section_chunks(act, section)[:SIBLINGS]]
    first = _with_chunks([], meant)
    placed = {p.chunk_id for p in first}
    return first + [p for p in passages if p.chunk_id not in placed
                    and (p.pinned is None or (p.act, p.section) not in wrong)]


def _with_today(ctx: WorkflowContext, passages: list[Passage], facts: QuestionFacts) -> list[Passage]:
    """A question resting on a provision that is no longer law and has no successor gets what governs its subject
    today, where its curated record names some (``Lapsed.today``: IPC 309, attempt to suicide -> BNS 226): the unit
    named, as in force on the facts' date, pinned ``Pin.TODAY`` so that it is quoted after the statement that the
    provision is not law."""
    additions: list[tuple[Chunk, float, Pin | None, float]] = []
    for key in dict.fromkeys(k for p in facts.premises if not p.checked for k in p.lapsed.today):
        chunks = [c for c in ctx.retriever.section_chunks(key.act, key.section) if _in_force(c, facts.as_of)]
        # "13(1)(i)" is the chunk "HMA:13:1/i:0"; "13(1)" its chunk "HMA:13:1:0" and its clauses "HMA:13:1/i:0", ...
        prefix = f"{key.act}:{key.section}:{'/'.join(key.sub)}"
        unit = [c for c in chunks if c.id.startswith((prefix + ":", prefix + "/"))] if key.sub else chunks
        additions.extend((c, float("inf"), Pin.TODAY, 1.0) for c in unit[:SIBLINGS])
    wanted = {c.id for c, *_ in additions}
    # retrieval may have found them already (the question's words are theirs): pinned where they are
    marked = [replace(p, pinned=Pin.TODAY) if p.pinned is None and p.chunk_id in wanted else p for p in passages]
    return _with_chunks(marked, additions)


def _in_force(c: Chunk, day: str) -> bool:
    return (c.in_force_from or "") <= day and (c.in_force_to is None or day < c.in_force_to)


def _shorthand_checks(ctx: WorkflowContext, question: str, day: str, offence_on: str | None,
                      proceedings_on: str | None) -> list[CitationCheck]:
    """The checks of the section numbers a question that names no Act uses as names ("a 65B certificate", "the 498A
    case": ``shorthand_numbers``), each read as the one criminal code's section so numbered, checked for the date of
    the facts as if the question had named it; a number more than one code has (or none) is left unread. A penal
    number named as people name it ("dhara 379", "a 420 case": ``colloquial_numbers``) is the IPC's, where that
    section fits what the question tells (``mixups.unconfirmed``)."""
    out: list[CitationCheck] = []
    for number, start, end in shorthand_numbers(question):
        found = []
        for code in SHORTHAND_CODES:
            report = ctx.verifier.verify(f"section {number} of the {code}", [], day, offence_on=offence_on,
                                         proceedings_on=proceedings_on)
            found += _checked_provisions(report.citations)
        if len(found) == 1:
            out.append(found[0].model_copy(update={"start": start, "end": end, "text": number}))
    taken = {(c.start, c.end) for c in out}
    for number, start, end in colloquial_numbers(question):
        if (start, end) in taken:
            continue
        report = ctx.verifier.verify(f"section {number} of the {SHORTHAND_CODES[0]}", [], day, offence_on=offence_on,
                                     proceedings_on=proceedings_on)
        found = [c.model_copy(update={"start": start, "end": end, "text": number})
                 for c in _checked_provisions(report.citations)]
        # a number named as a case is read as the IPC's only where the IPC's section fits the story: "a cheque that
        # bounced ... the 138 case" is no case of abetting a soldier's insubordination (IPC 138), and is left unread
        # for retrieval to place; "dhara 379" is the IPC's section as FIRs write it, whatever words the story uses
        dhara = question[max(0, start - 8):start].lower().rstrip().endswith("dhara")
        # (nor where another Act's section so numbered holds what the story tells and the IPC's holds none: "a 138
        # case notice for a cheque that bounced" is the NI Act's)
        text = partial(_section_text, ctx)
        if found and (dhara or (not unconfirmed(question, found, text, similarity=ctx.similarity)
                                and fits_elsewhere(question, found[0], text, _NAMED_BY_NUMBER) is None)):
            out += found
    return out


def _checked_provisions(citations: Iterable[CitationCheck]) -> list[CitationCheck]:
    """The provisions of an Act the checker found (not fabricated, not left unresolved)."""
    return [c for c in citations if c.label is Label.PROVISION and c.act
            and c.status not in FABRICATED | {CitationStatus.UNRESOLVED}]


def _with_ask_forms(ctx: WorkflowContext, passages: list[Passage], facts: QuestionFacts) -> list[Passage]:
    """Each ask that wants a forum or a time limit gets the provision that decides it in the Acts the question
    retrieved (``forms``): its best-ranked section, for the ask's words, whose heading names that kind and shares a
    word of the ask's subject ("Jurisdiction" of the Domestic Violence Act, "Person arrested not to be detained more
    than twenty-four hours"), pinned ``Pin.ASK`` to be quoted. The Acts are those the question names, or else those
    its retrieval points to (``_leading_acts``). Where a matter is brought and within what time are procedure: an
    offence's are in the procedure code that governs its proceedings (the CrPC for those pending on 2024-07-01, as it
    stood on the eve; the BNSS for those begun since), whatever code defines the offence."""
    wanted = formed_asks(facts.asks)
    if not wanted:
        return passages
    acts = set(facts.acts_named) or _leading_acts(passages)
    # Acts a title word of the question names, searched when those retrieval points to decide nothing
    titled = set() if facts.acts_named else _titled_acts(ctx, passages, facts.asks) - acts
    if not acts:
        return passages
    day = EVE if facts.pending_since is not None else facts.as_of
    # an offence: the question names a penal code, or retrieval points first to one
    penal = set(facts.acts_named) & PENAL_CODES or ({_top_act(passages)} & PENAL_CODES)
    procedure = ("CRPC" if facts.old_law_governs("CRPC") else "BNSS") if penal else None
    if procedure is not None:
        acts.add(procedure)
    confused = {(m.named.act, m.named.section) for m in facts.mixups}
    told_all = " ".join(a.text for a in facts.asks)
    chosen: dict[tuple[str, str], Passage] = {}
    for ask, kind in wanted:
        asking = asking_text(ask.text)
        # per Act, the provisions so headed in the order retrieval ranks them for the ask
        found: dict[str, list[Retrieved]] = {}
        # where the story's matter goes, when neither decides: the other Acts its retrieval found ("a fridge that
        # stopped cooling ... where can I complain?": the Sale of Goods Act first, the Consumer Protection Act below)
        story = of_the_story(asking, kind)
        told_acts = _story_acts(passages) - acts - titled if story else set()
        # the general law of limitation, for a civil matter whose own Acts set no period the ask finds: the Limitation
        # Act governs every suit, appeal and application that a special law does not (LIMA s.3, s.29(2))
        general = ({GENERAL_LIMITATION} - acts - titled - told_acts
                   if kind is AskKind.TIME_LIMIT and procedure is None and GENERAL_LIMITATION in ctx.act_titles
                   and _CIVIL_STEP.search(told_all) and not _NOT_CIVIL.search(told_all) else set())
        for searched in (acts, titled, told_acts, general):
            # the general law is searched in the words of the whole ask, story and all ("the first appeal against a
            # civil court decree ... Can the delay be excused?": the extension of the period for an appeal)
            whole = searched is general
            if story and not whole:
                # an Act the story's retrieval found by a shared word only ("Rs" for the Stamp Act) is not where its
                # matter goes; one it ranked lower must be as close to the story as retrieval's relevant passages
                least = ctx.settings.weak_retrieval if searched is told_acts else STORY_ACT_RELEVANCE
                searched = {a for a in searched if _story_relevance(passages, a) >= least}
            if found or not searched:
                continue
            # among the story's other Acts, the forum searched for in the story's words: the one Act whose forum
            # provision is nearest to what it tells ("complaints ... goods or services" for the fridge)
            query = form_query(ask.text if searched is told_acts or whole else asking, kind)
            for r in ctx.retriever.retrieve(query, FORM_K, as_of=day, acts=searched):
                if (r.chunk.act, r.chunk.section.split("(")[0]) in confused:
                    continue  # the section the question named by the other code's number (``mixups``)
                # the procedure code's provision for prosecuting an offence is about the offence the question
                # tells of, in its own words ("Bar to taking cognizance after lapse of period of limitation" for "too
                # late to file a criminal complaint"); so is the court an Act sets up for all its matters
                # ("Constitution of Special Court" for "where is a heroin case tried?"); any other provision must
                # share a word of the ask's subject
                if decides(kind, r.chunk.heading) and (
                        (r.chunk.act == procedure and prosecutes(r.chunk.heading)) or sets_up(r.chunk.heading)
                        # an Act the question names is what it asks about ("a DV Act application - which
                        # Magistrate's court?": "Jurisdiction"), whatever words it uses for it
                        or (r.chunk.act in facts.acts_named and r.chunk.act not in PENAL_CODES | PROCEDURE_CODES)
                        # (not its transition from the Act it replaced: "Provision for suits, etc., for which the
                        # prescribed period is shorter than the period prescribed by the Indian Limitation Act, 1908")
                        or (r.chunk.act in general and not _NAMES_AN_ACT.search(r.chunk.heading))
                        or about(asking, kind, r.chunk.heading, ctx.act_titles.get(r.chunk.act, r.chunk.act))):
                    found.setdefault(r.chunk.act, []).append(r)
            if searched is told_acts and found:
                first = next(iter(found))
                found = {first: found[first]}
        # one provision per Act, of two at most: a question that leaves open which Act governs ("can she file the
        # divorce petition in Lucknow?", telling no religion or form of marriage) gets each one's forum. Within an
        # Act, the heading that shares most with the whole question, facts told included ("District Commission
        # dismissed my complaint. Where do I appeal?": "Appeal against order of District Commission", not "... of
        # National Commission"); retrieval's order breaks ties. A heading that says where a matter is brought
        # ("Jurisdiction and procedure") comes before one that sets up the body hearing it ("Constitution of
        # Maintenance Tribunal").
        # A provision whose bounds on a sum exclude the one the question tells ("paid Rs 15 crore": not the District
        # Commission's "does not exceed one crore rupees") comes last, one that admits it first.
        told = content_stems(ask.text)

        def rank(ir: tuple[int, Retrieved], told: set[str] = told) -> tuple[bool, bool, bool, int, int]:
            bound = admits(ir[1].chunk.text, facts.sums)
            return (bound is not False, not sets_up(ir[1].chunk.heading), bound is True,
                    len(told & content_stems(heading_title(ir[1].chunk.heading))), -ir[0])

        for rs in list(found.values())[:FORM_ACTS_PER_ASK]:
            _, best = max(enumerate(rs), key=rank)
            chosen.setdefault((best.chunk.act, best.chunk.section), to_passage(best))
    if not chosen:
        return passages
    marked = [replace(p, pinned=Pin.ASK) if p.pinned is None and (p.act, p.section) in chosen else p
              for p in passages]
    # what retrieval did not bring comes whole, scored as its best chunk was for the ask
    return _with_chunks(marked, (
        (c, p.score, Pin.ASK, p.relevance)
        for (act, section), p in chosen.items() for c in ctx.retriever.section_chunks(act, section)[:SIBLINGS]
    ))  # fmt: skip


_NAMED_BY_NUMBER = tuple(code for code in CURATED_BY_CODE if code not in {"IPC", "BNS", "BNSS", "BSA"})
"""Acts whose section numbers people use as a case's name besides the IPC's ("a 138 case", "a 125 case"): not the new
codes, whose numbers no case was named by before 2024 and which share none of the IPC's subjects."""
_CIVIL_STEP = re.compile(r"\b(?:suit|sue|suing|sued|decree|civil\s+(?:court|case|suit|appeal|judge)|recover(?:y)?|"
                         r"first\s+appeal|second\s+appeal|execution|partition|eviction|specific\s+performance)\b",
                         re.IGNORECASE)
"""A civil step the question tells (a suit, a decree, its appeal or execution): the Limitation Act times it."""
_NOT_CIVIL = re.compile(r"\b(?:FIR|police|offen[cs]es?|criminal|magistrate|cheque|DV|domestic\s+violence|RTI|"
                        r"information|consumer|commission|tribunal|arbitra\w*|maintenance|divorce|custody)\b",
                        re.IGNORECASE)
"""A matter with a time limit of its own law (a criminal complaint, a cheque's, an RTI appeal, a consumer complaint, a
tribunal's or a family court's): not the Limitation Act's to time."""
JUVENILE_JUSTICE = "JJA"
"""The Juvenile Justice (Care and Protection of Children) Act, 2015."""
_NAMES_AN_ACT = re.compile(r"\bAct,?\s+\d{4}\b")
GENERAL_LIMITATION = "LIMA"
"""The Limitation Act, 1963: the period for a suit, appeal or application no special law times (its s.3, s.29(2))."""


STORY_CLOSE = 0.5
"""The least closeness in meaning (MiniLM cosine) of the penal code's best section to the clauses that tell the
offence for it to be quoted as the story's offence: on lay stories written to try it (not evaluation questions),
criminal intimidation for "threatened to harm me and my family" was 0.76 and snatching 0.74, against 0.42 for
"enticing a married woman" for "a man snatched my wife's chain" under the IPC, which has no snatching section."""
_ON_THE_OFFENCE = frozenset({AskKind.TIME_LIMIT, AskKind.FORUM})
"""Asks whose answer turns on what the offence is: the period of limitation runs by its punishment (BNSS 514), the
court that tries it by its schedule entry."""


def _with_story_offence(ctx: WorkflowContext, passages: list[Passage], facts: QuestionFacts) -> list[Passage]:
    """A story that tells an offence and asks only within what time, or where, it can be prosecuted ("My neighbour
    threatened to harm me and my family in October 2024 ... can the court still take it up or is it time-barred?")
    is answered by the provision that decides that, and by the offence, whose punishment the limitation and the
    court turn on: the penal code's best section for the clauses that tell the offence (the IPC's for an offence
    before 2024-07-01), pinned ``Pin.STORY``, when the question names no provision and no Act but a criminal code, and
    retrieval points first to a criminal code (not to the Negotiable Instruments Act for a bounced cheque). The
    question's own words are about time or place, so retrieval for them does not find the offence."""
    kinds = facts.kinds()
    if not kinds & _ON_THE_OFFENCE or kinds & {AskKind.PUNISHMENT, AskKind.INGREDIENTS} or facts.provisions_named:
        return passages
    if set(facts.acts_named) - _CRIMINAL_CODES or _top_act(passages) not in _CRIMINAL_CODES:
        return passages  # another Act's matter has its own time and place (a cheque's notice, a builder's delay)
    told = " ".join(dict.fromkeys(e.clause for e in facts.dates if e.kind is EventKind.OFFENCE and e.clause))
    if not told:
        return passages
    penal, day = ("IPC", facts.offence_on) if facts.offence_on is not None else ("BNS", facts.as_of)
    best = [to_passage(r) for r in ctx.retriever.retrieve(told, 1, as_of=day, acts={penal}, offence_told=True)]
    if not best or best[0].relevance < STORY_CLOSE:
        return passages
    offence = best[0]
    act, section = offence.act, main_section(offence.section)
    marked = [replace(p, pinned=Pin.STORY) if p.pinned is None and (p.act, p.section) == (act, section) else p
              for p in passages]
    return _with_chunks(marked, ((c, offence.score, Pin.STORY, offence.relevance)
                                 for c in ctx.retriever.section_chunks(act, section)[:SIBLINGS]))


def _top_act(passages: Sequence[Passage]) -> str | None:
    """The Act of the best section retrieval found that the question did not name."""
    return next((p.act for p in passages if p.pinned is None), None)


def _top_acts(passages: Sequence[Passage], n: int) -> list[str]:
    """The Act of each of the first ``n`` sections retrieval found that the question did not name, in order."""
    return [p.act for p in _first_per_section([p for p in passages if p.pinned is None])[:n]]


def _leading_acts(passages: Sequence[Passage]) -> set[str]:
    """The Acts a question's retrieval points to: among its first ``FORM_ACTS`` sections the question did not name, the
    Act of the best ranked and of the most relevant, and any other Act holding at least two of them (one section of
    another Act is a shared word); of those, only an Act whose best relevance there is at least ``LEAD_RELEVANCE`` of
    the most relevant's. A section ranked first for a word it shares ("deposited it in my account" for the Arbitration
    Act's "Deposits", relevance 0.35) does not lead where the question's matter is another Act's ("Where do I file the
    138 case?": the Negotiable Instruments Act, 0.59)."""
    firsts = _first_per_section([p for p in passages if p.pinned is None])[:FORM_ACTS]
    if not firsts:
        return set()
    top = [p.act for p in firsts]
    best: dict[str, float] = {}
    for p in firsts:
        best[p.act] = max(best.get(p.act, 0.0), p.relevance)
    most = max(best.values())
    nearest = next(p.act for p in firsts if p.relevance == most)  # the first ranked of the most relevant
    acts = {top[0], nearest, *(a for a in top if top.count(a) >= 2)}
    return {a for a in acts if best[a] >= LEAD_RELEVANCE * most}


LEAD_RELEVANCE = 0.8
"""The least share of the most relevant Act's relevance among the first sections retrieved that another Act's must have
to be searched for the provision deciding a forum or time-limit ask (``_leading_acts``)."""


STORY_ACT_RELEVANCE = 0.2
"""The least relevance to the question of an Act's best passage for a forum ask of nothing but its kind to be asked
of it (the Stamp Act, found for "Rs 50,000" in a fridge's story, scores about 0.05; the Consumer Protection Act 0.6)."""


def _story_relevance(passages: Sequence[Passage], act: str) -> float:
    return max((p.relevance for p in passages if p.act == act and p.pinned is None), default=0.0)


def _story_acts(passages: Sequence[Passage]) -> set[str]:
    """The Acts of the first ``TITLED_SECTIONS`` sections retrieved, save the criminal codes (whose forum is the
    procedure code's)."""
    return set(_top_acts(passages, TITLED_SECTIONS)) - _CRIMINAL_CODES


def _titled_acts(ctx: WorkflowContext, passages: Sequence[Passage], asks: Sequence[Ask]) -> set[str]:
    """Acts among the first ``TITLED_SECTIONS`` sections retrieved whose title has a word that few titles have and the
    question uses: "Can a Hindu couple file for divorce this early?" is about the Hindu Marriage Act, whatever
    retrieval ranks first (the Special Marriage Act's "Divorce")."""
    told = set().union(*(content_stems(a.text) for a in asks)) if asks else set()
    rare = _rare_title_words(ctx)
    return {a for a in _top_acts(passages, TITLED_SECTIONS) if told & rare.get(a, frozenset())}


def _rare_title_words(ctx: WorkflowContext) -> dict[str, frozenset[str]]:
    """Each Act's title words that at most ``RARE_TITLE`` titles of the Acts the index holds use ("hindu", not
    "marriage" or "protection")."""
    indexed = ctx.retriever.indexed_acts()
    key = (id(ctx.act_titles), indexed)
    cached = _RARE_TITLES.get(key)
    if cached is None:
        stems = {a: content_stems(t) for a, t in ctx.act_titles.items() if a in indexed}
        counts = Counter(w for ws in stems.values() for w in ws)
        cached = {a: frozenset(w for w in ws if counts[w] <= RARE_TITLE and w not in _LAW_WORDS)
                  for a, ws in stems.items()}
        _RARE_TITLES.clear()
        _RARE_TITLES[key] = cached
    return cached


_LAW_WORDS = frozenset(content_stems(
    "court code criminal procedure civil prevention right rights offences authority services special justice care "
    "information prohibition protection welfare adhiniyam sanhita bharatiya"))
"""Title words that say what kind of law an Act is, not what it is about."""
_RARE_TITLES: dict[tuple[int, frozenset[str]], dict[str, frozenset[str]]] = {}
TITLED_SECTIONS = 10
"""Sections retrieved whose Acts a title word may point to for the provision deciding an ask (``_titled_acts``)."""
RARE_TITLE = 4
"""At most this many titles of the Acts the index holds use a word that names an Act (``_titled_acts``)."""
FORM_ACTS = 4
"""Sections retrieved whose Acts are searched for the provision that decides an ask (``_with_ask_forms``)."""
FORM_ACTS_PER_ASK = 2
"""Acts whose deciding provision one ask may quote (``_with_ask_forms``)."""
FORM_K = 20
"""Chunks of those Acts searched for it, best first: a provision so headed that ranks below them for the ask's words
is about something else ("Reasonable time for transmitting such notice" of dishonour, for "by when must he pay")."""


def _with_general_attempt(ctx: WorkflowContext, passages: list[Passage], question: str, as_of: str) -> list[Passage]:
    """An attempt to commit an offence whose provisions retrieved say nothing of the attempt is punished under
    the general attempt provision (BNS 62, IPC 511): bring it in, pinned so that it is quoted."""
    general = general_attempt_for(question, as_of, passages)
    return passages if general is None else _with_chunks(passages, (
        (c, float("inf"), Pin.ATTEMPT, 1.0) for c in ctx.retriever.section_chunks(*general)[:SIBLINGS]
    ))  # fmt: skip


def _with_partners(ctx: WorkflowContext, passages: list[Passage], top: int) -> list[Passage]:
    """The old codes define an offence in one section and punish it in another (IPC 405 and 406): each of the
    top sections retrieval found (not one the question named: a lookup is answered from what it names) brings
    its partner whole, unpinned, with the relevance of the passage that brought it, so that an answer quoting
    the one can quote the other."""
    brought: dict[tuple[str, str], Passage] = {}
    for p in _first_per_section(passages)[:top]:
        if not p.pinned and (partner := ctx.retriever.offence_partner(p.act, p.section)) is not None:
            brought.setdefault(partner, p)
    # a partner retrieved already, lower down ("Punishment for theft" below "Theft"), is as relevant as the provision
    # whose other half it is
    raised = [replace(q, relevance=brought[key].relevance)
              if (key := (q.act, q.section)) in brought and not q.pinned and q.relevance < brought[key].relevance
              else q for q in passages]
    return _with_chunks(raised, (
        (c, p.score, None, p.relevance) for partner, p in brought.items()
        for c in ctx.retriever.section_chunks(*partner)[:SIBLINGS]
    ))


def _with_siblings(ctx: WorkflowContext, passages: list[Passage], top: int) -> list[Passage]:
    """The top sections whole: retrieval shows a section by its best chunk, but "punishment for
    extortion" matches 308(1) (the definition) while the answer is in 308(2). Siblings inherit the
    relevance and pinning of the chunk that brought them. A section retrieved by nothing but the words that open it
    ("Whoever, while driving ... a motor vehicle,--"), of which nothing could be quoted alone, comes whole too, below
    the top as well, its clauses carrying the story match that brought it (``Passage.told``)."""
    sections = _first_per_section(passages)
    pinned = [p for p in sections if p.pinned]
    rest = [s for s in sections if not s.pinned]
    held = {(p.act, p.section) for p in passages if not lead_in_only(p.text)}
    opening = {(s.act, s.section): (s.told, s.told_score) for s in rest if (s.act, s.section) not in held}
    return _with_chunks(passages, (
        (c, p.score, p.pinned, p.relevance)
        for p in pinned + rest[:top] + [s for s in rest[top:] if (s.act, s.section) in opening]
        for c in _unit_chunks(ctx, p)[:SIBLINGS]
    ), told=opening)


def _unit_chunks(ctx: WorkflowContext, p: Passage) -> list[Chunk]:
    """The section of ``p`` whole, except for a defining clause: only its unit and that unit's sub-clauses (the
    rest of a definitions section defines other terms). A section held as whole-section chunks (CrPC s.2:
    ``CRPC:2:-:0``, ``-:1``...) has no smaller unit, so all its chunks come."""
    chunks = ctx.retriever.section_chunks(p.act, p.section)
    if p.pinned is not Pin.DEFINITION:
        return chunks
    unit = p.chunk_id.rsplit(":", 1)[0]
    return [c for c in chunks if c.id.startswith((unit + ":", unit + "/"))]


_CLAUSE_UNIT = re.compile(r"[a-z]{1,6}")
"""A clause's unit in a chunk id ("a", "ia", "iv" in "BNS:2:28/a:0"), as against a sub-section's ("1")."""


def _with_lead_ins(ctx: WorkflowContext, passages: list[Passage]) -> list[Passage]:
    """A clause retrieved without the words it completes ("(a) every commissioned officer in the Army ..." without
    "(28) "public servant" means a person falling under any of the descriptions, namely:--") brings the chunk
    of its parent unit, with the clause's score, relevance and pinning: a clause is quoted after its lead-in."""
    have = {p.chunk_id for p in passages}
    additions: list[tuple[Chunk, float, Pin | None, float]] = []
    for p in passages:
        prefix = parent_prefix(p.chunk_id)
        if prefix is None or not _CLAUSE_UNIT.fullmatch(unit_of(p.chunk_id)):
            continue
        if any(h.startswith(prefix) for h in have):
            continue
        for c in ctx.retriever.section_chunks(p.act, p.section):
            if c.id.startswith(prefix):
                have.add(c.id)
                additions.append((c, p.score, p.pinned, p.relevance))
    return _with_chunks(passages, additions)


def _with_chunks(
    passages: list[Passage], additions: Iterable[tuple[Chunk, float, Pin | None, float]],
    told: Mapping[tuple[str, str], tuple[str, float]] | None = None,
) -> list[Passage]:
    """``passages`` plus each added ``(chunk, score, pinned, relevance)`` whose chunk is not there yet; ``told``: the
    story match (``Passage.told``, ``told_score``) an added chunk of a section carries, by (Act, section)."""
    out = list(passages)
    have = {p.chunk_id for p in passages}
    for c, score, pinned, relevance in additions:
        if c.id not in have:
            have.add(c.id)
            story, story_score = (told or {}).get((c.act, c.section), ("", 0.0))
            out.append(_passage(c, score=score, pinned=pinned, relevance=relevance, told=story,
                                told_score=story_score))
    return out


def generate(state: WorkflowState, runtime: Runtime[WorkflowContext]) -> WorkflowState:
    ctx = runtime.context
    rnd = state.get("generation_round", 0) + 1
    question = state["question"]
    if state.get("feedback"):
        question = f"{question}\n\n{state['feedback']}"
    complexity = state["classification"].complexity
    warnings: list[str] = []
    passages = _of_named_acts(state["passages"], state["facts"]) if "facts" in state else state["passages"]
    try:
        gen = ctx.generator.generate(question, passages, as_of=state["as_of"], complexity=complexity)
    except GenerationError as exc:
        if ctx.fallback_generator is None:
            raise
        gen = ctx.fallback_generator.generate(state["question"], passages, as_of=state["as_of"], complexity=complexity)
        warnings.append(
            f"The {ctx.generator.name} generator failed ({exc}); this answer was built offline "
            "from verbatim statute text instead."
        )
    if "facts" in state:  # answer first: the deciding clause of each ask, quoted and cited, from the same passages
        gen = with_direct_answers(gen, state["facts"], passages, ctx.act_titles)
    return {"generation": gen, "generation_round": rnd, "warnings": warnings, "feedback": None}


_CRIMINAL_CODES = frozenset({*EXISTENCE_SAVINGS, *(new for new, _ in EXISTENCE_SAVINGS.values())})
"""The criminal codes, old and new (IPC, CrPC, IEA, BNS, BNSS, BSA): one body of law. Naming one names them all: an
offence under BNS 318(4) is tried, bailed and released under the BNSS ("an undertrial charged under BNS 318(4) ...
entitled to be released?" is answered by BNSS 479), and either side of the 2024 replacement may govern."""


def _of_named_acts(passages: Sequence[Passage], facts: QuestionFacts) -> list[Passage]:
    """A question that names its Acts ("65B IEA certificate: what is the BSA provision?") is answered from them
    (a criminal code brings the others, ``_CRIMINAL_CODES``): a provision of another Act that retrieval brought for a
    shared word ("certificate" in the Motor Vehicles Act) bears on no ask. Pinned passages (cited, successors,
    savings, definitions) always stay; a question naming no Act, or whose Acts retrieved nothing, keeps all."""
    allowed = _named_scope(facts)
    if not allowed or _rests_only_on_lapsed(facts):
        return list(passages)
    kept = [p for p in passages if p.act in allowed or p.pinned is not None]
    return kept if any(p.pinned is None for p in kept) else list(passages)


def _rests_only_on_lapsed(facts: QuestionFacts) -> bool:
    """Every provision the question names is one it rests on that is not law ("Can I get him arrested under section
    66A of the IT Act?"): its Act is where the question looked, not where the answer is (defamation, in the BNS)."""
    lapsed = {(p.lapsed.act, p.lapsed.section) for p in facts.premises}
    return bool(lapsed) and bool(facts.provisions_named) and all(
        (act, main_section(section)) in lapsed for act, section in facts.provisions_named)


def _named_scope(facts: QuestionFacts) -> set[str]:
    """The Acts a question names, a criminal code bringing the others (``_CRIMINAL_CODES``); empty when it names
    none."""
    named = set(facts.acts_named)
    return named | (set(_CRIMINAL_CODES) if named & _CRIMINAL_CODES else set())


def verify_citations(state: WorkflowState, runtime: Runtime[WorkflowContext]) -> WorkflowState:
    """Every citation and quote in the draft, checked against the graph for the date. A draft that
    cites provisions that do not exist or misquotes is sent back once with the failures named."""
    ctx = runtime.context
    gen: Generation = state["generation"]
    text, spans = _marked_text(gen)
    chunks = [{"id": p.chunk_id, "text": p.text, "act": p.act, "section": p.section} for p in state["passages"]]
    facts = state["facts"]
    # the old evidence code brought for an offence investigated before 2024-07-01 (``retrieve``) is checked as it
    # stood on the eve, as for proceedings pending then
    old_codes = facts.pending_since is not None or facts.civil_evidence or (
        investigated_then(facts, state["question"]) and _evidence_asked(state["question"], state["passages"]))
    report = ctx.verifier.verify(text, chunks, state["as_of"], offence_on=facts.offence_on,
                                 proceedings_on=EVE if old_codes else None)
    drafts: list[DraftClaim] = []
    quoted = [(q.start, q.end) for q in report.quotes]
    # A section number inside a quotation is the statute's own cross-reference, not the answer's citation.
    cits = [c for c in report.citations if not any(a <= c.start and c.end <= b for a, b in quoted)]
    for i, s in enumerate(gen.sentences):
        lo, hi = spans[i]
        drafts.append(DraftClaim(
            text=s.text,
            chunk_ids=list(s.chunk_ids),
            citations=[c for c in cits if lo <= c.start < hi],
            quotes=[q for q in report.quotes if lo <= q.start < hi],
        ))  # fmt: skip
    problems = [c.message for d in drafts for c in d.citations if _fabricated(c)] + [
        q.message for d in drafts for q in d.quotes if q.status in (QuoteStatus.MISQUOTED, QuoteStatus.MISATTRIBUTED)
    ]
    feedback = None
    if problems and gen.generator != "extractive" and not gen.insufficient:
        feedback = (
            "Your previous answer failed verification: "
            + "; ".join(problems[:8])
            + ". Answer again citing only provisions in the documents and quoting them verbatim."
        )
    return {"drafts": drafts, "answer_report": report, "feedback": feedback}


def _fabricated(c: CitationCheck) -> bool:
    return c.label is Label.PROVISION and c.status in FABRICATED


def verify_claims(state: WorkflowState, runtime: Runtime[WorkflowContext]) -> WorkflowState:
    """SIMPLE: each claim against the passages it cites (one grounded-refinement pass). Otherwise
    GenGround: each claim re-retrieves evidence on its own, then is aligned against it."""
    ctx = runtime.context
    gen: Generation = state["generation"]
    drafts = state["drafts"]
    by_id = {p.chunk_id: p for p in state["passages"]}
    simple = state["classification"].complexity is Complexity.SIMPLE
    out: list[Claim] = []
    again_all: list[list[Retrieved]] = []
    if not simple and not gen.insufficient and drafts:
        again_all = ctx.retriever.retrieve_many([d.text for d in drafts], ctx.settings.claim_k, as_of=state["as_of"])
    for i, draft in enumerate(drafts):
        cited = [by_id[c] for c in draft.chunk_ids if c in by_id]
        if gen.insufficient:
            out.append(Claim(
                **dict(draft), verdict=Verdict.SUPPORTED, reasons=["states that the sources do not answer"],
                insufficient=True,
            ))  # fmt: skip
            continue
        if simple:
            evidence = cited or list(state["passages"][:3])
        else:
            again = [to_passage(r) for r in again_all[i]]
            evidence = _union(cited, again)
        verdict, reasons, best = _judge(ctx, draft, evidence)
        out.append(Claim(
            **dict(draft), verdict=verdict, reasons=reasons, evidence=[p.chunk_id for p in evidence],
            best_chunk_id=best, agreement=_agreement(best, draft.chunk_ids),
            relevance=max((p.relevance for p in (cited or evidence)), default=0.0),
        ))  # fmt: skip
    method = VerificationMethod.GROUNDED_REFINEMENT if simple else VerificationMethod.GENGROUND
    return {"claims": out, "summary": VerificationSummary(method=method, aligner=ctx.aligner.name)}


def _judge(
    ctx: WorkflowContext, claim: DraftClaim, evidence: Sequence[Passage]
) -> tuple[Verdict, list[str], str | None]:
    bad = [c for c in claim.citations if _fabricated(c)]
    if bad:
        return Verdict.UNSUPPORTED, [c.message for c in bad], None
    misquoted = [q for q in claim.quotes if q.status is QuoteStatus.MISQUOTED]
    if misquoted:
        return Verdict.CONTRADICTED, [q.message for q in misquoted], None
    misattributed = [q for q in claim.quotes if q.status is QuoteStatus.MISATTRIBUTED]
    if misattributed:
        return Verdict.UNSUPPORTED, [q.message for q in misattributed], None
    source = _verbatim_source(claim)
    if source is not None:
        return Verdict.SUPPORTED, [f"verbatim quotation of {source}, checked against its text"], (
            claim.chunk_ids[0] if claim.chunk_ids else None
        )
    a = ctx.aligner.align(claim.text, evidence)
    return a.verdict, list(a.reasons), a.best_chunk_id


# Only quotations: one, or several joined by an ellipsis (a clause after its lead-in); no words of the claim's own
# between them, and an Act's name without asides before "provides".
_QUOTATION = re.compile(
    r'^Section [^"]{1,40} of the [^",]{3,120}(?:, \d{4})? provides: "[^"]+"(?:\s*(?:\u2026|\.\.\.)\s*"[^"]+")*$'
)


def _verbatim_source(claim: DraftClaim) -> str | None:
    """A claim that only says 'Section N of the Act provides: "<quote>"', whose quote the verifier
    found exactly (or up to spacing) in the chunk the claim cites, asserts nothing beyond the
    statute's own words: it is supported without asking the aligner. The citation's own status
    (repealed, unchecked...) is not judged here; reconstruct warns about it."""
    if not _QUOTATION.match(claim.text) or not claim.quotes:
        return None
    provisions = [c for c in claim.citations if c.label is Label.PROVISION]
    if len(provisions) != 1 or not provisions[0].act or not provisions[0].section:
        return None
    act, section = provisions[0].act, provisions[0].section
    # Every quote (a clause quoted after its lead-in makes two or more) exact, and taken from the provision the
    # sentence cites: a quote of another Act's chunk under this citation is for the aligner to judge.
    if not all(q.status in (QuoteStatus.EXACT, QuoteStatus.NORMALISED) and q.source
               and same_provision(q.source, f"{act} {section}") for q in claim.quotes):  # fmt: skip
        return None
    return claim.quotes[0].source


def _agreement(best: str | None, cited: Sequence[str]) -> float:
    """Does independent re-retrieval land on the chunk the claim cited?"""
    if not best or not cited:
        return 0.0
    if best in cited:
        return 1.0
    b = best.split(":")
    if any(c.split(":")[:2] == b[:2] for c in cited):
        return 0.8
    if any(c.split(":")[0] == b[0] for c in cited):
        return 0.4
    return 0.0


KEPT = frozenset({Verdict.SUPPORTED, Verdict.PARTIALLY_SUPPORTED})
"""Claims with these verdicts stay in the answer; the others are removed."""


def reconstruct(state: WorkflowState, runtime: Runtime[WorkflowContext]) -> WorkflowState:
    """Drop UNSUPPORTED and CONTRADICTED claims, caveat PARTIALLY_SUPPORTED ones, number the
    sources, and attach a warning for every cited provision that is not current law on the date."""
    claims = state["claims"]
    facts = state.get("facts")
    kept = [c for c in claims if c.verdict in KEPT]
    by_id = {p.chunk_id: p for p in state["passages"]}
    numbers: dict[str, int] = {}
    parts = []
    for c in kept:
        marks = []
        for cid in c.chunk_ids:
            numbers.setdefault(cid, len(numbers) + 1)
            marks.append(f"[{numbers[cid]}]")
        text = c.text + (" " + "".join(marks) if marks else "")
        if c.verdict is Verdict.PARTIALLY_SUPPORTED:
            text += " (only partly supported by the cited text: verify before relying on it)"
        parts.append(text)
    removed = [c for c in claims if c.verdict not in KEPT]
    warnings: list[str] = []
    if removed:
        warnings.append(
            f"{len(removed)} statement(s) removed because the statutes do not support them: "
            + "; ".join(f'"{_short(c.text)}" ({"; ".join(c.reasons[:2])})' for c in removed)
        )
    seen: set[str] = set()
    for c in kept:
        for cit in c.citations:
            # Anything the graph did not verify is said: repealed or not yet in force, unchecked (graph
            # down), unresolved (no Act named), a precedent not in the registry or under another name.
            if cit.status is not CitationStatus.VERIFIED and cit.message not in seen:
                seen.add(cit.message)
                warnings.append(cit.message)
    sources = [_source(n, cid, by_id.get(cid)) for cid, n in numbers.items()]
    summary = state["summary"].model_copy(update={
        "claims": len(claims),
        "supported": sum(c.verdict is Verdict.SUPPORTED for c in kept),
        "partial": sum(c.verdict is Verdict.PARTIALLY_SUPPORTED for c in kept),
        "removed": len(removed),
        "contradicted": sum(c.verdict is Verdict.CONTRADICTED for c in removed),
    })  # fmt: skip
    answer = "\n".join(parts) if kept else NO_ANSWER
    premises = facts.corrections() if facts is not None else []
    read = facts.reading() if facts is not None and kept else []
    if premises or read:  # the law the question rests on is not law, and how its dates were read: said first
        answer = "\n".join([*premises, *read, *parts]) if kept else "\n".join([*premises, answer])
    return {"kept": kept, "answer": answer, "sources": sources, "summary": summary, "warnings": warnings}


def _source(n: int, chunk_id: str, p: Passage | None) -> Source:
    """Source ``[n]``; a cited chunk that was not retrieved is named from its id ("BNS:308:2:0")."""
    if p is None:
        parts = chunk_id.split(":")
        return Source(n=n, chunk_id=chunk_id, act=parts[0], section=parts[1])
    return Source(n=n, chunk_id=chunk_id, act=p.act, section=p.section, heading=p.heading, status=p.status)


_REFERS_BACK = re.compile(r"\b(?:it|that|this|them|those|these)\b", re.IGNORECASE)
"""An ask that speaks of what another asked ("can I pay it by UPI?")."""
_OUTSIDE_WANTS = {
    AskKind.CASE_LAW: "what a court held, which no statute states",
    AskKind.OPINION: "a prediction or an opinion, which no statute states",
    AskKind.RECORD: "a fact of a particular case or person, which only its record holds and no statute states",
    AskKind.RATE: "a fee, a rate or a figure fixed outside the Acts held here (by rules, notifications, a State's "
                  "law or whoever charges it), which they do not state",
}
"""What an ask outside the statutes (``OUTSIDE_STATUTES``) wants, as the answer's warning says it."""


def score_confidence(state: WorkflowState, runtime: Runtime[WorkflowContext]) -> WorkflowState:
    kept = [c for c in state.get("kept", []) if not c.insufficient]
    cover = _coverage(state, kept, runtime.context)
    out: WorkflowState = {"confidence": _confidence(state, kept, cover, _story_coverage(state, kept))}
    warnings = []
    if kept and cover.share < conf.ADDRESSED:
        warnings.append(
            "The quoted provisions may not answer this question: they do not mention "
            + ", ".join(f'"{w}"' for w in cover.missing) + ". Check whether another provision governs it."
        )
    if kept:
        for ask, kind in _unanswered(state, kept):
            if kind in OUTSIDE_STATUTES:
                warnings.append(f'The statutes cannot answer "{_short(ask.text, 120)}": it asks for '
                                f"{_OUTSIDE_WANTS[kind]}. The provisions quoted are background only.")
            else:
                warnings.append(f"This answer states no {kind.value.replace('-', ' ')} for the ask "
                                f'"{_short(ask.text, 120)}": check the provision that governs it.')
    if warnings:
        out["warnings"] = warnings
    return out


def _unanswered(state: WorkflowState, kept: Sequence[Claim]) -> list[tuple[Ask, AskKind]]:
    """The question's asks whose kind of answer (a punishment, a time limit, a court, a definition) the kept
    claims and the premise statements do not give (``confidence.unanswered``)."""
    facts = state.get("facts")
    if facts is None:
        return []
    texts = [c.text for c in kept] + [p.statement() for p in facts.premises]
    return conf.unanswered(facts.asks, texts)


def _coverage(state: WorkflowState, kept: Sequence[Claim], ctx: WorkflowContext) -> Coverage:
    """The question's subject words in the kept claims and the headings of the provisions they quote. When the
    question names a provision and the answer quotes it (or its successor), the words that only ask
    for it ("Text of section 103 BNS please", "Sec 307 IPC punishment?") count as addressed."""
    checks = [c for c in state.get("question_checks", []) if c.label is Label.PROVISION and c.act and c.section]
    named = {f"{c.act} {c.section}" for c in checks}
    named |= {f"{s.act} {s.section}" for c in checks for s in c.successors}  # "IPC 307" asked in 2025
    names_quoted = any(same_provision(cid, label) for label in named for c in kept for cid in c.chunk_ids)
    by_id = {p.chunk_id: p for p in state.get("passages", [])}
    headings = [by_id[cid].heading for c in kept for cid in c.chunk_ids if cid in by_id]
    terms = getattr(ctx.retriever, "terms", None)
    if not checks and not subject_words(state["question"]):
        return Coverage(0.0, ())  # "?", "12345": nothing asked that an answer could address
    return question_coverage(state["question"], [c.text for c in kept] + headings, terms,
                             names_quoted=names_quoted)  # fmt: skip


def _story_coverage(state: WorkflowState, kept: Sequence[Claim]) -> float:
    """The question's subject words in the lay situations (``Passage.told``) by which retrieval matched its story to
    the provisions the kept claims quote: the story's words the statute does not use ("chain", "neck") but the
    situation of its provision does. 0 when no quoted provision came by a situation."""
    by_id = {p.chunk_id: p for p in state.get("passages", [])}
    quoted = {(by_id[cid].act, by_id[cid].section) for c in kept for cid in c.chunk_ids if cid in by_id}
    told = [p.told for p in state.get("passages", []) if p.told and (p.act, p.section) in quoted]
    if not told:
        return 0.0
    return question_coverage(state["question"], [c.text for c in kept] + told).share


def _confidence(state: WorkflowState, kept: Sequence[Claim], cover: Coverage | None = None,
                story: float = 0.0) -> Confidence:
    kept = [c for c in kept if not c.insufficient]
    provisions = [cit for c in kept for cit in c.citations if cit.label is Label.PROVISION]
    facts = state.get("facts")
    unanswered = _unanswered(state, kept) if kept else []
    missed = {a.text for a, _ in unanswered}
    asks = len(facts.asks) if facts is not None else 1
    if facts is not None and any(k in OUTSIDE_STATUTES for _, k in unanswered):
        # an ask no statute answers takes with it the asks that want no kind of answer of their own and speak of what
        # it asked ("What is the RTI fee, and can I pay it by UPI?"): what is left unanswered is all that was asked
        asks = sum(1 for a in facts.asks if a.kinds or not _REFERS_BACK.search(a.text)) or asks
    return conf.score(
        question=state["question"], as_of=state["as_of"],
        names_provision=_names_provision(state),
        coverage=cover.share if cover is not None and kept else 0.0,
        story_coverage=story if kept else 0.0,
        citation_statuses=[p.status for p in provisions],
        old_law_facts=facts.old_law_facts if facts is not None else None,
        asks=asks, asks_unanswered=len(missed),
        number_mixup=facts is not None and bool(facts.mixups),
        unconfirmed=facts is not None and bool(facts.unconfirmed),
        unknown_acts=len(facts.unknown_acts) + len(facts.textless) + len(facts.absent) if facts is not None else 0,
        inferred_date=facts is not None and (facts.offence_by_story or facts.closed_on is not None),
        removed_share=_removed_share(state),
        asserted=facts is not None and facts.asserted_unanswered(),
    )  # fmt: skip


def _removed_share(state: WorkflowState) -> float:
    """The share of the draft's statements that the verification removed (unsupported or contradicted)."""
    claims = [c for c in state.get("claims", []) if not c.insufficient]
    return sum(c.verdict not in KEPT for c in claims) / len(claims) if claims else 0.0


def _names_provision(state: WorkflowState) -> bool:
    """The question names a provision that is what it asks about: one whose number it took from the other code
    ("murder under section 302 BNS") is not, nor one that is not law with nothing in its place ("no-fault
    compensation under section 140 of the Motor Vehicles Act" for 2025 facts): what governs instead was found by
    retrieval, not looked up."""
    facts = state.get("facts")
    return any(c.label is Label.PROVISION and not (facts is not None and (
        c.message in facts.absent or facts.confused(c) or facts.is_textless(c) or facts.rests_on_lapsed(c)))
        for c in state.get("question_checks", []))


def finalise(state: WorkflowState, runtime: Runtime[WorkflowContext]) -> WorkflowState:
    if "answer" not in state:  # the question named only provisions that do not exist or whose text is not held
        facts = state.get("facts")
        missing = [c.message for c in state.get("question_checks", []) if c.status in FABRICATED]
        unheld = [textless_statement(*t) for t in facts.textless] if facts is not None else []
        method = VerificationMethod.NONE if missing else VerificationMethod.NOT_HELD
        return {
            "answer": " ".join([*missing, *unheld]),
            "sources": [],
            "kept": [],
            "claims": [],
            "summary": VerificationSummary(method=method),
            "confidence": _confidence(state, []),
        }
    if state["confidence"].label is ConfidenceLabel.LOW and state.get("kept") and not state["generation"].insufficient:
        return {"answer": f"{conf.LOW_WARNING}\n\n{state['answer']}"}
    return {}


def _marked_text(gen: Generation) -> tuple[str, list[tuple[int, int]]]:
    """The draft as one text with ``[chunk-id]`` after each sentence (how the verifier attributes
    quotes), and each sentence's span in it."""
    parts, spans, pos = [], [], 0
    for s in gen.sentences:
        piece = s.text + "".join(f" [{c}]" for c in s.chunk_ids)
        spans.append((pos, pos + len(piece)))
        parts.append(piece)
        pos += len(piece) + 1
    return " ".join(parts), spans


def _union(first: Sequence[Passage], second: Sequence[Passage]) -> list[Passage]:
    seen = {p.chunk_id for p in first}
    return [*first, *(p for p in second if p.chunk_id not in seen)]


def _short(text: str, n: int = 90) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"
