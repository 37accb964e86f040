"""Answer first: one sentence per ask, before the provisions, built only from the statute's own words.

A lawyer asking "what is the punishment for cheating?" wants "seven years and fine, BNS 318(4)" before thirteen
quotations. Each direct answer is the clause of a retrieved provision that decides the ask, quoted verbatim and
cited, so that it is checked like every other claim (the quote against the chunk, the citation against the graph
for the date): nothing here is paraphrased, so nothing here can be wrong but the choice of clause.

- a punishment: the "shall be punished with ..." clause of the provision headed as what the ask is about, among
  those the answer quotes, else among the best retrieved ("penalty for drunk driving" -> MVA 185, "Driving by a
  drunken person"); failing both, of the first provision the answer quotes that has one;
- a time limit: the clause that sets a period ("within thirty days of ...", "one month of the date on which
  ..."), from the provisions the answer quotes or, failing them, the best retrieved provision that has one;
- which code governs an offence committed before 2024-07-01 (``QuestionFacts.offence_on``): the savings clause of
  BNS 358(2) that keeps the IPC for it; a matter pending on that day: BNSS 531(2)(a).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from legal_rag.workflow.facts import AskKind, QuestionFacts
from legal_rag.workflow.generators.extractive import content_stems, passage_title, sub_of
from legal_rag.workflow.types import AnswerSentence, Generation, Passage, Pin

_PUNISHED = re.compile(
    r"\b(?:shall\s+be\s+punish(?:ed|able)|shall\s+be\s+liable\s+to\s+(?:imprisonment|fine|penalty)|"
    r"is\s+punishable)\b[^.;:]*(?:[.;:](?=\s*$)|[^.;:]*)", re.IGNORECASE)
_PERIOD = re.compile(
    r"[^.;:]*\b(?:within|not\s+later\s+than|before\s+the\s+expiry\s+of|a\s+period\s+of|exceed(?:ing)?)\s+"
    r"(?:a\s+period\s+of\s+)?"
    r"(?:\w+[\s-]){0,2}?(?:\w+|\d+)\s+(?:days?|months?|years?|hours?)\b[^.;:]*", re.IGNORECASE)
_TERM_OF_PUNISHMENT = re.compile(r"\b(?:imprisonment|term\s+(?:not\s+exceeding|which\s+may\s+extend))\b",
                                 re.IGNORECASE)
_SAVED_OFFENCE = re.compile(r"any penalty, or punishment incurred in respect of any offences committed[^;.]*")
_SAVED_PENDING = re.compile(r"if, immediately before the date on which this Sanhita comes into force, there is any "
                            r"appeal, application, trial, inquiry or investigation pending[^;.]*")
_ASKING = content_stems("time limit period hours days months years within how long many what when much")
"""Words that ask for a period rather than name what it is for."""
_ASKING_PUNISHMENT = content_stems(
    "punishment punishments penalty penalties punish punished punishable jail prison imprisonment sentence sentenced "
    "fine fined maximum minimum how much many what which years year get got case file offence offences crime law term "
    "time "
    "section sections act under provision provisions can will would there")
"""Words that ask for a punishment, or for where it is written, rather than name what it punishes."""
CANDIDATES = 8
"""Retrieved sections (all their retrieved passages), beyond those the answer quotes, searched for the clause that
decides an ask."""
MIN_WORDS = 6
"""A clause shorter than this ("punishable with fine") is too bare to stand as an answer on its own."""


def with_direct_answers(gen: Generation, facts: QuestionFacts, passages: Sequence[Passage],
                        titles: Mapping[str, str]) -> Generation:
    """``gen`` with a direct answer per ask put first (none for an insufficient answer, or when no quoted or
    retrieved provision has the deciding clause)."""
    if gen.insufficient or not gen.sentences:
        return gen
    by_id = {p.chunk_id: p for p in passages}
    quoted = [by_id[c] for s in gen.sentences for c in s.chunk_ids if c in by_id]
    decisive = [p for p in quoted if p.pinned is Pin.ASK]  # headed as what an ask wants: first on a tie
    kinds = facts.kinds()
    out: list[AnswerSentence] = []
    seen: set[str] = set()

    opening = " ".join(gen.sentences[0].text.split())

    def add(p: Passage | None, clause: str | None) -> None:
        # Nothing to put first when the answer already opens with the clause ("Whoever commits extortion shall be
        # punished with ... seven years ..." quoted whole): the same words twice are noise, not an answer.
        if p is None or not clause or clause in seen or clause in opening:
            return
        seen.add(clause)
        out.append(AnswerSentence(f'{_cite(p, titles)} provides: "{clause}"', (p.chunk_id,)))

    if facts.offence_on is not None:
        add(*_first(passages, _SAVED_OFFENCE, act="BNS", section="358"))
    if facts.pending and facts.offence_on is None and kinds & {AskKind.PROCEDURE, AskKind.WHICH_CODE}:
        add(*_first(passages, _SAVED_PENDING, act="BNSS", section="531"))
    if AskKind.PUNISHMENT in kinds:
        # the provision headed as what the ask is about, quoted or among the best retrieved (not when the answer quotes
        # nothing retrieved: it is not grounded enough to lead with anything); else the first quoted that punishes
        found: tuple[Passage | None, str | None] = (None, None)
        retrieved = [*decisive, *_of_first_sections(passages)] if quoted else []
        named = content_stems(" ".join(titles.get(a, "") for a in facts.acts_named))
        for ask in (a for a in facts.asks if AskKind.PUNISHMENT in a.kinds):
            found = _punishing(ask.text, quoted, retrieved, named=named)
            if found[0] is not None:
                break
        add(*(found if found[0] is not None else _first(quoted, _PUNISHED)))
    if AskKind.TIME_LIMIT in kinds:
        for ask in (a for a in facts.asks if AskKind.TIME_LIMIT in a.kinds):
            add(*_closest(ask.text, [*decisive, *quoted, *passages[:CANDIDATES]], _PERIOD))
    if not out:
        return gen
    return Generation(tuple(out) + gen.sentences, gen.generator, model=gen.model, insufficient=gen.insufficient,
                      usage=gen.usage)


def _of_first_sections(passages: Sequence[Passage]) -> list[Passage]:
    """The passages of the first ``CANDIDATES`` sections retrieved, in retrieval order: a section comes as many
    passages (BNSS 193's sub-sections), and the deciding clause is often not its first ("(2) The investigation in
    relation to an offence under section 64 ... shall be completed within two months")."""
    first: list[tuple[str, str]] = []
    for p in passages:
        if (p.act, p.section) not in first:
            if len(first) == CANDIDATES:
                break
            first.append((p.act, p.section))
    keep = set(first)
    return [p for p in passages if (p.act, p.section) in keep]


def _closest(ask: str, passages: Sequence[Passage], pattern: re.Pattern[str]) -> tuple[Passage | None, str | None]:
    """The clause matching ``pattern`` whose words, read under its provision's heading, share most with the ask
    ("within one month of the date on which the cause of action arises" in the section headed "Cognizance of
    offences" for "time limit to file a cheque bounce complaint", not the six months for presenting the cheque),
    the ask's last word (the head of what it asks about: "complaint") counting thrice in the clause itself; the
    first such in ``passages`` on a tie; a clause sharing nothing with the ask is no answer to it."""
    want = content_stems(ask) - _ASKING  # "within how many hours" asks for a period: any period has those words
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z\-]+", ask) if content_stems(w) - _ASKING]
    head = content_stems(words[-1]) if words else set()  # "... file a cheque bounce complaint?": the complaint
    best: tuple[int, int, Passage, str] | None = None
    seen: set[str] = set()
    for order, p in enumerate(passages):
        if p.chunk_id in seen:
            continue
        seen.add(p.chunk_id)
        for m in pattern.finditer(p.text):
            clause = _clean(m.group(0))
            if clause is None or _TERM_OF_PUNISHMENT.search(clause):
                continue  # "imprisonment for a term not exceeding six months" is a sentence, not a time limit
            hit = len(want & content_stems(f"{p.heading} {clause}")) + 2 * len(head & content_stems(clause))
            if hit and (best is None or hit > best[0]):
                best = (hit, order, p, clause)
    return (best[2], best[3]) if best is not None else (None, None)


def _punishing(ask: str, quoted: Sequence[Passage], retrieved: Sequence[Passage],
               named: set[str] | frozenset[str] = frozenset()) -> tuple[Passage | None, str | None]:
    """The punishment clause of the provision, quoted or retrieved, whose heading shares most of what the ask is about
    ("What punishment can he get for the drunk driving?" -> MVA 185 "Driving by a drunken person ...", over the quoted
    BNS 281 "Rash driving or riding on a public way"), its clause's words counting half; on a tie the quoted one, then
    the one closer to the question (``Passage.relevance``: MVA 185 over MVA 186, "Driving when mentally or physically
    unfit to drive"). The words that ask for a punishment (``_ASKING_PUNISHMENT``) are no subject: an ask with nothing
    else ("how much jail can he get?") gets no answer here, nor does a heading sharing none of the subject, or one word
    only of a subject of several ("driving" of "a juvenile driving a car"); nor are the words of the Acts the question
    names (``named``: "motor", "vehicles" of "under the Motor Vehicles Act"). Of headings sharing as much, the one that
    is most nearly the subject ("Theft" over "Theft in a dwelling house ...") wins."""
    want = content_stems(ask) - _ASKING_PUNISHMENT - named
    best: tuple[tuple[int, float, bool, float], Passage, str] | None = None
    for p, is_quoted in [*((p, True) for p in quoted), *((p, False) for p in retrieved)]:
        title = content_stems(passage_title(p))
        heading = _shared(want, title)
        if not heading or heading < min(2, len(want)):  # one word ("driving") of a subject of several is not it
            continue
        clause = _clause(p, _PUNISHED)
        if clause is None:
            continue
        hit = (2 * heading + _shared(want, content_stems(clause)), heading / len(title), is_quoted, p.relevance)
        if best is None or hit > best[0]:
            best = (hit, p, clause)
    return (best[1], best[2]) if best is not None else (None, None)


def _shared(want: set[str], stems: set[str]) -> int:
    """How many of ``want`` are in ``stems``, a word also matching a longer form of itself ("drunk", "drunken";
    "driv", "driver": four letters or more, at most three added)."""
    return sum(1 for w in want if w in stems or (len(w) >= 4 and any(
        s.startswith(w) and len(s) - len(w) <= 3 for s in stems)))


def _clean(text: str) -> str | None:
    """A matched clause on one line, without the punctuation around it; None when too bare or quoting."""
    clause = " ".join(text.split()).strip(" ,;:.-\u2014")
    return clause if len(clause.split()) >= MIN_WORDS and '"' not in clause else None


def _first(passages: Sequence[Passage], pattern: re.Pattern[str], *, act: str | None = None,
           section: str | None = None) -> tuple[Passage | None, str | None]:
    for p in passages:
        if (act and p.act != act) or (section and p.section.split("(")[0] != section):
            continue
        clause = _clause(p, pattern)
        if clause is not None:
            return p, clause
    return None, None


def _clause(p: Passage, pattern: re.Pattern[str]) -> str | None:
    """The first clause of ``p`` matching ``pattern``, cleaned (``_clean``); None: none, or too bare."""
    m = pattern.search(p.text)
    return _clean(m.group(0)) if m is not None else None


def _cite(p: Passage, titles: Mapping[str, str]) -> str:
    """As the extractive generator cites: "Section 318(4) of the Bharatiya Nyaya Sanhita, 2023"."""
    sub = sub_of(p.chunk_id)
    title = titles.get(p.act, p.act)
    title = title[4:] if title.lower().startswith("the ") else title
    return f"Section {p.section}{sub} of the {title}"
