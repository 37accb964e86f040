"""One training example per category: a question, its context chunks, a chosen and a rejected answer.

* ``correct``: the context holds the right provision (and unrelated ones of the same Act); chosen
  quotes it; rejected is the same answer with one number, negation or modal changed inside the
  quotation (``finetune.perturb``), which the verifier reports as misquoted.
* ``distractor``: the right provision beside the most similar other section of the same Act (same
  chapter, nearest heading and text, a different number or penalty); chosen quotes the right one,
  rejected quotes the distractor.
* ``insufficient``: the similar sections without the right one (nor anything of its family); chosen
  says the documents do not answer and names what is missing; rejected answers anyway, from the
  missing provision (outside the documents) or by stretching the nearest document.
* ``outdated``: a repealed IPC/CrPC/IEA section and its BNS/BNSS/BSA successor both in context. Facts
  on or after 2024-07-01: chosen quotes the successor and notes the replacement, rejected quotes the
  repealed section as the law. Facts before: the mirror (old code applies; new one not yet in force).
* ``misattributed``: chosen quotes the right provision; rejected puts the same verbatim quotation
  under another section of the context, or under the same number of a different Act.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from finetune import questions
from finetune.judge import INSUFFICIENT_MARK, Category
from finetune.perturb import QUANTITY, change_number, flip_negation, swap_modal
from finetune.prompt import OfflineAnswerer
from finetune.statutes import NEW_CODES_FROM, OLD_TO_NEW, StatuteView, base_section, label_of
from legal_rag.retrieval.types import Chunk

# The Act a misattributed answer names instead: a plausible confusion, not a random one.
SWAP_ACT = {"BNS": "BNSS", "BNSS": "BNS", "BSA": "BNSS", "IPC": "CRPC", "CRPC": "IPC", "IEA": "CRPC",
            "HMA": "SMA", "SMA": "HMA", "NIA": "ICA"}  # fmt: skip
_QUOTED = re.compile(r'"([^"]+)"')
_SUB_OK = re.compile(r"^(?:\d+[A-Z]{0,2}|[a-z]{1,5})$")
_WORD = re.compile(r"[a-z]{3,}")
_GONE = re.compile(r"\b(?:Rep\.|Repealed|Omitted|\* \* \*)", re.I)
_STOP = frozenset({"the", "and", "for", "any", "such", "shall", "which", "with", "from", "that", "this",
    "under", "other", "than", "into", "upon", "has", "have", "been", "being", "may", "who", "whom", "whose",
    "his", "her", "their", "its", "not", "all", "are", "was", "were", "by", "of", "or", "in", "to", "on",
    "as", "be", "is", "section", "act", "punishment"})


@dataclass(frozen=True, slots=True)
class Example:
    category: Category
    question: str
    as_of: str
    context: tuple[Chunk, ...]
    chosen: str
    rejected: str
    provisions: tuple[tuple[str, str], ...]
    """(act, label) of what the question is about; the applicable provision first."""
    variant: str
    """How the rejected answer was made ("number", "sibling", "outside", "after", "section", ...)."""


def words(text: str) -> frozenset[str]:
    return frozenset(w for w in _WORD.findall(text.lower()) if w not in _STOP)


def eligible(chunk: Chunk) -> bool:
    """A chunk a question can be about: a whole first part, of a plain sub-unit, 10-180 words of operative text."""
    n = len(chunk.text.split())
    if chunk.part != 0 or not 10 <= n <= 180 or not chunk.title:
        return False
    if chunk.sub and not all(_SUB_OK.match(p) for p in chunk.sub.split("/")):
        return False
    text = chunk.text.strip()
    if _GONE.search(text[:60]) or "STATE AMENDMENT" in text or text.endswith(("—", "-", ":", ",")):
        return False  # a repealed or omitted stub, or a lead-in whose clauses are other chunks
    return questions.topic_of(chunk.title, chunk.text) is not None


def day_between(lo: str, hi: str, rng: random.Random) -> str:
    """A day in [lo, hi)."""
    a, b = date.fromisoformat(lo), date.fromisoformat(hi)
    return (a + timedelta(days=rng.randrange(max(1, (b - a).days)))).isoformat()


class Maker:
    """Makes examples from a :class:`StatuteView`; one ``Maker`` per split (its chunks are that split's)."""

    def __init__(self, view: StatuteView, answerer: OfflineAnswerer, chunks: Sequence[Chunk]) -> None:
        self.view = view
        self.answerer = answerer
        self.by_act: dict[str, list[Chunk]] = {}
        for c in sorted(chunks, key=lambda c: c.id):
            if eligible(c):
                self.by_act.setdefault(c.act, []).append(c)
        self._words: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
        self._quantities: dict[str, frozenset[str]] = {}

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

    def similar(self, target: Chunk, rng: random.Random, as_of: str) -> Chunk | None:
        """A different section of the same Act, in force on ``as_of``, that a reader could mistake for ``target``."""
        fam = self.view.chunk_family(target.id)
        rec = self.view.record_of(target)
        chapter = rec.chapter if rec else None
        t_title, t_text = self._sig(target)
        t_q = self._numbers(target)
        scored: list[tuple[float, str, Chunk]] = []
        for c in self.by_act.get(target.act, ()):
            if c.section == target.section or self.view.chunk_family(c.id) == fam or not _in_force(self.view, c, as_of):
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

    def filler(self, act: str, rng: random.Random, avoid_families: set[str], as_of: str) -> Chunk | None:
        """Another section of the same Act, in force on ``as_of``, of none of ``avoid_families``."""
        pool = self.by_act.get(act, [])
        for _ in range(20):
            if not pool:
                return None
            c = rng.choice(pool)
            if self.view.chunk_family(c.id) not in avoid_families and _in_force(self.view, c, as_of):
                return c
        return None

    def _context(self, core: list[Chunk], rng: random.Random, fillers: int, as_of: str) -> tuple[Chunk, ...]:
        fams = {self.view.chunk_family(c.id) for c in core}
        out = list(core)
        for _ in range(fillers):
            f = self.filler(core[-1].act, rng, fams, as_of)
            if f is not None and f.id not in {c.id for c in out}:
                out.append(f)
                fams.add(self.view.chunk_family(f.id))
        rng.shuffle(out)
        return tuple(out)

    def _as_of(self, chunk: Chunk, rng: random.Random) -> str | None:
        window = self.view.in_force_window(chunk)
        return day_between(*window, rng) if window else None

    def _quote(self, question: str, chunk: Chunk, as_of: str) -> str | None:
        sentences = self.answerer.quote(question, chunk, as_of)
        return " ".join(sentences) if sentences else None

    def _about(self, target: Chunk, rng: random.Random, name_section: bool | None = None) -> str:
        rec = self.view.record_of(target)
        return questions.about(target, self.view.title_of(target.act), rec.chapter if rec else None,
                               rec.chapter_title if rec else None, rng, name_section=name_section)

    # -- categories ------------------------------------------------------------------------------

    def _quoted(self, target: Chunk, rng: random.Random) -> tuple[str, str, str] | None:
        """(date, question about ``target``, the answer quoting it); None when ``target`` has no date on
        which it applies or no sentence to quote."""
        as_of = self._as_of(target, rng)
        if as_of is None:
            return None
        q = self._about(target, rng)
        chosen = self._quote(q, target, as_of)
        return None if chosen is None else (as_of, q, chosen)

    def correct(self, target: Chunk, rng: random.Random) -> Example | None:
        if (start := self._quoted(target, rng)) is None:
            return None
        as_of, q, chosen = start
        rejected, how = _misquote(chosen, target.text, rng)
        if rejected is None:
            return None
        return Example(Category.CORRECT, q, as_of, self._context([target], rng, 2, as_of), chosen, rejected,
                       ((target.act, label_of(target)),), how)

    def distractor(self, target: Chunk, rng: random.Random) -> Example | None:
        as_of = self._as_of(target, rng)
        d = self.similar(target, rng, as_of) if as_of else None
        if as_of is None or d is None:
            return None
        q = self._about(target, rng, name_section=False)  # named, the right document would be trivial to find
        chosen, rejected = self._quote(q, target, as_of), self._quote(q, d, as_of)
        if chosen is None or rejected is None:
            return None
        return Example(Category.DISTRACTOR, q, as_of, self._context([target, d], rng, 1, as_of), chosen, rejected,
                       ((target.act, label_of(target)),), "sibling")

    def insufficient(self, target: Chunk, rng: random.Random) -> Example | None:
        as_of = self._as_of(target, rng)
        d = self.similar(target, rng, as_of) if as_of else None
        if as_of is None or d is None:
            return None
        named = rng.random() < 0.3
        q = self._about(target, rng, name_section=named)
        context = self._context([d], rng, rng.choice((1, 2)), as_of)
        held = " and ".join(f"{self.view.cite(c.act, label_of(c))}{_title_note(c)} [{c.id}]" for c in context)
        missing = questions.missing_phrase(target)
        lead = f"The documents provided {INSUFFICIENT_MARK} this question."
        if named:
            gap = f"{self.view.cite(target.act, label_of(target))}, which the question asks about, is not among them"
            chosen = f"{lead} They contain {held}, but {gap}. I cannot answer from these documents without it."
        else:
            chosen = (f"{lead} They contain {held}, but none of them is {missing}. "
                      f"That provision is missing, so I cannot answer from these documents.")
        if rng.random() < 0.6:  # answers from what it remembers of the missing provision
            quoted = self._quote(q, target, as_of)
            rejected, how = (re.sub(r"\s*\[[^\]]+\]", "", quoted), "outside") if quoted else (None, "")
        else:  # stretches the nearest document into an answer
            rejected, how = self._quote(q, d, as_of), "stretch"
        if rejected is None:
            return None
        return Example(Category.INSUFFICIENT, q, as_of, context, chosen, rejected,
                       ((target.act, label_of(target)),), how)

    def outdated(self, old: Chunk, new: Chunk, rng: random.Random) -> Example | None:
        old_rec, new_rec = self.view.record_of(old), self.view.record_of(new)
        if old_rec is None or new_rec is None:
            return None
        after = rng.random() < 0.6
        if after:
            as_of = day_between(NEW_CODES_FROM, min(new_rec.in_force_to or "2026-01-01", "2026-01-01"), rng)
        else:
            lo = max(old_rec.in_force_from or "2005-01-01", "2005-01-01")
            if lo >= NEW_CODES_FROM:
                return None
            as_of = day_between(lo, NEW_CODES_FROM, rng)
        q = questions.across_2024(old, new, self.view.act_titles, as_of, rng)
        applies, other = (new, old) if after else (old, new)
        quoted, wrong = self._quote(q, applies, as_of), self._quote(q, other, as_of)
        if quoted is None or wrong is None:
            return None
        day = questions.human_date(as_of)
        old_cite, new_cite = self.view.cite(old.act, label_of(old)), self.view.cite(new.act, label_of(new))
        if after:
            chosen = (f"For facts on {day}, the {self.view.title_of(new.act)} applies. {quoted} "
                      f"{old_cite} was repealed with effect from 1 July 2024 and replaced by {new_cite} "
                      f"[{old.id}] [{new.id}].")
        else:
            chosen = (f"For facts on {day}, the {self.view.title_of(old.act)} applies; the "
                      f"{self.view.title_of(new.act)} came into force only on 1 July 2024. {quoted} "
                      f"{new_cite}, which replaced it from that date, does not apply to these facts "
                      f"[{new.id}] [{old.id}].")
        context = self._context([old, new], rng, rng.choice((0, 1)), as_of)
        return Example(Category.OUTDATED, q, as_of, context, chosen, wrong,
                       ((applies.act, label_of(applies)), (other.act, label_of(other))),
                       "after" if after else "before")

    def misattributed(self, target: Chunk, rng: random.Random) -> Example | None:
        if (start := self._quoted(target, rng)) is None:
            return None
        as_of, q, chosen = start
        right = self.view.cite(target.act, label_of(target))
        if right not in chosen:
            return None
        swap = SWAP_ACT.get(target.act)
        d = self.similar(target, rng, as_of)
        if d is not None and (swap is None or rng.random() < 0.7):
            rejected = chosen.replace(right, self.view.cite(d.act, label_of(d))).replace(f"[{target.id}]", f"[{d.id}]")
            context, how = self._context([target, d], rng, 1, as_of), "section"
        elif swap is not None and swap in self.view.act_titles:
            rejected = re.sub(r"\s*\[[^\]]+\]", "", chosen.replace(right, self.view.cite(swap, label_of(target))))
            context, how = self._context([target], rng, 2, as_of), "act"
        else:
            return None
        return Example(Category.MISATTRIBUTED, q, as_of, context, chosen, rejected,
                       ((target.act, label_of(target)),), how)


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


def _misquote(answer: str, passage: str, rng: random.Random) -> tuple[str | None, str]:
    """``answer`` with one quotation changed materially (number, negation or modal), and how."""
    quotes = _QUOTED.findall(answer)
    rules: list[tuple[str, Callable[[str], str | None]]] = [
        ("number", lambda t: change_number(t, passage, rng)), ("negation", lambda t: flip_negation(t, rng)),
        ("modality", lambda t: swap_modal(t, rng))]  # fmt: skip
    rng.shuffle(rules)
    for quote in quotes:
        for how, rule in rules:
            changed = rule(quote)
            if changed and changed != quote:
                return answer.replace(f'"{quote}"', f'"{changed}"', 1), how
    return None, ""


def _title_note(c: Chunk) -> str:
    """ " (Theft in a dwelling house)", or nothing when the title itself cites something ("Section 562 ...")."""
    title = (c.title or "").strip().rstrip(".")
    return f" ({title})" if title and not re.search(r"\d|[Ss]ection|Act\b|Code\b", title) else ""


def _in_force(view: StatuteView, chunk: Chunk, as_of: str) -> bool:
    window = view.in_force_window(chunk)
    return window is not None and window[0] <= as_of < window[1]


def _num(section: str) -> int:
    m = re.match(r"\d+", section)
    return int(m.group(0)) if m else 0


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0
