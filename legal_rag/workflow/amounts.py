"""Sums of money a question tells, and the bounds a provision sets on the sums it governs.

Which forum hears a consumer complaint turns on the value paid: the District Commission up to one crore rupees, the
State Commission above one crore up to ten, the National Commission above ten (Consumer Protection Act, 2019, ss.
34, 47 and 58). A question says "we paid Rs 15 crore"; the statute says "exceeds rupees ten crore". Reading both as
numbers lets the provision whose bounds admit the question's sum be chosen over its neighbours, which share every
other word. Only sums of money are read (rupees, lakh, crore), never periods ("not exceeding three years").
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

__all__ = ["Bounds", "admits", "bounds_in", "sums_in"]

_UNITS = {"crore": 10**7, "crores": 10**7, "cr": 10**7, "lakh": 10**5, "lakhs": 10**5, "lac": 10**5, "lacs": 10**5,
          "thousand": 10**3, "k": 10**3}
_NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "twenty-five": 25, "thirty": 30, "forty": 40,
    "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "one hundred": 100,
    "two hundred": 200, "five hundred": 500,
}  # fmt: skip
_NUMBER = r"\d[\d,]*(?:\.\d+)?"
_WORDED = "|".join(sorted((re.escape(w) for w in _NUMBER_WORDS), key=len, reverse=True))
_UNIT = r"crores?|cr|lakhs?|lacs?|thousand"
_SUM = re.compile(
    # "Rs 42,000", "Rs. 15 crore", "₹2.5 lakh", "INR 90000"; "15 crore", "10 lakh", "12,00,000 rupees", "fifty lakh
    # rupees" without the sign; not a range ("Rs 3-4 lakh")
    rf"(?:\b(?:rs|inr|rupees)\.?|₹)\s*({_NUMBER})(?![\d,.]*\s*[-–])\s*({_UNIT}|k)?\b"
    rf"|(?<![-–])\b({_NUMBER}|{_WORDED})\s*({_UNIT})\b(?!\s*[-–])|\b({_NUMBER})\s+rupees\b",
    re.IGNORECASE)
_AMOUNT = rf"(?:rupees\s+)?(?:({_NUMBER})|({_WORDED}))\s*({_UNIT})?(?:\s+rupees)?"
_GOVERNED = re.compile(r"\b(?:value|consideration|claim(?:ed)?|amount\s+of\s+(?:the\s+)?(?:claim|compensation))\b"
                       r"[^.;:]{0,160}", re.IGNORECASE)
"""The value a provision governs ("the value of the goods or services paid as consideration ..."), with what follows it
in its clause, where its bounds are."""
_BOUND = re.compile(
    # a ceiling ("does not exceed", "shall not exceed", "not exceeding", "up to") or a floor ("exceeds", "more than")
    rf"\b((?:does|do|shall|may|will|can|must)\s+not\s+exceed|cannot\s+exceed|not\s+to\s+exceed|not\s+exceeding|"
    rf"not\s+more\s+than|up\s*to|(?<!not\s)exceeds?|(?<!not\s)exceeding|(?<!not\s)more\s+than)\s+{_AMOUNT}",
    re.IGNORECASE)
_MAX_DIGITS = 15
"""Longer figures are no sum anyone paid (and would lose precision as floats)."""


def _value(number: str | None, worded: str | None, unit: str | None) -> int | None:
    if number is not None:
        digits = number.replace(",", "")
        if len(digits) > _MAX_DIGITS:
            return None
        try:
            n = float(digits)
        except ValueError:
            return None
    elif worded is not None:
        n = float(_NUMBER_WORDS[worded.lower()])
    else:
        return None
    return int(n * _UNITS.get((unit or "").lower(), 1))


def sums_in(text: str) -> list[int]:
    """The sums of money ``text`` tells, in rupees ("Rs 15 crore" -> 150000000)."""
    out = []
    for m in _SUM.finditer(text):
        if m.group(1):
            value = _value(m.group(1), None, m.group(2))
        elif m.group(3):
            worded = m.group(3).lower() in _NUMBER_WORDS
            value = _value(None if worded else m.group(3), m.group(3) if worded else None, m.group(4))
        else:
            value = _value(m.group(5), None, None)
        if value:
            out.append(value)
    return out


@dataclass(frozen=True, slots=True)
class Bounds:
    """The sums a provision governs: above ``above`` (exclusive), up to ``upto`` (inclusive); None is unbounded."""

    above: int | None = None
    upto: int | None = None

    def admit(self, value: int) -> bool:
        return (self.above is None or value > self.above) and (self.upto is None or value <= self.upto)


def bounds_in(text: str) -> Bounds | None:
    """The bounds ``text`` sets on the value it governs ("where the value of the goods or services paid as
    consideration, exceeds rupees one crore, but does not exceed rupees ten crore"); None when it sets none. A bound on
    anything but money ("not exceeding three years") or on a fine ("fine exceeding two lakh rupees") is none."""
    above: int | None = None
    upto: int | None = None
    for m in (b for g in _GOVERNED.finditer(text) if not re.search(r"\bfine\b", g.group(), re.IGNORECASE)
              for b in _BOUND.finditer(g.group())):
        number, worded, unit = m.group(2), m.group(3), m.group(4)
        if not re.search(r"rupees|crore|lakh", m.group(0)[m.start(1) - m.start():], re.IGNORECASE):
            continue  # "not exceeding three years", "thousand" of anything: no money
        value = _value(number, worded, unit)
        if value is None:
            continue
        if re.match(r"(?:exceeds?|exceeding|more\s+than)$", m.group(1), re.IGNORECASE):
            above = value if above is None else max(above, value)
        else:
            upto = value if upto is None else min(upto, value)
    if above is None and upto is None or (above is not None and upto is not None and above >= upto):
        return None  # none, or a floor and a ceiling of different things (no sum is both)
    return Bounds(above, upto)


def admits(text: str, sums: Collection[int]) -> bool | None:
    """Whether the bounds ``text`` sets on a sum admit the sum a question tells (``sums``, from ``sums_in``): None
    when either tells none, or the question tells several."""
    bounds = bounds_in(text)
    if bounds is None or len(sums) != 1:
        return None
    return bounds.admit(next(iter(sums)))
