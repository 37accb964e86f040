"""Correctness gates: what an example must be, beyond passing the verifier, to teach the right law.

The verifier checks that quotations are exact and citations in force; it cannot tell that a quotation answers
the question asked, or answers it whole. Each gate below names one way a verified answer still taught the wrong
thing, found by reading built rows (issue 27), and the builder drops an example that fails any of them:

* ``whole_section``: a question on a section's subject (its heading, a fact pattern, its words) is answered
  from the whole section or its principal sub-section, not from whichever sub-section came up;
* ``lead_in``: the chosen answer quotes each unit it rests on whole, from its lead-in (never a bare "(a) ...");
* ``in_force_text``: the as-of date falls after the last amendment of every quoted unit (the graph holds today's
  words; an earlier date would quote words not yet enacted, as HAMA s.8 in its 2010 wording for a 2005 row);
* ``insufficient_context``: an "insufficient" context holds no chunk of the asked section, its replacement
  family or a section of the same title;
* ``template_fits``: a punishment question (or fact pattern, or false premise about a sentence) is asked only
  of a unit that punishes.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from finetune.examples import Example, principal
from finetune.judge import Category
from finetune.prompt import nested, operative, punishment_clause
from finetune.questions import punishes
from finetune.statutes import StatuteView, label_of

_BARE_CLAUSE = re.compile(r'"\((?:[a-z]{1,4}|[ivx]+)\)\s')
_PUNISHING_POOLS = frozenset({"punishment", "fact", "premise"})

Gate = Callable[[Example, StatuteView], str | None]


def whole_section(ex: Example, view: StatuteView) -> str | None:
    t = ex.target
    if t is None or ex.category is Category.OUTDATED or label_of(t) in ex.question:
        return None  # the outdated question names the replaced section, whose successor unit the edge gives
    return None if principal(view, t) else f"asks about {t.act} {t.section} and rests on its sub-section {t.sub}"


def lead_in(ex: Example, view: StatuteView) -> str | None:
    if _BARE_CLAUSE.search(ex.chosen):
        return "quotes a clause without its lead-in"
    for unit in ex.answered:
        if unit.sub and ("/" in unit.sub or not unit.sub[:1].isdigit()):
            return f"rests on the clause {unit.id}, whose lead-in is another unit"
        if f'"{nested(operative(unit.text))}"' not in ex.chosen:
            return f"does not quote {unit.id} whole from its lead-in"
    return None


def in_force_text(ex: Example, view: StatuteView) -> str | None:
    for unit in ex.answered:
        window = view.text_window(unit)
        if window is None or not window[0] <= ex.as_of < window[1]:
            return f"{unit.id} was not in force in its present words on {ex.as_of}"
    return None


def insufficient_context(ex: Example, view: StatuteView) -> str | None:
    t = ex.target
    if ex.category is not Category.INSUFFICIENT or t is None:
        return None
    family = view.chunk_family(t.id)
    title = _norm(t.title)
    for c in ex.context:
        if (c.act, c.section) == (t.act, t.section) or view.chunk_family(c.id) == family:
            return f"the context holds {c.id}, of the asked section's family"
        if title and _norm(c.title) == title:
            return f"the context holds {c.id}, titled like the asked section"
    return None


def template_fits(ex: Example, view: StatuteView) -> str | None:
    t = ex.target
    pool = ex.template.split("+")[-1].split(":")[0]  # a two-ask question's last ask is the target's
    if t is None or pool not in _PUNISHING_POOLS:
        return None
    if punishes(t.title, t.text) and punishment_clause(operative(t.text)):
        return None
    return f"a punishment question about {t.id}, which punishes nothing"


GATES: dict[str, Gate] = {"whole_section": whole_section, "lead_in": lead_in, "in_force_text": in_force_text,
                          "insufficient_context": insufficient_context, "template_fits": template_fits}


def failed_gate(ex: Example, view: StatuteView) -> tuple[str, str] | None:
    """(gate, why) of the first gate ``ex`` fails, or None when it passes them all."""
    for name, gate in GATES.items():
        why = gate(ex, view)
        if why is not None:
            return name, why
    return None


def _norm(title: str | None) -> str:
    return " ".join(re.sub(r"[^a-z ]", " ", (title or "").lower()).split())
