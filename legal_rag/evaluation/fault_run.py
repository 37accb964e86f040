"""Running the fault-injection harness over the workflow (``legal-rag eval faults``)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from legal_rag.evaluation.faults import (
    CONTROL_TYPES,
    FAULT_TYPES,
    QUOTED,
    FaultInjectingGenerator,
    FaultInjector,
    FaultReport,
    GraphFacts,
    Outcome,
    graph_facts,
    judge,
    summarise,
)
from legal_rag.settings import PROJECT_ROOT

DEV_QUESTIONS = PROJECT_ROOT / "tests" / "data" / "ask_questions.jsonl"
CODES = ("BNS", "BNSS", "BSA", "IPC", "CRPC", "IEA")

_PHRASINGS = (
    "What does section {n} of the {title} provide?",
    "Explain section {n} of the {title}.",
    "What is laid down in section {n} of the {title}?",
    "What does the {title} say about {heading}?",
    "What is the law on {heading} under the {title}?",
)


@dataclass(frozen=True, slots=True)
class BaseQuestion:
    id: str
    question: str
    as_of: str


def load_questions(path: Path) -> list[BaseQuestion]:
    """JSON Lines ``{"id", "question", "as_of"}``.

    Raises:
        ValueError: a line that is not such an object (named by file and line).
    """
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            out.append(BaseQuestion(str(row["id"]), str(row["question"]), str(row["as_of"])))
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}:{n}: expected {{\"id\", \"question\", \"as_of\"}}: {exc}") from exc
    return out


def graph_questions(facts: GraphFacts, rng: random.Random, k: int) -> list[BaseQuestion]:
    """``k`` questions about sections with text: the criminal codes on both sides of 2024-07-01 and
    other Acts, several phrasings (by number and by subject), dated where each code applies."""
    pool: list[tuple[str, str]] = []
    for code in sorted(facts.texts):
        nums = sorted(n for n in facts.texts[code] if re.match(r"^\d+[A-Z]?$", n))
        pool += [(code, n) for n in nums]
    rng.shuffle(pool)
    crim = [p for p in pool if p[0] in CODES]
    other = [p for p in pool if p[0] not in CODES]
    picks = crim[: (2 * k) // 3] + other[: k - (2 * k) // 3]
    out = []
    for i, (code, n) in enumerate(picks):
        title = facts.titles.get(code, code)
        heading = _heading(facts.texts[code][n])
        phr = rng.choice(_PHRASINGS if heading else _PHRASINGS[:3])
        if code in ("IPC", "CRPC", "IEA"):
            as_of = rng.choice(["2019-05-10", "2022-11-02", "2024-03-15"])
        elif code in ("BNS", "BNSS", "BSA"):
            as_of = rng.choice(["2024-08-20", "2025-03-01", "2026-01-12"])
        else:
            as_of = rng.choice(["2021-06-01", "2025-06-01"])
        out.append(BaseQuestion(f"g{i:03d}-{code}-{n}", phr.format(n=n, title=title, heading=heading or ""), as_of))
    return out


def _heading(text: str) -> str | None:
    """Not the graph's title (often absent for sub-unit texts): the first words of the text, when they read
    as a subject ("Whoever commits theft" -> None; headings are taken from the text's own defined term)."""
    m = re.search(r'"([a-z][a-z ]{3,40})"', text)
    return m.group(1) if m else None


Progress = Callable[[int, int], None]


def _verified_answer(service: Any, gen: FaultInjectingGenerator, q: BaseQuestion, tick: Callable[[], None]) -> bool:
    """Did the workflow answer ``q`` with a quoted provision, every claim kept and every citation verified?"""
    gen.pending, gen.injected = None, None
    res = service.ask(q.question, q.as_of)
    tick()
    quoted = [c for c in res.claims if QUOTED.match(c.text)]
    clean = all(c.kept for c in res.claims) and all(
        c.status.value == "verified" for c in res.citations if c.where == "answer")
    return bool(quoted) and clean


def run_faults(store: Any, service: Any, n: int = 500, seed: int = 7,
               questions: Sequence[BaseQuestion] | None = None, progress: Progress | None = None) -> FaultReport:
    """Inject ``n`` faults (spread evenly over the fault types) into verified answers, plus controls.

    Base answers: the given questions, else the development questions and questions drawn from the
    graph. ``service`` is the workflow (``AskService``) whose generator is wrapped; ``store`` its graph.
    An answer is a base only if the workflow answered it with at least one quoted provision,
    all its claims kept, and no citation flagged (it is a verified answer to start from).
    """
    if n < len(FAULT_TYPES):
        raise ValueError(f"n must be at least {len(FAULT_TYPES)} (one fault of each type), got {n}")
    rng = random.Random(seed)
    facts = graph_facts(store)
    from legal_rag.workflow.service import AskService

    gen = FaultInjectingGenerator(service.context.generator, FaultInjector(facts))
    faulty = AskService(context=replace(service.context, generator=gen), graph=service.graph)
    if questions is None:
        questions = load_questions(DEV_QUESTIONS) + graph_questions(facts, rng, max(40, n // 6))
    per_kind = -(-n // len(FAULT_TYPES))
    total = len(questions) + n + 2 * len(questions)
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    bases = [q for q in questions if _verified_answer(faulty, gen, q, tick)]
    if not bases:
        raise ValueError("no verified answer to inject faults into: is the graph loaded and indexed?")
    outcomes: list[Outcome] = []

    def one(q: BaseQuestion, kind: str, sub_seed: int) -> Outcome:
        gen.pending, gen.injected, gen.error = (kind, random.Random(sub_seed)), None, None
        res = faulty.ask(q.question, q.as_of)
        tick()
        if gen.injected is None:
            return Outcome(q.id, kind, None, "skipped", gen.error or "no draft")
        outcome, detail = judge(res, gen.injected)
        return Outcome(q.id, kind, gen.injected, outcome, detail)

    for kind in FAULT_TYPES:
        order = list(bases)
        rng.shuffle(order)
        made = tried = 0
        while made < per_kind and tried < 4 * per_kind:
            q = order[tried % len(order)]
            o = one(q, kind, rng.randrange(2**31))
            tried += 1
            if o.outcome != "skipped":
                made += 1
                outcomes.append(o)
    for kind in CONTROL_TYPES:
        for q in bases:
            o = one(q, kind, rng.randrange(2**31))
            if o.outcome != "skipped":
                outcomes.append(o)
    if progress is not None:
        progress(total, total)
    return summarise(outcomes, n, seed, len(bases))
