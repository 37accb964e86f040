"""One training example per category: a question, its context chunks, a chosen and a rejected answer.

Contexts are what an answer sees: the example's own provisions among 5-8 chunks that the product's
retriever brings for the question (``Neighbours``, any Act), in the order it ranks them. Answers have the
product's shape (the deciding clause first for a punishment, then the whole unit quoted from its lead-in,
cited by chunk id); chosen and rejected answers are built the same way, so only the law tells them apart.

* ``correct``: chosen quotes the right provision; rejected is the same answer with one number, negation or
  modal changed inside the quotation (``verification.claims.perturb``). A question may rest on a false premise (a wrong
  sentence): chosen says "No" and quotes the law, rejected says "Yes" and quotes it as the premise has it.
* ``distractor``: the right provision beside the most similar other section of the same Act, or beside a
  poisoned copy of it (Finetune-RAG: a fabricated section with a changed penalty); the question never names
  the section nor repeats its heading (a lay fact pattern or the text's own words); rejected rests on the
  distractor.
* ``insufficient``: the retriever's context for the question without the right provision, its family or a
  same-titled section; chosen says so (in varied words) and what is missing; rejected answers anyway, from
  the missing provision or by stretching the nearest document, cited the same way. A partial variant asks two
  things: chosen answers the one the context holds and declines the other.
* ``outdated``: a repealed IPC/CrPC/IEA section and its BNS/BNSS/BSA successor both in context; both answers
  state the date and a code; only the chosen one picks the code in force on it.
* ``misattributed``: rejected puts the same verbatim quotation under another section or Act.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Protocol

from finetune import questions
from finetune.judge import Category
from finetune.prompt import OfflineAnswerer, nested, operative, punishment_clause
from finetune.questions import Kind, Question, words
from finetune.statutes import NEW_CODES_FROM, OLD_TO_NEW, StatuteView, base_section, label_of
from graph_schema.chunking import Chunk
from verification.claims.perturb import QUANTITY, change_number, flip_negation, swap_modal

Neighbours = Callable[[str, str, int], Sequence[str]]
"""(question, as-of date, k) -> ids of the chunks the product's retriever ranks for it, best first."""


class _Ranked(Protocol):
    @property
    def chunk(self) -> Chunk: ...


class Retriever(Protocol):
    """What :func:`from_retriever` needs of the product's retriever (``HybridRetriever.retrieve``)."""

    def retrieve(self, query: str, k: int = 10, *, as_of: str | None = None) -> Sequence[_Ranked]: ...


def from_retriever(retriever: Retriever) -> Neighbours:
    """The product's retriever as :data:`Neighbours`: the chunk ids it ranks for a question on a date."""

    def neighbours(question: str, as_of: str, k: int) -> list[str]:
        return [r.chunk.id for r in retriever.retrieve(question, k, as_of=as_of)]

    return neighbours

# The Act a misattributed answer names instead: a plausible confusion, not a random one.
SWAP_ACT = {"BNS": "BNSS", "BNSS": "BNS", "BSA": "BNSS", "IPC": "CRPC", "CRPC": "IPC", "IEA": "CRPC",
            "HMA": "SMA", "SMA": "HMA", "NIA": "ICA"}  # fmt: skip
_QUOTED = re.compile(r'"([^"]+)"')
_SUB_OK = re.compile(r"^\d+[A-Z]{0,2}$")
_GONE = re.compile(r"\b(?:Rep\.|Repealed|Omitted|\* \* \*)", re.I)
CONTEXT_SIZE = (5, 8)

_REFUSALS = (
    "The documents provided do not answer this question. They contain {held}; {missing} is missing from them.",
    "These documents hold {held}, and {missing} is missing, so the question cannot be answered from them.",
    "I cannot answer this from the documents given: they hold {held}, while the question needs {missing}.",
    "The documents are not enough to answer the question. What they hold is {held}; {missing} would be needed.",
)
_REFUSALS_NAMED = (
    "The documents provided do not answer this question. They contain {held}, but {cite}, which the question "
    "asks about, is missing from them.",
    "{cite} is missing from the documents given (they hold {held}), so the question cannot be answered from them.",
    "I cannot answer this from the documents: the question turns on {cite}, and they hold only {held}.",
)
_PARTIAL = (
    "The documents do not answer the second part: none of them is {missing}.",
    "On the second question I cannot answer from these documents, which hold no {missing_bare}.",
)
_HEDGES = ("Nothing in the documents points the other way.",
           "The documents do not set this out in so many words, but the closest rule is this.",
           "None of the documents is squarely on the point; the nearest is this.",
           "This is not stated in terms, but it follows from the text.", "The closest rule is this.")
_FRAMES = ("For facts on {day}, {code} applies.", "The facts are of {day}, so {code} governs them.",
           "As the events took place on {day}, the law is that of {code}.")


@dataclass(frozen=True, slots=True)
class Example:
    category: Category
    question: str
    as_of: str
    context: tuple[Chunk, ...]
    chosen: str
    rejected: str
    provisions: tuple[tuple[str, str], ...]
    """(act, label) of what the question is about; the applicable (or, insufficient, the missing) one first."""
    variant: str
    """How the rejected answer was made ("number", "sibling", "poison", "outside", "after", "section", ...)."""
    template: str = ""
    target: Chunk | None = None
    """The unit the question asks about (the missing one for ``insufficient``)."""
    answered: tuple[Chunk, ...] = field(default=())
    """Units the chosen answer quotes."""


def eligible(chunk: Chunk) -> bool:
    """A unit a question can be about: a whole first part of a section or numbered sub-section (never a bare
    clause "(a) ...", whose lead-in is another chunk), 10-180 words of operative text."""
    n = len(chunk.text.split())
    if chunk.part != 0 or not 10 <= n <= 180 or not chunk.title:
        return False
    if chunk.sub and (len(chunk.sub.split("/")) > 1 or not _SUB_OK.match(chunk.sub)):
        return False
    text = chunk.text.strip()
    if _GONE.search(text[:60]) or "STATE AMENDMENT" in text or text.endswith(("—", "-", ":", ",")):
        return False  # a repealed or omitted stub, or a lead-in whose clauses are other chunks
    return questions.topic_of(chunk.title, chunk.text) is not None


def day_between(lo: str, hi: str, rng: random.Random) -> str:
    """A day in [lo, hi)."""
    a, b = date.fromisoformat(lo), date.fromisoformat(hi)
    return (a + timedelta(days=rng.randrange(max(1, (b - a).days)))).isoformat()


def principal(view: StatuteView, chunk: Chunk) -> bool:
    """Whether a question on the section's subject (not naming a sub-section) is answered by ``chunk``: the whole
    section, its first sub-section, or, for a punishment question, the first sub-section that punishes."""
    if not chunk.sub:
        return True
    kind, _ = questions.topic_of(chunk.title, chunk.text) or (Kind.RULE, "")
    siblings = sorted(view.subsections(chunk.act, chunk.section), key=lambda c: _sub_order(c.sub or ""))
    if kind is Kind.PUNISHMENT:
        first = next((c for c in siblings if punishment_clause(c.text)), None)
        return first is not None and first.id == chunk.id
    return bool(siblings) and siblings[0].id == chunk.id


def _sub_order(sub: str) -> tuple[int, str]:
    m = re.match(r"\d+", sub)
    return (int(m.group(0)) if m else 10_000, sub)


class Maker:
    """Makes examples from a :class:`StatuteView`; one ``Maker`` per split (its chunks are that split's)."""

    def __init__(self, view: StatuteView, answerer: OfflineAnswerer, chunks: Sequence[Chunk], split: str = "train",
                 neighbours: Neighbours | None = None) -> None:
        self.view = view
        self.answerer = answerer
        self.split = split
        self.neighbours = neighbours
        self.allowed = frozenset(c.id for c in chunks)
        self.pool = sorted((c for c in chunks if eligible(c)), key=lambda c: c.id)
        self.by_act: dict[str, list[Chunk]] = {}
        for c in self.pool:
            self.by_act.setdefault(c.act, []).append(c)
        self._words: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
        self._quantities: dict[str, frozenset[str]] = {}
        self._principal: dict[str, bool] = {}

    # -- context ---------------------------------------------------------------------------------

    def _numbers(self, c: Chunk) -> frozenset[str]:
        """The chunk's quantities ("seven years", "fine of 5,000"), read once per chunk."""
        if c.id not in self._quantities:
            self._quantities[c.id] = frozenset(m.group(0).lower() for m in QUANTITY.finditer(c.text))
        return self._quantities[c.id]

    def _sig(self, c: Chunk) -> tuple[frozenset[str], frozenset[str]]:
        if c.id not in self._words:
            self._words[c.id] = (words(c.title or ""), words(c.text))
        return self._words[c.id]

    def is_principal(self, c: Chunk) -> bool:
        if c.id not in self._principal:
            self._principal[c.id] = principal(self.view, c)
        return self._principal[c.id]

    def similar(self, target: Chunk, rng: random.Random, as_of: str) -> Chunk | None:
        """A different section of the same Act, in force on ``as_of``, that a reader could mistake for ``target``."""
        fam = self.view.chunk_family(target.id)
        rec = self.view.record_of(target)
        chapter = rec.chapter if rec else None
        t_title, t_text = self._sig(target)
        t_q = self._numbers(target)
        scored: list[tuple[float, str, Chunk]] = []
        for c in self.by_act.get(target.act, ()):
            if c.section == target.section or self.view.chunk_family(c.id) == fam or not self.applies(c, as_of):
                continue
            if _same_title(c, target) or not self.is_principal(c):
                continue
            c_rec = self.view.record_of(c)
            score = 0.0
            if chapter and c_rec and c_rec.chapter == chapter:
                score += 2.0
            if abs(_num(c.section) - _num(target.section)) <= 10:
                score += 1.0 if not chapter else 0.5
            c_title, c_text = self._sig(c)
            score += 3.0 * _jaccard(t_title, c_title) + 2.0 * _jaccard(t_text, c_text)
            c_q = self._numbers(c)
            if t_q and c_q and t_q != c_q:
                score += 1.0  # a different number or penalty: the confusion that matters
            if score > 0.5:
                scored.append((score, c.id, c))
        if not scored:
            return None
        scored.sort(key=lambda x: (-x[0], x[1]))
        return rng.choice(scored[:4])[2]

    def applies(self, chunk: Chunk, as_of: str) -> bool:
        """In force on ``as_of``, in the words it has now (no amendment after ``as_of`` changed them)."""
        window = self.view.text_window(chunk)
        return window is not None and window[0] <= as_of < window[1]

    def context(self, core: Sequence[Chunk], question: str, as_of: str, rng: random.Random, *,
                avoid: Sequence[Chunk] = ()) -> tuple[Chunk, ...]:
        """``core`` among what the retriever brings for ``question`` on ``as_of``: 5-8 chunks of this split, none
        of the family of ``core`` or ``avoid`` beyond ``core`` itself, nor titled like an ``avoid`` unit."""
        size = rng.randint(*CONTEXT_SIZE)
        fams = {self.view.chunk_family(c.id) for c in (*core, *avoid)}
        titles = {_norm_title(c) for c in avoid if c.title}
        found: list[Chunk] = []
        ranked = list(self.neighbours(question, as_of, size + 12)) if self.neighbours is not None else []
        for cid in ranked:
            c = self.view.chunks.get(cid)
            if len(found) + len(core) >= size:
                break
            if c is None or cid not in self.allowed or not self.applies(c, as_of) or _norm_title(c) in titles:
                continue
            if self.view.chunk_family(cid) in fams or _GONE.search(c.text[:60]):
                continue
            found.append(c)
            fams.add(self.view.chunk_family(cid))
        tries = 0
        while len(found) + len(core) < size and tries < 60:  # a thin retrieval: fill from the split's other units
            tries += 1
            c = rng.choice(self.pool)
            if self.view.chunk_family(c.id) in fams or not self.applies(c, as_of) or _norm_title(c) in titles:
                continue
            found.append(c)
            fams.add(self.view.chunk_family(c.id))
        out = list(found)
        for c in core:  # the product ranks the right unit anywhere in its top results
            out.insert(rng.randint(0, min(len(out), 3)), c)
        return tuple(out)

    def _as_of(self, chunk: Chunk, rng: random.Random) -> str | None:
        window = self.view.text_window(chunk)
        return day_between(*window, rng) if window else None

    def _about(self, target: Chunk, rng: random.Random, name_section: bool | None = None,
               heading_free: bool = False) -> Question:
        rec = self.view.record_of(target)
        if name_section is None:
            name_section = rng.random() < 0.25
        if not name_section and not self.is_principal(target):
            name_section = True  # a subject question about a lesser sub-section would want the principal one
        return questions.about(target, self.view.title_of(target.act), rec.chapter if rec else None,
                               rec.chapter_title if rec else None, rng, name_section=name_section,
                               split=self.split, heading_free=heading_free)

    def answer(self, chunk: Chunk, kind: Kind, rng: random.Random) -> str | None:
        return self.answerer.answer(chunk, direct=kind is Kind.PUNISHMENT, opening=rng.randrange(6))

    # -- categories ------------------------------------------------------------------------------

    def correct(self, target: Chunk, rng: random.Random) -> Example | None:
        as_of = self._as_of(target, rng)
        if as_of is None:
            return None
        kind = _kind(target)
        if kind is Kind.PUNISHMENT and rng.random() < 0.3 and (ex := self._premise(target, as_of, rng)):
            return ex
        q = self._about(target, rng)
        chosen = self.answer(target, kind, rng)
        if chosen is None:
            return None
        rejected, how = misquote(chosen, target.text, rng)
        if rejected is None:
            return None
        return Example(Category.CORRECT, q.text, as_of, self.context([target], q.text, as_of, rng), chosen, rejected,
                       ((target.act, label_of(target)),), how, q.template, target, (target,))

    def _premise(self, target: Chunk, as_of: str, rng: random.Random) -> Example | None:
        """A question that states a wrong sentence; chosen corrects it from the text, rejected agrees with it."""
        clause = punishment_clause(operative(target.text))
        changed = change_number(clause, target.text, rng) if clause else None
        if not clause or not changed:
            return None
        wrong = _changed_quantity(clause, changed)
        body = self.answer(target, Kind.PUNISHMENT, rng)
        if wrong is None or body is None or clause not in body:
            return None
        q = questions.premise(target, self.view.title_of(target.act), wrong, rng, self.split)
        chosen = f"No. {body}"
        rejected = f"Yes. {body.replace(clause, changed)}"
        return Example(Category.CORRECT, q.text, as_of, self.context([target], q.text, as_of, rng), chosen, rejected,
                       ((target.act, label_of(target)),), "premise", q.template, target, (target,))

    def distractor(self, target: Chunk, rng: random.Random) -> Example | None:
        as_of = self._as_of(target, rng)
        if as_of is None or not self.is_principal(target):
            return None
        q = self._about(target, rng, name_section=False, heading_free=True)
        if not q.text:
            return None
        kind = _kind(target)
        chosen = self.answer(target, kind, rng)
        if chosen is None:
            return None
        if rng.random() < 0.3 and (poison := self._poison(target, rng)) is not None:
            rejected = self.answer(poison, kind, rng)
            if rejected is None:
                return None
            context = self.context([target, poison], q.text, as_of, rng)
            return Example(Category.DISTRACTOR, q.text, as_of, context, chosen, rejected,
                           ((target.act, label_of(target)),), "poison", q.template, target, (target,))
        d = self.similar(target, rng, as_of)
        rejected = self.answer(d, kind, rng) if d is not None else None
        if d is None or rejected is None:
            return None
        return Example(Category.DISTRACTOR, q.text, as_of, self.context([target, d], q.text, as_of, rng), chosen,
                       rejected, ((target.act, label_of(target)),), "sibling", q.template, target, (target,))

    def _poison(self, target: Chunk, rng: random.Random) -> Chunk | None:
        """A fabricated section beside ``target`` (Finetune-RAG's misleading document): the same heading and text
        with one number changed, under a section number the Act does not have."""
        changed = change_number(target.text, target.text, rng)
        if changed is None:
            return None
        number = next((f"{target.section}{s}" for s in "ABCDEFGH"
                       if f"{target.act}:{target.section}{s}" not in self.view.records), None)
        if number is None:
            return None
        cid = f"{target.act}:{number}:{target.sub or '-'}:0"
        label = number + (f"({target.sub})" if target.sub else "")
        return Chunk(id=cid, act=target.act, section=number, sub=target.sub, part=0, title=target.title,
                     heading=f"{target.act} s.{label} {target.title or ''}".strip(), text=changed,
                     status=target.status, in_force_from=target.in_force_from, in_force_to=target.in_force_to,
                     source=target.source)  # fmt: skip

    def insufficient(self, target: Chunk, rng: random.Random) -> Example | None:
        as_of = self._as_of(target, rng)
        if as_of is None or not self.is_principal(target):
            return None
        if rng.random() < 0.25:
            return self._partial(target, as_of, rng)
        named = rng.random() < 0.3
        q = self._about(target, rng, name_section=named)
        context = self.context([], q.text, as_of, rng, avoid=[target])
        if not context:  # nothing else applies on that date (HSA s.14 as of 1956): no document to refuse from
            return None
        chosen = self._refusal(target, context, rng, named=named)
        d = context[0]
        kind = _kind(target)
        if rng.random() < 0.6:  # answers from what it remembers of the missing provision, cited to a document
            quoted = self.answer(target, kind, rng)
            rejected, how = (quoted.replace(f"[{target.id}]", f"[{d.id}]") if quoted else None), "outside"
        else:  # stretches the nearest document into an answer
            rejected, how = self.answer(d, kind, rng), "stretch"
        if rejected is None:
            return None
        hedge = rng.choice(_HEDGES)
        rejected = f"{hedge} {rejected}".strip()
        return Example(Category.INSUFFICIENT, q.text, as_of, context, chosen, rejected,
                       ((target.act, label_of(target)),), how, q.template, target, ())

    def _partial(self, target: Chunk, as_of: str, rng: random.Random) -> Example | None:
        """Two asks, the context answering only the first: chosen answers it and declines the second."""
        other = self.similar(target, rng, as_of)
        if other is None or not self.is_principal(other):
            return None
        q1, q2 = self._about(other, rng, name_section=False), self._about(target, rng, name_section=False)
        if not q1.text or not q2.text:
            return None
        question = f"{q1.text} And {q2.text[:1].lower()}{q2.text[1:]}"
        context = self.context([other], question, as_of, rng, avoid=[target])
        first = self.answer(other, _kind(other), rng)
        missing = questions.missing_phrase(target)
        declined = rng.choice(_PARTIAL).format(missing=missing, missing_bare=missing.removeprefix("a "))
        remembered = self.answer(target, _kind(target), rng)
        if first is None or remembered is None:
            return None
        rejected = f"{first} {remembered.replace(f'[{target.id}]', f'[{other.id}]')}"
        return Example(Category.INSUFFICIENT, question, as_of, context, f"{first} {declined}", rejected,
                       ((target.act, label_of(target)), (other.act, label_of(other))), "partial",
                       f"{q1.template}+{q2.template}", target, (other,))

    def _refusal(self, target: Chunk, context: Sequence[Chunk], rng: random.Random, *, named: bool) -> str:
        shown = list(context[: rng.randint(1, 2)])
        # held documents named by section or by subject, as a lawyer would: always with their ids
        parts = [f"{self.view.cite(c.act, label_of(c))}{_title_note(c)} [{c.id}]" if not _title_note(c)
                 or rng.random() < 0.5 else f"the provision on {_title_note(c)[2:-1].lower()} [{c.id}]"
                 for c in shown]
        held = parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
        if named:
            refusal = rng.choice(_REFUSALS_NAMED).format(held=held, cite=self.view.cite(target.act, label_of(target)))
        else:
            refusal = rng.choice(_REFUSALS).format(held=held, missing=questions.missing_phrase(target))
        nearest = self.answer(shown[0], Kind.RULE, rng) if rng.random() < 0.6 else None
        if nearest is None:
            return refusal
        # Why the nearest document does not answer, in its own words: a refusal as long and as cited as an answer.
        _, topic = questions.topic_of(target.title, target.text) or (Kind.RULE, "the question")
        _, own = questions.topic_of(shown[0].title, shown[0].text) or (Kind.RULE, "another subject")
        return (f"{refusal} The nearest is this: {nearest} That provision is about {own}, a different matter "
                f"from {topic}.")

    def outdated(self, old: Chunk, new: Chunk, rng: random.Random) -> Example | None:
        after = rng.random() < 0.6
        if after:
            window = self.view.text_window(new)
            as_of = day_between(max(NEW_CODES_FROM, window[0]), window[1], rng) if window else None
        else:
            window = self.view.text_window(old)
            as_of = day_between(window[0], min(window[1], NEW_CODES_FROM), rng) \
                if window and window[0] < NEW_CODES_FROM else None
        if as_of is None:
            return None
        q = questions.across_2024(old, new, self.view.act_titles, as_of, rng, self.split)
        applies, other = (new, old) if after else (old, new)
        quoted, wrong = self.answer(applies, _kind(applies), rng), self.answer(other, _kind(other), rng)
        if quoted is None or wrong is None:
            return None
        day = questions.human_date(as_of)
        old_cite, new_cite = self.view.cite(old.act, label_of(old)), self.view.cite(new.act, label_of(new))
        frame = rng.choice(_FRAMES)
        chosen = f"{frame.format(day=day, code='the ' + self.view.title_of(applies.act))} {quoted}"
        rejected = f"{rng.choice(_FRAMES).format(day=day, code='the ' + self.view.title_of(other.act))} {wrong}"
        note = rng.random()
        if note < 0.3:  # noting the other side of the replacement, as the product does
            chosen += (f" {old_cite} was repealed with effect from 1 July 2024 and replaced by {new_cite} "
                       f"[{old.id}] [{new.id}]." if after else
                       f" {new_cite}, which replaced it from 1 July 2024, does not apply to these facts "
                       f"[{new.id}] [{old.id}].")
        elif note < 0.6:
            chosen += (f" It replaced {old_cite} from 1 July 2024 [{old.id}]." if after else
                       f" Its replacement, {new_cite}, applies only from 1 July 2024 [{new.id}].")
        if rng.random() < 0.5:  # the wrong code, defended with the date as well
            wrong_cite = old_cite if after else new_cite
            rejected += (f" {wrong_cite} governs facts of that date [{other.id}]." if rng.random() < 0.5 else
                         f" The change of codes on 1 July 2024 does not alter this; {wrong_cite} applies "
                         f"[{other.id}].")
        context = self.context([old, new], q.text, as_of, rng)
        return Example(Category.OUTDATED, q.text, as_of, context, chosen, rejected,
                       ((applies.act, label_of(applies)), (other.act, label_of(other))),
                       "after" if after else "before", q.template, applies, (applies,))

    def misattributed(self, target: Chunk, rng: random.Random) -> Example | None:
        as_of = self._as_of(target, rng)
        if as_of is None:
            return None
        q = self._about(target, rng)
        chosen = self.answer(target, _kind(target), rng)
        right = self.answerer.cite(target)
        if chosen is None or right not in chosen:
            return None
        swap = SWAP_ACT.get(target.act)
        d = self.similar(target, rng, as_of)
        if d is not None and (swap is None or rng.random() < 0.7):
            rejected = chosen.replace(right, self.answerer.cite(d)).replace(f"[{target.id}]", f"[{d.id}]")
            context, how = self.context([target, d], q.text, as_of, rng), "section"
        elif swap is not None and swap in self.view.act_titles:
            rejected = chosen.replace(right, self.view.cite(swap, label_of(target)))
            context, how = self.context([target], q.text, as_of, rng), "act"
        else:
            return None
        return Example(Category.MISATTRIBUTED, q.text, as_of, context, chosen, rejected,
                       ((target.act, label_of(target)),), how, q.template, target, (target,))


def replacement_pairs(view: StatuteView) -> list[tuple[Chunk, Chunk]]:
    """(old chunk, new chunk) for every IPC/CrPC/IEA section replaced by exactly one new provision,
    itself replacing only that section, both with quotable text."""
    out = []
    for key in sorted(view.records):
        rec = view.records[key]
        if rec.act not in OLD_TO_NEW or len(rec.successors) != 1:
            continue
        succ = rec.successors[0]
        new_rec = view.records.get(f"{succ.act}:{base_section(succ.section)}")
        if new_rec is None or len([p for p in new_rec.predecessors if p.via == succ.section]) != 1:
            continue
        old, new = view.chunk_for(rec.act, rec.number), view.chunk_for(succ.act, succ.section)
        if old is not None and new is not None and eligible(old) and eligible(new):
            out.append((old, new))
    return out


def misquote(answer: str, passage: str, rng: random.Random) -> tuple[str | None, str]:
    """``answer`` with one quoted clause changed materially (number, negation or modal), everywhere the answer
    quotes it (a direct answer and the full quotation agree, as in a real misreading), and how."""
    quotes = sorted(set(_QUOTED.findall(answer)), key=lambda q: (len(q), q))  # no set order reaches the files
    rules: list[tuple[str, Callable[[str], str | None]]] = [
        ("number", lambda t: change_number(t, passage, rng)), ("negation", lambda t: flip_negation(t, rng)),
        ("modality", lambda t: swap_modal(t, rng))]  # fmt: skip
    rng.shuffle(rules)
    for quote in quotes:
        for how, rule in rules:
            changed = rule(quote)
            if changed and changed != quote:
                return answer.replace(quote, changed), how
    return None, ""


def _changed_quantity(before: str, after: str) -> str | None:
    """The quantity ``after`` states where ``before`` differs ("seven years")."""
    for m in QUANTITY.finditer(after):
        if m.group(0) not in before:
            return m.group(0)
    return None


def _kind(c: Chunk) -> Kind:
    found = questions.topic_of(c.title, c.text)
    return found[0] if found else Kind.RULE


def _norm_title(c: Chunk) -> str:
    return " ".join(re.sub(r"[^a-z ]", " ", (c.title or "").lower()).split())


def _same_title(a: Chunk, b: Chunk) -> bool:
    return bool(a.title) and _norm_title(a) == _norm_title(b)


def _title_note(c: Chunk) -> str:
    """ " (Theft in a dwelling house)", or nothing when the title itself cites something ("Section 562 ...")."""
    title = (c.title or "").strip().rstrip(".")
    return f" ({title})" if title and not re.search(r"\d|[Ss]ection|Act\b|Code\b", title) else ""


def _num(section: str) -> int:
    m = re.match(r"\d+", section)
    return int(m.group(0)) if m else 0


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


__all__ = ["Example", "Maker", "Neighbours", "Retriever", "eligible", "from_retriever", "misquote", "nested",
           "principal", "replacement_pairs"]
