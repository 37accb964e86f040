"""A relationship on a promise to marry that was false is the offence a story tells (BNS 69; under the IPC, s.376 or
s.417), not a marriage: its year dates the offence, so the code of that day governs. None of these is a question of an
evaluation set."""

from __future__ import annotations

import pytest

from legal_rag.workflow.facts import read_facts


@pytest.mark.parametrize(("question", "day"), [
    ("A woman alleges my client had a physical relationship with her on a false promise of marriage in 2022. Now "
     "the police want to add the new BNS section. Can they?", "2022-12-31"),
    ("In March 2023 he slept with me on the pretext of marriage and then refused to marry. What offence is it?",
     "2023-03-31"),
    ("He made a fake promise to marry me back in 2021 and took 3 lakh from me. What can I do?", "2021-12-31"),
])  # fmt: skip
def test_a_false_promise_of_marriage_dates_the_offence(question: str, day: str) -> None:
    facts = read_facts(question, "2026-11-29", comparison=False, checks_for=lambda *_: [])
    assert facts.offence_on == day, (question, facts.offence_on)


def test_a_marriage_itself_is_no_offence() -> None:
    facts = read_facts("We got married in 2019. Can I file for divorce on the ground of cruelty?", "2026-11-29",
                       comparison=False, checks_for=lambda *_: [])
    assert facts.offence_on is None
