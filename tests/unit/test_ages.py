"""Ages told in a question, and the statutory status they give (a senior citizen, MWPSCA s.2(h))."""

from __future__ import annotations

import pytest

from legal_rag.retrieval.ages import SENIOR, age_statuses, ages
from legal_rag.retrieval.expand import TermsOfArt


@pytest.mark.parametrize(("text", "told"), [
    ("My grandmother is 82 and lives alone", [82]),
    ("a 67-year-old widow was cheated", [67]),
    ("He is aged about 66 and a widower", [66]),
    ("I'm 61, retired, and my daughter-in-law", [61]),
    ("I\u2019m 61, retired", [61]),
    ("I am 68 and my son does not visit", [68]),
    ("My mother, 75, was pushed out", [75]),
    ("a complainant 70 years of age", [70]),
    # Not people's ages: things, durations, amounts, counts.
    ("a 99 year old lease of the temple land", []),
    ("my 3 year old car was sold to me as new", []),
    ("a 10 year old case is still pending", []),
    ("We married 12 years ago and have lived apart for 2 years", []),
    ("I am 30 days late in filing the appeal", []),
    ("He owes me Rs 70,000 for 3 months", []),
    ("Section 60 of the Act", []),
])  # fmt: skip
def test_ages_are_read_in_the_forms_people_write(text: str, told: list[int]) -> None:
    assert ages(text) == told


def test_the_status_follows_the_statutory_threshold_and_the_question_about_care() -> None:
    # MWPSCA s.2(h): sixty years or above; only when the question turns on maintenance, care or property.
    assert age_statuses("I am 60 and my son refuses to maintain me") == [SENIOR]
    assert age_statuses("I am 59 and my son refuses to maintain me") == []
    assert age_statuses("My father, 71, gifted his flat to my brother, who now ignores him") == [SENIOR]
    assert age_statuses("My father, 70, was injured by a rash driver on the highway") == []
    assert age_statuses("a 16-year-old girl was taken from her parents' house") == []


def test_the_expansion_carries_the_status_once() -> None:
    terms = TermsOfArt(())
    expanded = terms.expand("My uncle is 77 and his son took his pension card and property papers. What can he do?")
    assert expanded.count("senior citizen") == 1
    assert terms.expand("What is the punishment for theft?") == "What is the punishment for theft?"
