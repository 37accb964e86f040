"""How much more time a matter will in fact take and an outcome asked as a certainty are opinions no statute gives
(``AskKind.OPINION``, outside the statutes: such an answer is never High); how long the law lets a step last, and an
outcome asked plainly, are not. None of these is a question of an evaluation set."""

from __future__ import annotations

import pytest

from legal_rag.workflow.facts import OUTSIDE_STATUTES, AskKind, ask_kinds


@pytest.mark.parametrize(("ask", "opinion"), [
    ("How many more months will it take?", True),
    ("how many more hearings will the case take before judgment", True),
    ("How much longer will my divorce case go on?", True),
    ("how much more time will the court take to decide?", True),
    ("Will I definitely get custody of both my kids?", True),
    ("Will he surely be convicted?", True),
    ("Will we certainly win the property case?", True),
    ("Is it guaranteed that the court will grant maintenance?", True),
    # how long the law lets a step last, or an outcome asked plainly: the statutes say
    ("How much longer can the police keep him in custody?", False),
    ("How many more days can the police keep him?", False),
    ("Will I get custody of my kids?", False),
    ("Will he be convicted under 304B?", False),
    ("How many days does the accused get to reply?", False),
    # what the law makes certain, or the time it gives (review)
    ("Will he necessarily be tried by a Sessions Court?", False),
    ("Will my son necessarily be tried as an adult if he is 17?", False),
    ("Will he definitely be released on default bail if no chargesheet is filed in 90 days?", False),
    ("How much more time does the judge have to pronounce judgment after arguments ended?", False),
])  # fmt: skip
def test_time_a_matter_will_take_and_a_certain_outcome_are_opinions(ask: str, opinion: bool) -> None:
    kinds = ask_kinds(ask)
    assert (AskKind.OPINION in kinds) is opinion, (ask, kinds)


def test_an_opinion_is_outside_the_statutes() -> None:
    assert AskKind.OPINION in OUTSIDE_STATUTES
