"""Notifications and circulars: "G.S.R. 1234(E)", "S.O. 123(E)", "RBI/2023-24/45".

Gazette of India notifications are numbered in two series, G.S.R. (General Statutory Rules) and S.O.
(Statutory Orders); "(E)" marks the Extraordinary issue. RBI circulars carry "RBI/<financial year>/<serial>".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SP = r"[ \t\u00a0]"
_GAZETTE = re.compile(
    rf"(?P<series>G\.?{_SP}?S\.?{_SP}?R\.?|S\.{_SP}?O\.?|SO(?=\s?\d)){_SP}?(?:No\.?{_SP}?)?(?P<num>\d{{1,5}})"
    rf"(?:{_SP}?\({_SP}?(?P<ed>E){_SP}?\))?(?![\w/])"
)
_RBI = re.compile(r"\bRBI/(?P<fy>\d{4}-\d{2,4})/(?P<num>\d{1,5})(?![\w/])")


@dataclass(frozen=True, slots=True)
class NotificationMatch:
    start: int
    end: int
    kind: str
    normalised: str


def find_notifications(text: str) -> list[NotificationMatch]:
    """Every Gazette notification number and RBI circular number in ``text``, in order."""
    out: list[NotificationMatch] = []
    for m in _GAZETTE.finditer(text):
        if m.start() and (text[m.start() - 1].isalnum() or text[m.start() - 1] in "_."):
            continue
        series = "G.S.R." if m.group("series").upper().startswith("G") else "S.O."
        if series == "S.O." and m.group("ed") is None and not m.group("series").startswith("S."):
            continue  # a bare "SO 12" is too often something else
        ed = "(E)" if m.group("ed") else ""
        out.append(NotificationMatch(m.start(), m.end(), "gazette", f"{series} {m.group('num')}{ed}"))
    for m in _RBI.finditer(text):
        out.append(NotificationMatch(m.start(), m.end(), "circular", m.group(0)))
    out.sort(key=lambda n: n.start)
    return out
