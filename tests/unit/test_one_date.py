"""The one date validator and the one "today" (``graph_schema.dates``), and the places that use them."""

from __future__ import annotations

from datetime import date

import pytest

from graph_schema.dates import check_day, day_or_today, today
from graph_schema.errors import InvalidDateError


@pytest.mark.parametrize("value", ["2024-07-01", "2000-02-29", "1860-10-06"])
def test_a_real_iso_day_is_returned_as_given(value: str) -> None:
    assert check_day(value) == value


@pytest.mark.parametrize("value", [
    "2024-02-30",  # no such day
    "2023-02-29",  # not a leap year
    "07-01-2024",  # 7 January or 1 July: the law in force differs
    "20240701",  # fromisoformat reads it, but dates are compared as ISO strings downstream
    "2024-7-1",
    " 2024-07-01",
    "",
    None,
    20240701,
])  # fmt: skip
def test_anything_else_is_refused_naming_the_field(value: object) -> None:
    with pytest.raises(InvalidDateError, match=r"^offence_on must be a real date as YYYY-MM-DD, not "):
        check_day(value, "offence_on")


def test_refusal_is_a_value_error_for_pydantic_and_old_callers() -> None:
    with pytest.raises(ValueError):
        check_day("2024-13-01")


def test_today_is_the_default() -> None:
    assert today() == date.today().isoformat()
    assert day_or_today(None) == day_or_today("") == today()
    assert day_or_today("2023-05-01") == "2023-05-01"
    with pytest.raises(InvalidDateError, match="as_of"):
        day_or_today("01-05-2023")


def test_the_api_and_the_app_use_the_same_validator() -> None:
    from pydantic import ValidationError

    from legal_rag.api.schemas import AskRequest
    from legal_rag.app import check_day as app_check_day

    assert app_check_day is check_day
    with pytest.raises(ValidationError, match="must be a real date as YYYY-MM-DD, not '2024-02-30'"):
        AskRequest(question="murder", as_of="2024-02-30")
