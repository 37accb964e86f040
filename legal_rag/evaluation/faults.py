"""Fault injection: does verification catch what a bad generator would write?

``legal-rag eval faults`` takes answers the workflow produced and verified, and for each one runs the
workflow again with one fault injected into the generator's draft, exactly where a model's mistake
would enter: after retrieval and generation, before the citation, quote and claim checks. Everything
downstream (existence and temporal checks against the graph, quote checks, GenGround re-retrieval and
alignment, reconstruction) is the production path. A fault is **detected** when the faulted sentence
does not reach the user unflagged: it is removed from the answer, or it stays with its citation
flagged (a status other than verified) or named in a warning. Untouched answers, and correct
restatements of a provision in the answer's own words, measure false alarms.

Fault types (keys of the report):

* ``fabricated_section``: the cited section number is replaced by one the Act does not have.
* ``wrong_act``: the same section number, but of another Act that has such a section.
* ``repealed_section``: facts on/after 2024-07-01 cite the repealed IPC/CrPC/IEA predecessor of a
  BNS/BNSS/BSA provision (and, for older facts, the not-yet-in-force successor of an old-code one).
* ``misquote``: a number, a negation or shall/may changed inside the quotation.
* ``misattributed_quote``: the verbatim quotation attributed to another section of the same Act.
* ``contradicted_claim``: the provision restated in plain words with its number, penalty or
  modality changed, or negated.
* ``unsupported_claim``: a plausible sentence about the cited provision that no statute text says.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from graph_schema.errors import FaultError
from graph_schema.model import NEW_CRIMINAL_CODES_IN_FORCE as CUTOVER
from graph_schema.model import main_section
from legal_rag.workflow.types import AnswerSentence, Complexity, Generation, Generator, Passage
from verification.claims.perturb import change_words, contradict

FAULT_TYPES = (
    "fabricated_section",
    "wrong_act",
    "repealed_section",
    "misquote",
    "misattributed_quote",
    "contradicted_claim",
    "unsupported_claim",
)
CONTROL_TYPES = ("untouched", "restated")
"""Answers that must come through: unchanged, and one sentence restated correctly in plain words."""

# The extractive generator's sentence: Section 303(2) of the Bharatiya Nyaya Sanhita, 2023 provides: "..."
QUOTED = re.compile(r'^Section (?P<sec>\S+) of the (?P<title>.+?) provides: "(?P<quote>.+)"$', re.DOTALL)

@dataclass(frozen=True, slots=True)
class Injected:
    """What was changed: the sentence index, its text before and after, and the citation it now makes."""

    kind: str
    index: int
    before: str
    after: str
    act: str | None = None
    section: str | None = None
    appended: bool = False


@dataclass(frozen=True, slots=True)
class GraphFacts:
    """What the injector needs from the graph: Act titles, section numbers, texts and replacements."""

    titles: Mapping[str, str]
    """Act code -> full title ("BNS" -> "Bharatiya Nyaya Sanhita, 2023")."""
    sections: Mapping[str, frozenset[str]]
    """Act code -> its section numbers."""
    texts: Mapping[str, Mapping[str, str]]
    """Act code -> section number -> text, for Acts with text."""
    predecessors: Mapping[tuple[str, str], tuple[str, str]]
    """(new act, section) -> one (old act, section) it replaced."""
    successors: Mapping[tuple[str, str], tuple[str, str]]
    """(old act, section) -> one (new act, section) that replaced it."""

    def code_of(self, title: str) -> str | None:
        norm = _bare(title)
        for code, t in self.titles.items():
            if _bare(t) == norm:
                return code
        return None

    def cite_title(self, code: str) -> str:
        """The title as the generator writes it after "of the": without its own leading "The"."""
        t = " ".join(self.titles.get(code, code).split())
        return t[4:] if t.lower().startswith("the ") else t


def _bare(title: str) -> str:
    t = " ".join(title.split()).lower()
    return t[4:] if t.startswith("the ") else t


def graph_facts(store: Any, acts_with_text: Iterable[str] | None = None) -> GraphFacts:
    """Read :class:`GraphFacts` from a graph store (every Act's section numbers; texts of ``acts_with_text``
    or of every Act with text)."""
    acts = store.all_acts()
    titles = {a.code: a.title for a in acts}
    rows = store.text_sections()
    texts: dict[str, dict[str, str]] = {}
    for r in rows:
        if r.get("text"):
            texts.setdefault(r["act"], {})[r["number"]] = r["text"]
    if acts_with_text is not None:
        keep = set(acts_with_text)
        texts = {k: v for k, v in texts.items() if k in keep}
    sections = {code: frozenset(store.section_numbers(code)) for code in titles}
    preds: dict[tuple[str, str], tuple[str, str]] = {}
    succs: dict[tuple[str, str], tuple[str, str]] = {}
    for new in ("BNS", "BNSS", "BSA"):
        if new not in texts:
            continue
        recs = store.get_sections([(new, n) for n in sorted(texts[new])])
        for rec in recs.values():
            for p in rec.predecessors:
                if p.section[:1].isdigit():
                    # keyed by the unit the edge is drawn from ("303(2)" -> IPC 379) and by the whole section
                    preds.setdefault((new, p.via or rec.number), (p.act, p.section))
                    preds.setdefault((new, rec.number), (p.act, p.section))
                    succs.setdefault((p.act, main_section(p.section)), (new, p.via or rec.number))
    return GraphFacts(titles, sections, texts, preds, succs)


def _sub(section: str) -> str:
    return section[len(main_section(section)):]


def _quoted(gen: Generation) -> list[tuple[int, re.Match[str]]]:
    return [(i, m) for i, s in enumerate(gen.sentences) if (m := QUOTED.match(s.text))]


def _with(gen: Generation, index: int, text: str) -> Generation:
    sentences = list(gen.sentences)
    sentences[index] = AnswerSentence(text, sentences[index].chunk_ids)
    return replace(gen, sentences=tuple(sentences))


def _cite(sec: str, title: str, quote: str) -> str:
    return f'Section {sec} of the {title} provides: "{quote}"'


_UNSUPPORTED = (
    "Under Section {sec} of the {title}, the offence is compoundable only with the written permission of the "
    "High Court.",
    "Section {sec} of the {title} does not apply where the act was done by a person under the age of "
    "twenty-five years.",
    "A complaint under Section {sec} of the {title} must be filed within fifteen days of the act.",
    "Under Section {sec} of the {title}, the court must also order the forfeiture of the accused's passport.",
    "Section {sec} of the {title} was amended in 2025 to double the fine it provides.",
    "Proceedings under Section {sec} of the {title} can be started only with the sanction of the State "
    "Election Commission.",
)


class FaultInjector:
    """Applies one fault of a kind to a generation (deterministic for a given ``random.Random``)."""

    def __init__(self, facts: GraphFacts) -> None:
        self.facts = facts

    def inject(self, kind: str, gen: Generation, as_of: str, rng: random.Random) -> tuple[Generation, Injected]:
        """Raises: FaultError if this answer has no sentence the fault applies to."""
        quoted = _quoted(gen)
        if not quoted:
            raise FaultError("no quoted provision in the answer")
        order = list(quoted)
        rng.shuffle(order)
        fn = getattr(self, "_" + kind, None)
        if fn is None:
            raise ValueError(f"unknown fault type {kind!r}; known: {', '.join(FAULT_TYPES + CONTROL_TYPES)}")
        for i, m in order:
            out = fn(gen, i, m, as_of, rng)
            if out is not None:
                return out  # type: ignore[no-any-return]
        raise FaultError(f"{kind}: no sentence of this answer admits it")

    # -- citations ------------------------------------------------------------------------------

    def _fabricated_section(self, gen: Generation, i: int, m: re.Match[str], as_of: str,
                            rng: random.Random) -> tuple[Generation, Injected] | None:
        code = self.facts.code_of(m["title"])
        if code is None:
            return None
        numbers = [int(main_section(n)) for n in self.facts.sections.get(code, ()) if main_section(n).isdigit()]
        top = max(numbers, default=100)
        fake = str(top + rng.randint(1, 60))
        while fake in self.facts.sections.get(code, ()):
            fake = str(int(fake) + 1)
        text = _cite(fake + _sub(m["sec"]), m["title"], m["quote"])
        return _with(gen, i, text), Injected("fabricated_section", i, m.group(0), text, code, fake)

    def _wrong_act(self, gen: Generation, i: int, m: re.Match[str], as_of: str,
                   rng: random.Random) -> tuple[Generation, Injected] | None:
        code = self.facts.code_of(m["title"])
        sec = main_section(m["sec"])
        quote = _flat(m["quote"]).rstrip(" .:;,")
        # another Act whose section of that number does not itself say the same words ("It extends to the
        # whole of India" is in every Act's section 1: citing another Act for it is no fault)
        others = sorted(a for a, secs in self.facts.texts.items()
                        if a != code and sec in secs and quote[:60] not in _flat(secs[sec]))  # fmt: skip
        if not others:
            others = sorted(a for a, secs in self.facts.sections.items() if a != code and sec in secs)
        if not others:
            return None
        other = rng.choice(others)
        text = _cite(sec, self.facts.cite_title(other), m["quote"])
        return _with(gen, i, text), Injected("wrong_act", i, m.group(0), text, other, sec)

    def _repealed_section(self, gen: Generation, i: int, m: re.Match[str], as_of: str,
                          rng: random.Random) -> tuple[Generation, Injected] | None:
        code = self.facts.code_of(m["title"])
        if code is None:
            return None
        sec = main_section(m["sec"])
        # facts after the cutover: the repealed predecessor; before it: the successor not yet in force
        table = self.facts.predecessors if as_of >= CUTOVER else self.facts.successors
        swap = table.get((code, m["sec"])) or table.get((code, sec))
        if swap is None or swap[0] not in self.facts.titles:
            return None
        act, number = swap
        text = _cite(main_section(number), self.facts.cite_title(act), m["quote"])
        return _with(gen, i, text), Injected("repealed_section", i, m.group(0), text, act, main_section(number))

    # -- quotations -----------------------------------------------------------------------------

    def _misquote(self, gen: Generation, i: int, m: re.Match[str], as_of: str,
                  rng: random.Random) -> tuple[Generation, Injected] | None:
        changed = change_words(m["quote"], rng)
        if changed is None or changed == m["quote"]:
            return None
        text = _cite(m["sec"], m["title"], changed)
        code = self.facts.code_of(m["title"])
        return _with(gen, i, text), Injected("misquote", i, m.group(0), text, code, main_section(m["sec"]))

    def _misattributed_quote(self, gen: Generation, i: int, m: re.Match[str], as_of: str,
                             rng: random.Random) -> tuple[Generation, Injected] | None:
        code = self.facts.code_of(m["title"])
        if code is None or code not in self.facts.texts:
            return None
        sec = main_section(m["sec"])
        quote = _flat(m["quote"]).rstrip(" .:;,")
        others = sorted(n for n, t in self.facts.texts[code].items()
                        if n != sec and quote[:60] not in _flat(t))  # fmt: skip
        if not others:
            return None
        def distance(n: str) -> int:
            num = main_section(n)
            return abs(int(num) - int(sec)) if num.isdigit() and sec.isdigit() else 10**6

        near = sorted(others, key=distance)[:8]
        other = rng.choice(near)
        text = _cite(other, m["title"], m["quote"])
        return _with(gen, i, text), Injected("misattributed_quote", i, m.group(0), text, code, other)

    # -- claims ---------------------------------------------------------------------------------

    def _contradicted_claim(self, gen: Generation, i: int, m: re.Match[str], as_of: str,
                            rng: random.Random) -> tuple[Generation, Injected] | None:
        changed = contradict(_plain(m["quote"]), rng)
        if changed is None:
            return None
        text = f"Under Section {m['sec']} of the {m['title']}, {_lower_first(changed)}"
        code = self.facts.code_of(m["title"])
        return _with(gen, i, text), Injected("contradicted_claim", i, m.group(0), text, code, main_section(m["sec"]))

    def _unsupported_claim(self, gen: Generation, i: int, m: re.Match[str], as_of: str,
                           rng: random.Random) -> tuple[Generation, Injected] | None:
        text = rng.choice(_UNSUPPORTED).format(sec=m["sec"], title=m["title"])
        sentences = list(gen.sentences)
        sentences.insert(i + 1, AnswerSentence(text, gen.sentences[i].chunk_ids))
        code = self.facts.code_of(m["title"])
        return (replace(gen, sentences=tuple(sentences)),
                Injected("unsupported_claim", i + 1, "", text, code, main_section(m["sec"]), appended=True))

    # -- controls -------------------------------------------------------------------------------

    def _untouched(self, gen: Generation, i: int, m: re.Match[str], as_of: str,
                   rng: random.Random) -> tuple[Generation, Injected] | None:
        code = self.facts.code_of(m["title"])
        return gen, Injected("untouched", i, m.group(0), m.group(0), code, main_section(m["sec"]))

    def _restated(self, gen: Generation, i: int, m: re.Match[str], as_of: str,
                  rng: random.Random) -> tuple[Generation, Injected] | None:
        if not m["quote"].rstrip().endswith(".") or len(m["quote"].split()) < 8:
            return None  # a fragment ("this Act shall not apply to--") is no claim to restate
        plain = _plain(m["quote"])
        text = f"Under Section {m['sec']} of the {m['title']}, {_lower_first(plain)}"
        return _with(gen, i, text), Injected("restated", i, m.group(0), text, self.facts.code_of(m["title"]),
                                             main_section(m["sec"]))


def _flat(text: str) -> str:
    return " ".join(text.split()).lower()


def _plain(quote: str) -> str:
    """The quotation as a plain sentence: its leading clause marker dropped, one trailing full stop."""
    s = re.sub(r"^\(\w{1,4}\)\s*", "", quote.strip())
    s = s.rstrip(" .;:,—-")
    return s + "."


def _lower_first(s: str) -> str:
    return s[:1].lower() + s[1:] if s[:1].isupper() and not s[:2].isupper() else s


class FaultInjectingGenerator:
    """A :class:`Generator` that drafts with ``inner`` and then applies the pending fault.

    Not thread-safe: one harness drives it, one question at a time. The generator keeps ``inner``'s
    name, so the workflow treats the draft as it treats ``inner``'s (no model retry loop offline).
    """

    def __init__(self, inner: Generator, injector: FaultInjector) -> None:
        self.inner = inner
        self.injector = injector
        self.name = inner.name
        self.pending: tuple[str, random.Random] | None = None
        self.injected: Injected | None = None
        self.error: str | None = None

    def generate(self, question: str, passages: Sequence[Passage], *, as_of: str,
                 complexity: Complexity) -> Generation:
        gen = self.inner.generate(question, passages, as_of=as_of, complexity=complexity)
        if self.pending is None or self.injected is not None or gen.insufficient:
            return gen  # a second round (if any) gets the faulted draft's successor unchanged
        kind, rng = self.pending
        try:
            out, self.injected = self.injector.inject(kind, gen, as_of, rng)
        except FaultError as exc:
            self.error = str(exc)
            return gen
        return out


@dataclass
class Outcome:
    """One faulted (or control) run."""

    question_id: str
    kind: str
    injected: Injected | None
    outcome: str
    """``removed`` | ``flagged`` | ``passed`` | ``skipped``."""
    detail: str = ""


def judge(result: Any, inj: Injected) -> tuple[str, str]:
    """Did the faulted sentence reach the user unflagged? -> (outcome, detail)."""
    claim = next((c for c in result.claims if c.text == inj.after), None)
    if claim is None:
        if inj.after in result.answer:
            return "passed", "in the answer, but not judged as a claim"
        return "removed", "the sentence is not in the answer"
    if not claim.kept:
        return "removed", f"{claim.verdict}: {'; '.join(claim.reasons)[:200]}"
    if inj.act and inj.section:
        for c in result.citations:
            if c.where == "answer" and c.act == inj.act and c.section and main_section(c.section) == inj.section \
                    and c.status.value != "verified":
                return "flagged", f"citation {c.text!r}: {c.status.value}"
        named = (f"{inj.act} {inj.section}", f"{inj.act} s.{inj.section}")
        for w in result.warnings:
            if any(t in w for t in named):
                return "flagged", f"warning: {w[:200]}"
    return "passed", f"{claim.verdict}: {'; '.join(claim.reasons)[:200]}"


@dataclass
class FaultReport:
    n: int
    seed: int
    detection: dict[str, float | None]
    counts: dict[str, dict[str, int]]
    false_alarm_rate: float | None
    controls: dict[str, dict[str, int]]
    base_answers: int
    missed: list[dict[str, Any]] = field(default_factory=list)
    false_alarms: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"n": self.n, "seed": self.seed, "detection": self.detection, "false_alarm_rate": self.false_alarm_rate,
                "counts": self.counts, "controls": self.controls, "base_answers": self.base_answers,
                "missed": self.missed, "false_alarms": self.false_alarms}


def summarise(outcomes: Sequence[Outcome], n: int, seed: int, base: int) -> FaultReport:
    counts: dict[str, Counter[str]] = {k: Counter() for k in FAULT_TYPES}
    controls: dict[str, Counter[str]] = {k: Counter() for k in CONTROL_TYPES}
    missed: list[dict[str, Any]] = []
    alarms: list[dict[str, Any]] = []
    for o in outcomes:
        (counts if o.kind in counts else controls)[o.kind][o.outcome] += 1
        row = {"question": o.question_id, "kind": o.kind, "sentence": o.injected.after if o.injected else None,
               "outcome": o.outcome, "detail": o.detail}
        if o.kind in FAULT_TYPES and o.outcome == "passed":
            missed.append(row)
        if o.kind in CONTROL_TYPES and o.outcome in ("removed", "flagged"):
            alarms.append(row)
    detection: dict[str, float | None] = {}
    for k, c in counts.items():
        tried = c["removed"] + c["flagged"] + c["passed"]
        detection[k] = round((c["removed"] + c["flagged"]) / tried, 4) if tried else None
    ctl = sum(c["removed"] + c["flagged"] + c["passed"] for c in controls.values())
    fa = sum(c["removed"] + c["flagged"] for c in controls.values())
    return FaultReport(n=n, seed=seed, detection=detection, counts={k: dict(v) for k, v in counts.items()},
                       false_alarm_rate=round(fa / ctl, 4) if ctl else None,
                       controls={k: dict(v) for k, v in controls.items()}, base_answers=base,
                       missed=missed, false_alarms=alarms)
