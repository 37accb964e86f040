"""Sums of money in questions and the bounds provisions set on them (``workflow.amounts``). The bounds are the
Consumer Protection Act, 2019's own words (ss. 34(1), 47(1)(a)(i), 58(1)(a)(i)); the questions are written for
these tests, none is in an evaluation set."""

from __future__ import annotations

import pytest

from legal_rag.workflow.amounts import Bounds, admits, bounds_in, sums_in

DISTRICT = ("the District Commission shall have jurisdiction to entertain complaints where the value of the goods or "
            "services paid as consideration does not exceed one crore rupees:")
STATE = ("complaints where the value of the goods or services paid as consideration, exceeds rupees one crore, but "
         "does not exceed rupees ten crore:")
NATIONAL = "complaints where the value of the goods or services paid as consideration exceeds rupees ten crore:"


@pytest.mark.parametrize(("text", "sums"), [
    ("We paid Rs 15 crore for the villa.", [150_000_000]),
    ("I bought a fridge for Rs. 42,000 last month.", [42_000]),
    ("He took ₹2.5 lakh from me", [250_000]),
    ("a loan of 10 lakh and INR 5000 as interest", [5_000, 1_000_000]),
    ("The case is 3 years old and section 138 applies.", []),
])  # fmt: skip
def test_sums_of_money_are_read_in_rupees(text: str, sums: list[int]) -> None:
    assert sorted(sums_in(text)) == sorted(sums)


def test_the_bounds_a_provision_sets_on_a_sum() -> None:
    assert bounds_in(DISTRICT) == Bounds(upto=10_000_000)
    assert bounds_in(STATE) == Bounds(above=10_000_000, upto=100_000_000)
    assert bounds_in(NATIONAL) == Bounds(above=100_000_000)
    # a bound on time or on a term is no bound on money
    assert bounds_in("imprisonment for a term not exceeding three years") is None
    assert bounds_in("within a period not exceeding thirty days") is None


@pytest.mark.parametrize(("question", "forum"), [
    ("The builder took Rs 15 crore and never built the villa. Where do I complain?", NATIONAL),
    ("We paid 3 crore for the office floor. Which consumer commission hears it?", STATE),
    ("My Rs 42,000 washing machine broke. Where can I complain?", DISTRICT),
    ("A flat for Rs 1 crore, never delivered: which commission?", DISTRICT),  # "does not exceed": one crore is in
])  # fmt: skip
def test_only_the_forum_whose_bounds_admit_the_sum_told_admits_it(question: str, forum: str) -> None:
    sums = sums_in(question)
    assert [admits(t, sums) for t in (DISTRICT, STATE, NATIONAL)] == [t == forum for t in (DISTRICT, STATE, NATIONAL)]


def test_no_sum_or_several_decide_nothing() -> None:
    assert admits(DISTRICT, sums_in("Where do I file a consumer complaint?")) is None
    assert admits(DISTRICT, sums_in("I paid Rs 50,000 and then Rs 3 crore more.")) is None
    assert admits("Whoever commits theft shall be punished", sums_in("Rs 5 lakh was stolen")) is None


def test_a_bound_on_a_fine_or_on_anything_but_the_value_governed_is_none() -> None:
    # found by review: the NDPS Act's and the IT Act's fines, "shall not exceed" read as a floor, a floor and a ceiling
    # of different things (the IT Act's adjudicating officer, s.46)
    assert bounds_in("shall be punishable with rigorous imprisonment ... and with fine which shall not be less than "
                     "one lakh rupees but which may extend to two lakh rupees") is None
    assert bounds_in("shall be liable to fine exceeding two lakh rupees") is None
    assert bounds_in("where the claim for injury or damage does not exceed rupees five crore") == Bounds(
        upto=50_000_000)
    assert bounds_in("where the value of the claim shall not exceed ten thousand rupees") == Bounds(upto=10_000)
    assert bounds_in("the value claimed exceeds five crore rupees; where the value claimed does not exceed five "
                     "crore rupees") is None


@pytest.mark.parametrize(("text", "sums"), [
    # found by review
    ("fifty lakh rupees", [5_000_000]),
    ("we paid 12,00,000 rupees", [1_200_000]),
    ("somewhere between Rs 3-4 lakh", []),  # a range is no one sum
    ("I paid Rs " + "9" * 400, []),  # no overflow
])  # fmt: skip
def test_sums_written_out_and_figures_that_are_none(text: str, sums: list[int]) -> None:
    assert sums_in(text) == sums


def test_the_same_sum_told_twice_is_two_sums() -> None:
    assert admits(NATIONAL, sums_in("We paid Rs 15 crore and then 15 crore more.")) is None
