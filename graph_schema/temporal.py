"""A provision's status on a date, from its stored interval and status (pure)."""

from __future__ import annotations

from graph_schema.model import AmendmentKind, SectionRecord, SectionStatus, StatusOnDate


def status_on(record: SectionRecord, as_of: str) -> StatusOnDate:
    """Status of ``record`` on ``as_of`` (ISO date). Intervals are half-open ``[from, to)``.

    * before ``in_force_from``: NOT_YET_IN_FORCE (BNS 103 on 2024-06-30);
    * on or after ``in_force_to``: REPEALED, or OMITTED when the section was omitted
      (IPC 302 on 2024-07-01 is repealed; HMA s.6 on 1979-01-01 is omitted), or OMITTED when a court struck it
      down by then (IPC 497 on 2019-01-01);
    * a section the statute book marks omitted or repealed without a known date is reported as
      such on every date, because we cannot show it was ever in force in the window asked about.
    """
    if record.in_force_from and as_of < record.in_force_from:
        return StatusOnDate.NOT_YET_IN_FORCE
    ended = _ended(record.status)
    if record.in_force_to:
        if as_of >= record.in_force_to:
            # struck down by a court (IPC 497 from 2018-09-27): no longer law, though its Code was repealed later
            return StatusOnDate.OMITTED if struck_down(record, as_of) is not None else (ended or StatusOnDate.REPEALED)
        return StatusOnDate.IN_FORCE
    return ended or StatusOnDate.IN_FORCE


def _ended(status: SectionStatus) -> StatusOnDate | None:
    if status is SectionStatus.OMITTED:
        return StatusOnDate.OMITTED
    if status is SectionStatus.REPEALED:
        return StatusOnDate.REPEALED
    return None


def struck_down(record: SectionRecord, as_of: str) -> dict[str, object] | None:
    """The judgment that struck ``record`` down on or before ``as_of`` (its struck-down amendment), or None."""
    return next((a for a in record.amendments if a.get("kind") == AmendmentKind.STRUCK_DOWN.value
                 and str(a.get("effective") or "9999") <= as_of), None)  # fmt: skip
