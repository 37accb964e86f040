"""Status on a date from stored intervals (half-open: [from, to))."""

from __future__ import annotations

import pytest

from graph_schema.model import SectionRecord, SectionStatus, StatusOnDate
from graph_schema.temporal import status_on
from ingestion.dates import parse_date


def rec(status: SectionStatus, start: str | None, end: str | None) -> SectionRecord:
    return SectionRecord("X", "X Act", "1", None, None, False, status, start, end, None, {}, (), ())


@pytest.mark.parametrize(
    ("record", "day", "expected"),
    [
        # IPC 302: 1862-01-01 .. 2024-07-01 (repealed by BNS s.358)
        (rec(SectionStatus.REPEALED, "1862-01-01", "2024-07-01"), "2023-05-01", StatusOnDate.IN_FORCE),
        (rec(SectionStatus.REPEALED, "1862-01-01", "2024-07-01"), "2024-06-30", StatusOnDate.IN_FORCE),
        (rec(SectionStatus.REPEALED, "1862-01-01", "2024-07-01"), "2024-07-01", StatusOnDate.REPEALED),
        (rec(SectionStatus.REPEALED, "1862-01-01", "2024-07-01"), "2025-01-01", StatusOnDate.REPEALED),
        (rec(SectionStatus.REPEALED, "1862-01-01", "2024-07-01"), "1850-01-01", StatusOnDate.NOT_YET_IN_FORCE),
        # BNS 103 from 2024-07-01
        (rec(SectionStatus.IN_FORCE, "2024-07-01", None), "2024-06-30", StatusOnDate.NOT_YET_IN_FORCE),
        (rec(SectionStatus.IN_FORCE, "2024-07-01", None), "2024-07-01", StatusOnDate.IN_FORCE),
        # HMA s.6 omitted w.e.f. 1-10-1978
        (rec(SectionStatus.OMITTED, "1955-05-18", "1978-10-01"), "1970-01-01", StatusOnDate.IN_FORCE),
        (rec(SectionStatus.OMITTED, "1955-05-18", "1978-10-01"), "1990-01-01", StatusOnDate.OMITTED),
        # omitted with no known date: never claimed in force
        (rec(SectionStatus.OMITTED, "1955-05-18", None), "1960-01-01", StatusOnDate.OMITTED),
        (rec(SectionStatus.IN_FORCE, None, None), "1900-01-01", StatusOnDate.IN_FORCE),
    ],
)
def test_status_on(record: SectionRecord, day: str, expected: StatusOnDate) -> None:
    assert status_on(record, day) is expected


def test_a_section_struck_down_is_omitted_from_the_judgment_not_repealed() -> None:
    # IPC 497: the Code stood until 2024-07-01, the section until Joseph Shine (2018-09-27)
    struck = ({"kind": "struck_down", "effective": "2018-09-27", "amending_act": "Joseph Shine"},)
    ipc_497 = SectionRecord("IPC", "Indian Penal Code", "497", "Adultery", None, True, SectionStatus.REPEALED,
                            "1862-01-01", "2018-09-27", None, {}, (), (), amendments=struck)
    assert status_on(ipc_497, "2018-09-26") is StatusOnDate.IN_FORCE
    assert status_on(ipc_497, "2019-06-01") is StatusOnDate.OMITTED
    assert status_on(rec(SectionStatus.REPEALED, "1862-01-01", "2018-09-27"), "2019-06-01") is StatusOnDate.REPEALED


@pytest.mark.parametrize(
    ("raw", "iso"),
    [
        ("1-10-1978", "1978-10-01"),  # HMA s.6 footnote
        ("01-07-2024", "2024-07-01"),  # BNSS enforcementDate in the catalogue
        ("30--03-2007", "2007-03-30"),  # Andhra Pradesh Legislative Council Act catalogue row
        ("2022-01-25", "2022-01-25"),
        ("22nd August, 1996", "1996-08-22"),
        ("undefined", None),
        (None, None),
        ("31-02-2020", None),
        ("soon", None),
    ],
)
def test_parse_date(raw: str | None, iso: str | None) -> None:
    assert parse_date(raw) == iso
