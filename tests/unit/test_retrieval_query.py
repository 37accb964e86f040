"""The question as retrieval reads it: the date words its reading attached to events are left out (they decide which
law governs, never which provision), and nothing else is."""

from __future__ import annotations

import pytest

from legal_rag.workflow.facts import read_facts
from legal_rag.workflow.steps import without_dates


def _query(question: str) -> str:
    facts = read_facts(question, "2026-11-29", comparison=False, checks_for=lambda offence_on, proceedings_on: [])
    return without_dates(question, facts)


@pytest.mark.parametrize(("question", "gone", "kept"), [
    ("Three years before the new criminal laws came in, our accountant quietly took cash from the office safe. "
     "What was the offence then?", ("Three years", "before", "criminal laws", "came in"),
     ("accountant quietly took cash from the office safe", "What was the offence then?")),
    ("A few months before the new laws came into force my tenant forged my signature. What offence?",
     ("few months", "new laws"), ("my tenant forged my signature",)),
    ("Back in 2021 my scooter was stolen from the station parking.", ("2021",), ("scooter was stolen",)),
    ("My FIR from 2023 was closed in April 2024 and nobody told me.", ("2023", "April"),
     ("My FIR", "was closed", "nobody told me")),
    ("He hit me 2 years ago and again last week, what can I do?", ("years ago", "last week"),
     ("He hit me", "what can I do?")),
])  # fmt: skip
def test_date_words_are_left_out(question: str, gone: tuple[str, ...], kept: tuple[str, ...]) -> None:
    query = _query(question)
    assert not [w for w in gone if w in query] and all(w in query for w in kept), query


@pytest.mark.parametrize(("question", "kept"), [
    # a count of time that is a fact of the story, not the head of a clause that only places a date (review)
    ("He was sentenced to seven years before the new laws came in. Can he appeal now?", "sentenced to seven years"),
    ("My son was in jail for 90 days before 1 July 2024 without a chargesheet. Can he get default bail?",
     "in jail for 90 days"),
    ("My sister was married for five years before the new laws came in when she died of burns.",
     "married for five years"),
    # a law's own date is no event's (review): "2005" finds the amended section
    ("Our family property was partitioned after the 2005 amendment came in. Do daughters get a share?",
     "after the 2005 amendment"),
    # a month's name that dates nothing stays where it is written (review)
    ("May I sue him? He cheated me in May 2023.", "May I sue him?"),
])  # fmt: skip
def test_what_is_no_dated_event_s_date_stays(question: str, kept: str) -> None:
    assert kept in _query(question), _query(question)


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
