"""The question as retrieval reads it: the date words its reading attached to events are left out (they decide which
law governs, never which provision), and nothing else is."""

from __future__ import annotations

import pytest

from legal_rag.workflow.facts import read_facts
from legal_rag.workflow.steps import without_dates


def _query(question: str) -> str:
    facts = read_facts(question, "2026-11-29", comparison=False, checks_for=lambda offence_on, proceedings_on: [])
    return without_dates(question, facts)


@pytest.mark.parametrize(("question", "left"), [
    ("Three years before the new criminal laws came in, our accountant quietly took cash from the office safe. "
     "What was the offence then?",
     ", our accountant quietly took cash from the office safe. What was the offence then?"),
    ("A few months before the new laws came into force my tenant forged my signature. What offence?",
     "my tenant forged my signature. What offence?"),
    ("Back in 2021 my scooter was stolen from the station parking.",
     "Back in my scooter was stolen from the station parking."),
    ("My FIR from 2023 was closed in April 2024 and nobody told me.", "My FIR was closed in and nobody told me."),
    ("He hit me 2 years ago and again last week, what can I do?", "He hit me and again , what can I do?"),
])  # fmt: skip
def test_date_words_are_left_out(question: str, left: str) -> None:
    assert _query(question) == left


@pytest.mark.parametrize("question", [
    "What is the time limit to file a cheque bounce complaint, is it within 30 days of the notice?",
    "Did the Hindu Succession Act 1956 give daughters equal shares after the amendment?",
    "What is the punishment for theft under the BNS?",
    "Is two years the maximum punishment for criminal intimidation?",
])  # fmt: skip
def test_a_question_with_no_dated_event_is_read_as_written(question: str) -> None:
    assert _query(question) == question


def test_the_count_before_a_date_goes_only_with_a_bound() -> None:
    # "two years" counts back from "before ..."; "within two years" in an ask is no date and stays
    q = "Two years before the new laws came in he cheated me. Can I still file within two years?"
    assert _query(q) == "he cheated me. Can I still file within two years?"
