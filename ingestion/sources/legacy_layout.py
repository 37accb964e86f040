"""The labels of the repealed codes' sub-units, restored from the civictech JSON's layout.

``legacy/crpc.json`` (and a few sections of ``iea.json``) were converted from HTML lists whose
numbers were drawn by the browser, so the labels "(1)", "(a)", "(i)" are gone and only the list
layout survives (see ``data/corpus/legacy/SOURCE.md``). CrPC s.167 reads::

    Whenever any person is arrested ... forward the accused to such Magistrate.      <- (1)
    \t\tThe Magistrate to whom an accused person is forwarded ...                    <- (2)
    Provided that—                                                                   <- proviso to (2)
    \t\t
    \t\t\tthe Magistrate may authorise the detention ... exceeding—                  <- (2)(a)
    \t\t\t\tninety days, where ...                                                   <- (2)(a)(i)
    \t\t\tno Magistrate shall authorise detention ...                                <- (2)(b)
    2A. Notwithstanding anything contained in Sub-Section (1) ...                    <- (2A), its label kept
    \t\tA Magistrate authorising under this section ...                              <- (3)

Two tabs open an item of the section's own list, three an item of a list inside it, and so on.
The first item of the section's list lost its indent with the list's opening tag, so an unindented
first line is sub-section (1) unless a one-tab line opens the list after it (CrPC s.2 "In this Code,
unless the context otherwise requires;" then the clauses): then it is the lead-in and the items are
clauses. Unindented later lines are the provisos and closing words of the item before them
("and may also impose ..." in CrPC s.437(3)); an unindented "2A." or "1A." (inserted by amending
Acts, numbered by hand) is a sub-section with that label.

Labels follow India Code's drafting: sub-sections (1), (2) hold clauses (a), (b), which hold
sub-clauses (i), (ii); a list under a lead-in is of clauses (numbered in the Evidence Act). Where
the section itself cites its clauses by roman numerals ("a person referred to in clause (i) or
clause (ii)", CrPC s.437(1)) its clauses are roman, and so are those of a list into which a clause
is inserted by a hand-printed label ("va. section 364A ..." between (v) and (vi), CrPC s.39(1)).
The layout cannot tell the rest: CrPC s.438(1)'s factors, (i) to (iv) as enacted, come out (a) to
(d) (see ``graph_schema.acts.INCOMPLETE_SUBUNITS``). A section whose list is a table (CrPC s.320's
offences, with cells such as "298") is left whole. The restored text has one paragraph per unit,
separated by blank lines, as :func:`ingestion.subunits.parse_subunits` reads India Code text, so
the old codes are split by the same parser as the new ones.

Text without that layout (the IPC, most of the IEA) is returned unchanged, except that a section
whose lines carry printed labels ("(1) Any man who, follows a woman ..." in IPC s.354D) gets its
lines as paragraphs so those labels open units.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["CLAUSES", "NUMBERED_CLAUSES", "restore_labels"]

_INDENT = re.compile(r"^[\t ]*")
# "2A. Notwithstanding", "(5A) ...", "2. Where ...": a sub-section number printed by hand.
_NUM_LABEL = re.compile(r"^(?:\((\d{1,2}[A-Z]{0,2})\)|(\d{1,2}[A-Z]{0,2})\.)\s*(?=[A-Z\"“‘(])")
# "a) “minor” means", "b. a criminal conspiracy", "va. section 364A": a clause letter printed by hand.
_LETTER_LABEL = re.compile(r"^\(?([a-z]{1,2})[.)]\s+(?=\S)")
# "... without unnecessary delay.1A. The investigation ..." (CrPC s.173): an inserted sub-section run
# into the one before it.
_RUN_IN = re.compile(r"(?<=[.;:])\s*(\d{1,2}[A-Z])\.\s+(?=[A-Z])")
# "1 Criminal Law (Amendment) Act, 2018": the footnote of a superscript marker left in the text.
_FOOTNOTE = re.compile(r"^\d{1,2}\s+[A-Z][^.]{0,120}\b(?:Act|Ordinance)\b,?\s*\d{4}\.?$")
# The section citing its own clauses by roman numerals: "clause (ii)", "clauses (i) and (ii)".
_ROMAN_CITED = re.compile(r"(?<!sub-)\bclauses?\s*\((?:ii|iii|iv|vi)\)", re.IGNORECASE)
_PRINTED_SUBSECTION = re.compile(r"(?m)^\(\d{1,2}[A-Z]?\)\s")
# "va. section 364A ..." (CrPC s.39(1)): a clause inserted after (v), so its list is roman.
_INSERTED_ROMAN = re.compile(r"^\(?(?:i{1,3}|iv|vi{0,3}|ix|xi{0,3})[a-h][.)]\s")
# A cell of a table drawn as a list ("298", "341, 342", "Ditto." in CrPC s.320's table of offences).
_TABLE_CELL = re.compile(r"^(?:\d{1,3}[A-Z]{0,2}(?:\s*(?:,|and|to)\s*\d{1,3}[A-Z]{0,2})*|Ditto\.?)$")

_NUM, _LETTER, _ROMAN, _UPPER = "num", "letter", "roman", "upper"
_SUBSECTIONS = (_NUM, _LETTER, _ROMAN, _UPPER)
"""Kinds of list by depth when the section's own list is of sub-sections: (1), (a), (i), (A)."""
CLAUSES = (_LETTER, _ROMAN, _UPPER)
"""By depth under a lead-in, as the CrPC draws them: s.2 (a) to (y), s.386 (b)(i)."""
NUMBERED_CLAUSES = (_NUM, _ROMAN, _UPPER)
"""By depth under a lead-in, as the Evidence Act (1872) draws them: s.57 "(1) All laws in force ...",
s.63 "(1) certified copies ...", s.74 "(1) documents forming the acts ... (i) of the sovereign authority"."""
_ROMANS = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "xiii", "xiv", "xv",
           "xvi", "xvii", "xviii", "xix", "xx")  # fmt: skip


@dataclass
class _List:
    indent: int
    count: int = 0


@dataclass
class _Restore:
    kinds: tuple[str, ...]
    """Kind of list at each depth below ``base``."""
    base: int
    """The indent of the section's own list."""
    roman_blocks: set[int]
    block: int = 0
    out: list[str] = field(default_factory=list)
    stack: list[_List] = field(default_factory=list)
    lists_under_lead_in: int = 0

    def item(self, indent: int, text: str, label: str | None = None) -> None:
        """An item of the list at ``indent`` (a new list inside the last item when deeper)."""
        while self.stack and self.stack[-1].indent > indent:
            self.stack.pop()
        if not self.stack or self.stack[-1].indent < indent:
            self.stack.append(_List(indent))
        lst = self.stack[-1]
        if indent == self.base and self.kinds is _SUBSECTIONS:
            self.block += 1
        if label is None:
            lst.count += 1
            label = _label(self._kind_at(indent), lst.count)
        elif label.isdigit():
            lst.count = int(label)  # "2. Where ...": the hand-printed number is the sequence's
        self.out.append(f"({label}) {text}" if label else text)

    def _kind_at(self, indent: int) -> str:
        """The kind of list drawn at ``indent``: by its depth below the section's own list, so a list
        that follows a paragraph (CrPC s.133(1) "Such Magistrate may make a conditional order ...",
        then (i) to (vi) a level deeper than clauses (a) to (f)) keeps the kind its depth shows."""
        kind = self.kinds[min(indent - self.base, len(self.kinds) - 1)]
        if kind == _LETTER and self.block in self.roman_blocks:
            kind = _ROMAN
        return kind

    def new_list_under_lead_in(self) -> bool:
        """The next item starts a list under the lead-in although one was started before."""
        starts = len(self.stack) == 1
        if starts:
            self.lists_under_lead_in += 1
        return starts and self.lists_under_lead_in > 1

    def paragraph(self, text: str) -> None:
        """Words outside any deeper list: a proviso or the closing words of the top-level item."""
        del self.stack[1:]
        self.out.append(text)


def _label(kind: str, n: int) -> str | None:
    if kind == _NUM:
        return str(n)
    if kind in (_LETTER, _UPPER):
        return None if n > 26 else chr(96 + n) if kind == _LETTER else chr(64 + n)
    return _ROMANS[n - 1] if n <= len(_ROMANS) else None


def _lines(text: str) -> list[tuple[int, str, bool]]:
    """``(tabs, words, opened)`` per non-blank line; ``opened`` when a one-tab blank line (a list's
    opening tag) comes right before it. Footnotes are dropped, run-in sub-sections split off."""
    out: list[tuple[int, str, bool]] = []
    opened = False
    for raw in text.split("\n"):
        indent = _INDENT.match(raw)
        assert indent is not None
        words = raw[indent.end() :].strip()
        tabs = indent.group().count("\t")
        if not words:
            opened = tabs == 1
            continue
        if _FOOTNOTE.match(words):
            continue
        parts = _RUN_IN.split(words)
        out.append((tabs, parts[0].strip(), opened))
        out.extend((0, f"{parts[i]}. {parts[i + 1].strip()}", False) for i in range(1, len(parts) - 1, 2))
        opened = False
    return out


def _starts_block(n: int, tabs: int, words: str, lead_in: bool) -> bool:
    """Line ``n`` opens an item of the section's own list (a sub-section)."""
    if lead_in:
        return False
    return n == 0 or tabs == 2 or (tabs < 2 and _NUM_LABEL.match(words) is not None)


def _roman_blocks(lines: list[tuple[int, str, bool]], lead_in: bool) -> set[int]:
    """Sub-sections (numbered from 1 in line order; 1 is the whole text under a lead-in) that cite
    their own clauses by roman numerals: CrPC s.437(1)'s proviso names "clause (i) or clause (ii)",
    while its sub-section (3) has clauses (a) to (c)."""
    out: set[int] = set()
    block = 1 if lead_in else 0
    for n, (tabs, words, _) in enumerate(lines):
        block += _starts_block(n, tabs, words, lead_in)
        if _ROMAN_CITED.search(words) or _INSERTED_ROMAN.match(words):
            out.add(block)
    return out


def restore_labels(text: str, clauses: tuple[str, ...] = CLAUSES) -> str:
    """Text of a legacy section with its sub-unit labels restored, one paragraph per unit.

    Args:
        text: ``section_desc`` as the civictech JSON holds it.
        clauses: the kinds of list, by depth, under a lead-in (:data:`CLAUSES` for the CrPC,
            :data:`NUMBERED_CLAUSES` for the Evidence Act).

    Returns:
        The text to store and split: labelled paragraphs separated by blank lines where the
        section has the list layout; ``text`` itself (or its lines as paragraphs, when they carry
        printed labels) where it has none.
    """
    lines = _lines(text)
    if not lines or all(tabs < 2 for tabs, _, _ in lines):
        if _PRINTED_SUBSECTION.search(text):
            return "\n\n".join(words for _, words, _ in lines)
        return text
    if any(tabs >= 2 and _TABLE_CELL.match(words) for tabs, words, _ in lines):
        return text  # a table's rows and cells are no sub-units
    items = [(tabs, opened) for tabs, _, opened in lines if tabs >= 2]
    top = min(tabs for tabs, _ in items)
    numbered_by_hand = any(tabs == 0 and _NUM_LABEL.match(words) for tabs, words, _ in lines[1:])
    # The first line is the first item of the section's list (sub-section (1)) unless the list is
    # opened after it by its own tag, or there is no second item at its level.
    lead_in = lines[0][0] == 0 and (items[0][1] or not (top == 2 or numbered_by_hand))
    roman = _roman_blocks(lines, lead_in)
    if lead_in:
        state = _Restore(clauses, top, roman, block=1)
        state.out.append(lines[0][1])
        state.stack.append(_List(top - 1))  # the lead-in: its clauses are the list inside it
        rest = lines[1:]
    else:
        state = _Restore(_SUBSECTIONS, 2, roman)
        state.stack.append(_List(2))
        rest = lines
    first = not lead_in
    for tabs, words, _ in rest:
        if first:
            state.item(2, words)
            first = False
        elif tabs >= 2:
            if lead_in and tabs == top and state.new_list_under_lead_in():
                return text  # clause lists of several definitions (IEA s.3): no one sequence of labels
            state.item(tabs, words)
        elif (num := _NUM_LABEL.match(words)) and not lead_in:
            state.item(2, words[num.end() :], num.group(1) or num.group(2))
        elif (letter := _LETTER_LABEL.match(words)) and len(state.stack) > 1:
            # a clause inserted into an open list, labelled by hand at no indent ("va." in CrPC s.39(1))
            state.item(state.stack[-1].indent, words[letter.end() :], letter.group(1))
        elif (printed := _NUM_LABEL.match(words) or _LETTER_LABEL.match(words)):
            # a unit labelled by hand at no indent ("a) “minor” means" in CrPC s.125): its label is kept
            # and the parser places it
            label = next(g for g in printed.groups() if g)
            state.paragraph(f"({label}) {words[printed.end() :]}")
        else:
            state.paragraph(words)
    return "\n\n".join(state.out)
