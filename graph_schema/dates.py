"""The one way a day is given to the project: ``YYYY-MM-DD``, checked here, "today" decided here.

Every face and service takes the date of the facts (``as_of``, ``offence_on``, ``since``) through
:func:`check_day` or :func:`day_or_today`. Only ISO form is accepted: "07-01-2024" could be 7 January or
1 July, and the law in force differs between them; "20240701", which ``date.fromisoformat`` also
reads, is refused because dates are compared as ISO strings downstream. Dates written in statute
sources ("22nd August, 1996") are parsed by ``ingestion.dates``; dates in a question by
``legal_rag.workflow.dates``.
"""

from __future__ import annotations

import re
from datetime import date

from graph_schema.errors import InvalidDateError

__all__ = ["check_day", "day_or_today", "today"]

_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def today() -> str:
    """Today's date as ``YYYY-MM-DD`` (the default date of the facts everywhere)."""
    return date.today().isoformat()


def check_day(value: object, field: str = "as_of") -> str:
    """``value`` if it is a real calendar day written ``YYYY-MM-DD``.

    Raises:
        InvalidDateError: anything else (a ``ValueError``), naming ``field`` and the value.
    """
    if isinstance(value, str) and _ISO_DAY.fullmatch(value):
        try:
            return date.fromisoformat(value).isoformat()
        except ValueError:
            pass
    raise InvalidDateError(f"{field} must be a real date as YYYY-MM-DD, not {value!r}")


def day_or_today(value: str | None, field: str = "as_of") -> str:
    """:func:`check_day`, or :func:`today` when ``value`` is None or empty."""
    return today() if value is None or value == "" else check_day(value, field)
