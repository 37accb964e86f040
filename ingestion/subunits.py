"""Sub-units of a section: sub-sections ``(1)``, clauses ``(a)``, sub-clauses ``(i)`` and deeper.

Input is :func:`ingestion.footnotes.clean_text` output: one paragraph per sub-unit, paragraphs
separated by a blank line. A label opens a unit only where India Code starts one: at the start of a
paragraph, or inline right after a dash, colon or semicolon ("arrest any person—(a) who ...",
"69A. Appointment of receiver.--(1) A mortgagee ...", "the child; (b) due consideration"), or
after a full stop when a capital follows. A cross-reference ("sub-section (1) of section 39",
"clause (a) of") is never at such a place, so it never opens a unit.

Nesting follows the labels' sequences, not fixed levels: BNSS s.35 puts letters under a roman
numeral under a letter, "(1)(b)(ii)(a)". A label continues the deepest open list it is the next
label of ("(c)" after "(b)", "(ia)" after "(i)", "(1A)" after "(1)"), else starts a child list if
it is a first label ("(1)", "(a)", "(i)", "(A)", "(I)"), else continues the open list it is nearest
to (clauses (iv) and (viii) of HMA s.13(1) were omitted, so "(v)" follows "(iii)").

"(i)" after "(h)" is the next letter; as a first child it is roman; and the label after it
settles it either way: "(ii)" makes it roman, "(j)" a letter (MVA s.10(2) runs "(e) ... (i)
road-roller; (j) ..."). Labels inside an Explanation, Illustration or Exception ("Explanation 1.--It
is immaterial ... (a) A writing ..." in BNS s.2(8); the proviso "(a) sought or voluntarily
provoked ..." to Exception 1 of BNS s.101) belong to it, not to the section's clauses. Text from a
"STATE AMENDMENT" heading on is a State's amending Act, not the section.

When India Code prints "(1)" in the heading ("1. Short title ... —(1)"), the text opens with
sub-section (1)'s words unlabelled and then "(2)": that opening prose is returned as ``("1",)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from graph_schema.model import SubUnit
from graph_schema.numbering import canonical_sub, roman_value

__all__ = ["parse_subunits"]

_NUM, _LETTER, _ROMAN, _UPPER, _UPPER_ROMAN = "num", "letter", "roman", "upper", "upper_roman"
_FIRST = {_NUM: 1.0, _LETTER: 1.0, _ROMAN: 1.0, _UPPER: 1.0, _UPPER_ROMAN: 1.0}
_EXACT = 1.0 + 1e-9  # a gap of at most one step: the next label or an inserted one ("ia", "1A")
_NEAR = 5.0  # the largest gap tolerated for omitted labels when nothing closer fits

_LABEL = r"\(\s*(?P<{}>[0-9]{{1,3}}(?:\s*-?\s*[A-Za-z]{{1,3}})?|[a-z]{{1,5}}(?:-[a-z])?|[A-Z]{{1,4}})\s*\)"
_STARTS = re.compile(
    "|".join(
        (
            # at a paragraph start (a bracket may survive from a marker whose opening was lost)
            r"(?:^|(?<=\n\n))\[?" + _LABEL.format("para"),
            # inline after a dash, colon or semicolon
            r"(?:[—–―‒:;]|--+|\.-+)[ \t]*" + _LABEL.format("dash"),
            # inline after a full stop, before a capital
            r"\.[ \t]*" + _LABEL.format("stop") + r"(?=[ \t]+[A-Z\"“])",
        )
    )
)
_FOLLOWING = re.compile(r"[ \t]*" + _LABEL.format("next") + r"(?=[ \t]+[A-Z\"“])")
_ASIDE = re.compile(r"(?:^|\n\n)(?:Explanations?|Illustrations?|Exceptions?)\b")
_STATE_AMENDMENT = re.compile(r"(?:^|\n\n)STATE\s+AMENDMENTS?\b", re.IGNORECASE)
_RESTATED = re.compile(r"\n\n\d+[A-Z]{0,3}\.\s*[A-Z]")
_ROMAN_RE = re.compile(r"^(?P<numeral>l?x{0,3}(?:ix|iv|v?i{0,3}))(?P<suffix>[a-z]{0,2})$")


def _suffix(s: str) -> float:
    """Position offset of an inserted label's letters: "a" in "ia"/"1A" sits just after its base."""
    return sum((ord(c) - 96) / 27.0 ** (k + 1) for k, c in enumerate(s.lower()))


def _readings(label: str) -> dict[str, float]:
    """Every type the label can be read as, with its position in that type's sequence."""
    out: dict[str, float] = {}
    m = re.fullmatch(r"(\d+)([A-Za-z]*)", label)
    if m:
        return {_NUM: int(m.group(1)) + _suffix(m.group(2))}
    if not label.isalpha():
        return out
    lower = label.lower()
    rm = _ROMAN_RE.match(lower)
    numeral, suffix = (rm.group("numeral"), rm.group("suffix")) if rm else ("", "")
    roman = bool(numeral) and numeral != "l"  # "(l)" is the letter after "(k)"
    pure_roman = roman and not suffix and len(numeral) > 1  # "(ii)", "(iv)" are never letters
    upper = label.isupper()
    if roman:
        out[_UPPER_ROMAN if upper else _ROMAN] = roman_value(numeral) + _suffix(suffix)
    if not pure_roman and len(lower) <= 3:
        out[_UPPER if upper else _LETTER] = (ord(lower[0]) - 96) + _suffix(lower[1:])
    return out


@dataclass
class _Open:
    """A list on the stack: its type, the position of its last label and the unit that label opened."""

    kind: str
    pos: float
    unit: int | None  # index into ``units``; None for a label inside an Explanation, Illustration ...
    aside: bool = False  # an Explanation, Illustration or Exception has begun inside this unit


@dataclass
class _Parse:
    units: list[tuple[tuple[str, ...], int, int]] = field(default_factory=list)  # path, start, depth
    stack: list[_Open] = field(default_factory=list)
    root_aside: bool = False

    def _in_aside(self) -> bool:
        if not self.stack:
            return self.root_aside
        return self.stack[-1].aside or self.stack[-1].unit is None

    def _push(self, depth: int, kind: str, pos: float, label: str, start: int, ghost: bool) -> None:
        del self.stack[depth:]
        unit = None
        if not ghost:
            parents = tuple(self.units[o.unit][0][-1] for o in self.stack if o.unit is not None)
            self.units.append(((*parents, label), start, depth))
            unit = len(self.units) - 1
        self.stack.append(_Open(kind, pos, unit))

    def label(self, label: str, readings: dict[str, float], start: int) -> None:
        gaps = [
            (readings[o.kind] - o.pos, depth, o.kind)
            for depth, o in enumerate(self.stack)
            if o.kind in readings and readings[o.kind] > o.pos
        ]
        exact = [g for g in gaps if g[0] <= _EXACT]
        if exact:
            _, depth, kind = max(exact, key=lambda g: g[1])
            self._push(depth, kind, readings[kind], label, start, ghost=self.stack[depth].unit is None)
            return
        first = [k for k, pos in readings.items() if pos == _FIRST[k]]
        # Sub-section (1) or clause (a) may have been omitted, so a list may open on "(2)" or "(b)";
        # a roman list never opens on "(ii)": its "(i)" was run into the sentence before.
        opens_root = not self.stack and bool({_NUM, _LETTER, _UPPER} & set(readings))
        if first or opens_root:
            kind = first[0] if first else next(k for k in (_NUM, _LETTER, _UPPER) if k in readings)
            self._push(len(self.stack), kind, readings[kind], label, start, ghost=self._in_aside())
            return
        near = [g for g in gaps if g[0] <= _NEAR]
        if near:
            _, depth, kind = min(near, key=lambda g: (g[0], -g[1]))
            self._push(depth, kind, readings[kind], label, start, ghost=self.stack[depth].unit is None)

    def _close_aside_lists(self) -> None:
        while self.stack and self.stack[-1].unit is None:
            self.stack.pop()

    def aside(self) -> None:
        """An Explanation, Illustration or Exception begins; a list inside an earlier one is over."""
        self._close_aside_lists()
        if self.stack:
            self.stack[-1].aside = True
        else:
            self.root_aside = True


def _label(raw: str) -> str:
    return canonical_sub(re.sub(r"[\s-]", "", raw))


def _disambiguate(label: str, later: list[str], opening: bool) -> tuple[str, dict[str, float]]:
    """Readings of ``label`` narrowed by the labels after it: "(i)" then "(ii)" is roman, "(i)" then
    "(j)" a letter. An opening "(l)" with a "(2)" later is OCR for "(1)" (NDPS Act s.41 prints
    "authorisation.-- (l) A Metropolitan Magistrate ... (2) Any such officer")."""
    readings = _readings(label)
    if label == "l" and opening and "2" in later:
        return "1", {_NUM: 1.0}
    nxt = _readings(later[0]) if later else {}
    follows = {k for k, pos in readings.items() if k in nxt and 0 < nxt[k] - pos <= _EXACT}
    if len(readings) > 1 and len(follows) == 1:
        readings = {k: v for k, v in readings.items() if k in follows}
    return label, readings


def _label_events(body: str) -> list[tuple[int, str]]:
    """``(offset of "(", canonical label)`` for every place a unit may start."""
    out: list[tuple[int, str]] = []
    for m in _STARTS.finditer(body):
        group = next(g for g in ("para", "dash", "stop") if m.group(g))
        out.append((body.rfind("(", 0, m.start(group)), _label(m.group(group))))
        # "(3) (a) The State Government shall ..." (MVA s.74): a clause opening its sub-section.
        inner = _FOLLOWING.match(body, m.end()) if group == "para" else None
        if inner:
            out.append((body.index("(", m.end()), _label(inner.group("next"))))
    return out


def parse_subunits(text: str) -> tuple[SubUnit, ...]:
    """Split a section's clean text into its addressable sub-units.

    Args:
        text: section text as returned by :func:`ingestion.footnotes.clean_text`.

    Returns:
        One :class:`SubUnit` per sub-section, clause and sub-clause, in text order, with
        ``path`` of canonical labels (``("1", "ia")`` for HMA s.13(1)(ia)) and ``text`` from the
        unit's own label to the start of its next sibling or ancestor, children, provisos and
        Explanations included. ``()`` when the section is not divided.
    """
    if not text or not text.strip():
        return ()
    cut = _STATE_AMENDMENT.search(text)
    body = text[: cut.start()] if cut else text
    # CPC s.35 runs on, after its own sub-sections, into the section as substituted for commercial
    # disputes ("35. Costs.(1) In relation to any commercial dispute ..."): a section restated under
    # its number is another text. (A heading after chapter titles, before any unit, is not.)
    restated = _RESTATED.search(body)
    if restated and _STARTS.search(body, 0, restated.start()):
        body = body[: restated.start()]
    labels = _label_events(body)
    events: list[tuple[int, int, str]] = [(offset, i, "label") for i, (offset, _) in enumerate(labels)]
    events += [(m.end(), -1, "aside") for m in _ASIDE.finditer(body)]
    parse = _Parse()
    for offset, i, kind in sorted(events):
        if kind == "aside":
            parse.aside()
        else:
            later = [lab for _, lab in labels[i + 1 :]]
            label, readings = _disambiguate(labels[i][1], later, opening=not parse.units)
            if readings:
                parse.label(label, readings, offset)
    units = parse.units
    if units and units[0][0] == ("2",) and _lost_first(body[: units[0][1]]):
        units = [(("1",), 0, 0), *units]
    out: list[SubUnit] = []
    seen: set[tuple[str, ...]] = set()
    for n, (path, start, depth) in enumerate(units):
        end = next((s for _, s, d in units[n + 1 :] if d <= depth), len(body))
        if path in seen:
            continue  # a repeated label (a quoted amendment, a table header) never replaces the first
        seen.add(path)
        out.append(SubUnit(path=path, text=body[start:end].strip()))
    return tuple(out)


def _lost_first(prose: str) -> bool:
    """Prose before "(2)" that is sub-section (1) whose label India Code printed in the heading
    ("1. Short title ... —(1)"): LSA 1987 s.1 reads "This Act may be called ... 1987.\n\n(2) It
    extends ...". A chapeau ending in a dash or colon ("In this Act, ... requires,--") is not."""
    prose = prose.strip()
    return bool(prose) and not re.search(r"(?:[,:;—–―-]|\bthat)$", prose)
