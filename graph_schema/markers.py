"""India Code footnote markers: the one function that removes them from statute text.

India Code prints a section's amendment history as numbered footnotes keyed to inline markers:
``^1[inserted or substituted words]`` (the marker, and the ``]`` that closes it) and ``^2* * * * *``
(words omitted). Ingestion strips them before storing a section's text; verification strips them from
passages and claims before comparing words, so text read from an older graph or typed by a model
with its markers compares the same. Here, below both, so that there is one definition of a marker.
(``verification.check.quotes.normalise`` treats the same markers as gaps inside its offset-keeping
normaliser; its tests check that it agrees with this function on the corpus.)
"""

from __future__ import annotations

import re

__all__ = ["MARKUP", "strip_markers"]

MARKUP = re.compile(
    r"(?P<open>\^[ \t]*(?:\d{1,2}|\*)?[ \t]*\n?[ \t]*\[)"  # ^1[  ^1\n[  ^[  ^*[
    r"|(?P<misopen>\^[ \t]*\d{1,2}\])"  # ^1]  (OCR for ^1[)
    r"|(?P<omit>\^[ \t]*\d{0,2}[ \t]*\n?[ \t]*\*(?:[ \t]*\*)*)"  # ^2* * * * *  ^4***
    r"|(?P<bare>\^[ \t]*\d{1,2}(?!\d)|\^\d(?=\d)|\^)"  # ^2 as  ^115A. (marker 1 on s.15A)  lone ^
    r"|(?P<stars>\*(?:[ \t]*\*){2,})"  # * * * without a marker
    r"|(?P<lb>\[)|(?P<rb>\])"
)
"""Every marker form met in the corpus, and the square brackets (to pair a marker's ``[`` with its ``]``)."""


def strip_markers(text: str) -> str:
    """``text`` without India Code footnote markers; every other character kept as it is.

    ``^1[`` and the ``]`` that closes it go (a ``[``...``]`` pair the statute itself prints stays), as do
    ``^2* * * * *`` omission marks, bare ``^2`` and star rows. Where a marker sat between two words
    ("within^1[three months]") one space keeps them apart.

    Args:
        text: Statute text as India Code prints it, or any text quoting it.

    Returns:
        The text without markers.
    """
    if "^" not in text and "*" not in text:
        return text
    out: list[str] = []
    stack: list[bool] = []  # True: bracket opened by a footnote marker
    pos = 0

    def cut(start: int, end: int) -> None:
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        out.append(" " if before.isalnum() and after.isalnum() else "")

    for m in MARKUP.finditer(text):
        out.append(text[pos : m.start()])
        pos = m.end()
        kind = m.lastgroup
        if kind in {"open", "misopen"}:
            stack.append(True)
            cut(m.start(), m.end())
        elif kind == "lb":
            stack.append(False)
            out.append("[")
        elif kind == "rb":
            if stack and stack.pop():
                cut(m.start(), m.end())
            else:
                out.append("]")
        else:
            cut(m.start(), m.end())
    out.append(text[pos:])
    return "".join(out)
