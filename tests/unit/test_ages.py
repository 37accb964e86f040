"""Ages told in a question, and the statutory status they give (senior citizen, child)."""

from __future__ import annotations

import pytest

from legal_rag.retrieval.ages import CHILD, SENIOR, age_statuses, ages
from legal_rag.retrieval.expand import TermsOfArt


@pytest.mark.parametrize(("text", "told"), [
    ("My grandmother is 82 years old and lives alone", [82]),
    ("a 17-year-old boy was caught driving", [17]),
    ("my 9 yr old son", [9]),
    ("He is aged about 66 and a widower", [66]),
    ("I'm 61, retired, and my daughter-in-law", [61]),
    ("I am 68 and my son does not visit", [68]),
    ("My mother, 75, was pushed out", [75]),
    ("a complainant 70 years of age", [70]),
    ("the victim, 14, told her teacher", [14]),
    ("the accused was a 15yo", [15]),
    # Not ages: durations, amounts, counts.
    ("We married 12 years ago and have lived apart for 2 years", []),
    ("I am 30 days late in filing the appeal", []),
    ("He owes me Rs 70,000 for 3 months", []),
    ("Section 60 of the Act", []),
])  # fmt: skip
def test_ages_are_read_in_the_forms_people_write(text: str, told: list[int]) -> None:
    assert ages(text) == told


def test_statuses_follow_the_statutory_thresholds() -> None:
    # MWPSCA s.2(h): sixty years or above; BNS s.2(3): below eighteen years.
    assert age_statuses("I am 60 and my son refuses to maintain me") == [SENIOR]
    assert age_statuses("I am 59 and my son refuses to maintain me") == []
    assert age_statuses("a 17-year-old girl") == [CHILD]
    assert age_statuses("an 18-year-old girl") == []
    assert age_statuses("My father, 71, and my 6 year old nephew") == [SENIOR, CHILD]


def test_the_expansion_carries_the_status_once() -> None:
    terms = TermsOfArt(())
    expanded = terms.expand("My uncle is 77 years old; his son took his pension card. What can he do?")
    assert expanded.count("senior citizen") == 1
    assert terms.expand("What is the punishment for theft?") == "What is the punishment for theft?"
