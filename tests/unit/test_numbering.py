"""Section numbers and references as the sources and lawyers write them."""

from __future__ import annotations

import pytest

from graph_schema.errors import InvalidSectionNumberError
from graph_schema.model import CitationKey
from graph_schema.numbering import canonical_section, parse_reference, roman_value


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("498A", "498A"),
        ("498-a", "498A"),
        (302, "302"),
        ("171-I", "171I"),  # IPC 171I in the correspondence table (ipc_section "171-I")
        ("265-I", "265I"),  # CrPC 265I in the CrPC/BNSS table
        ("73 A", "73A"),  # IEA 73A in the BSA/IEA table ("73 A")
        ("28JA.", "28JA"),  # Airports Authority of India Act index row
        ("68-O", "68O"),  # NDPS Act s.68-O
        ("8-A", "8A"),  # Punjab Laws Act index row
        (" 13B ", "13B"),
    ],
)
def test_canonical_section(raw: object, expected: str) -> None:
    assert canonical_section(raw) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize("raw", ["VII", "", "abc", "Explanation", "12(1)"])
def test_not_a_section_number(raw: str) -> None:
    with pytest.raises(InvalidSectionNumberError):
        canonical_section(raw)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("103(1)", CitationKey("BNS", "103", ("1",))),
        ("103 (1)", CitationKey("BNS", "103", ("1",))),
        ("13(1)(ia)", CitationKey("BNS", "13", ("1", "ia"))),
        ("2(1)(m )", CitationKey("BNS", "2", ("1", "m"))),  # BNSS table row "2(1)(m )"
        ("Section 498A", CitationKey("BNS", "498A")),
        ("s. 302", CitationKey("BNS", "302")),
        ("437 (2A)", CitationKey("BNS", "437", ("2A",))),
    ],
)
def test_parse_reference(raw: str, expected: CitationKey) -> None:
    assert parse_reference(raw, "BNS") == expected


def test_label_round_trips() -> None:
    assert parse_reference("13(1)(ia)", "HMA").label == "13(1)(ia)"
    assert str(parse_reference("103(1)", "BNS")) == "BNS 103(1)"


@pytest.mark.parametrize("raw", ["", "(1)", "103((1)", "Section", "302/34", "5 para", "3 Interpretation"])
def test_bad_reference(raw: str) -> None:
    with pytest.raises(InvalidSectionNumberError):
        parse_reference(raw)


@pytest.mark.parametrize("raw", ["302.5", "12.3", "30 2", "5 para"])
def test_internal_dots_and_spaces_are_not_dropped(raw: str) -> None:
    # "302.5" must not become section "3025", nor "30 2" section "302".
    with pytest.raises(InvalidSectionNumberError):
        canonical_section(raw)


@pytest.mark.parametrize(("numeral", "value"), [("i", 1), ("iv", 4), ("ix", 9), ("xiv", 14), ("XL", 40),
                                                ("xlix", 49), ("C", 100)])  # fmt: skip
def test_roman_value(numeral: str, value: int) -> None:
    assert roman_value(numeral) == value


def test_roman_value_rejects_a_letter_that_is_no_numeral() -> None:
    with pytest.raises(KeyError):
        roman_value("ia")
