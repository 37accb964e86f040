"""Provision references: "Section 302", "Sections 161 to 164", "sub-section (2) of Section 439", "Order 39 Rule 1".

A provision is found by a head word ("Section", "S.", "Art.", "Rule", "Order", ...) followed by a number,
then grown to the right by a small scanner that never backtracks: each step is one anchored regex
``match`` at the current position, so the cost is linear in the text.

Span conventions follow InLegalNER (Kalamkar et al., NLLP 2022), checked against its training split:

- a list is one span with its head word: "Sections 363, 366 and 376", "Sections 302/34", "Articles 14 and 16";
- a repeated head stays in the list: "section 140 or section 163A", "Rule 8(ii) and Rule 15(ii)";
- an "of"-chain is one span: "Sub-section (2) of Section 202", "Clause (5) of Article 31", "Rule 13 of Order 9";
- the statute is a separate span: "Section 302" / "IPC", so the scanner stops before "of the Act";
- "u/s 138" (written "u/ s 138" in the corpus) is the span "s 138";
- "read with" a bare number stays in the span ("Section 302 r/w 120 B, 302 r/w 34"), "read with Section 34"
  starts a new one (the corpus is split evenly on this; two spans link each to its statute).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graph_schema.errors import InvalidSectionNumberError
from graph_schema.numbering import canonical_section, canonical_sub, roman_value

# Hyphen, soft hyphen (U+00AD: "Sub\xadsection (2)" in the corpus), non-breaking hyphen and dashes.
HY = "[-\u00ad\u2010\u2011\u2012\u2013]"
_SP = r"[ \t\u00a0]"  # horizontal space: a provision never runs across a line break
_ROMAN = r"(?:[IVXL]{1,7}|[ivx]{1,5})(?![\w]|\.\w)"
# "302", "498A", "498-A", "120 B" (a lone capital after a space: "302 r/w 120 B"; not the "I" of "302 I.P.C." nor
# the "A" of "29 A&C Act"),
# "366-ka" (Hindi clause letters in UP charge sheets), "80HHC", "28JA".
# Not a date ("Order 16-10-2017"), not money ("s. 15,000 per year").
_NUM = (
    rf"\d{{1,4}}(?!\d|[-/.]\d{{1,2}}[-/.]\d|,000)(?:(?:{HY}{_SP}?)?[A-Z]{{1,4}}(?![a-z])|{HY}[a-z]{{1,3}}(?![a-z])"
    rf"|{_SP}[A-Z](?![\w.&]|\.{_SP}?[A-Z]|\.\w))?"
)
# "(2)", "(ia)", "(1A)", "(4-A)", "(1 A)"
_SUB = rf"{_SP}?\({_SP}?[0-9A-Za-z]{{1,5}}(?:{HY}[0-9A-Za-z]{{1,3}}|{_SP}[A-Z])?{_SP}?\)"
# "Section 304 Part II", "Section 304 (Part I)", "Section 304, Part-II".
_PART = rf"(?:,?{_SP}?\(?Part{HY}?{_SP}?(?:III|II|I|1|2)\)?(?![\w]))"

# "Clause 23.1", "Section 5.4.1(3)": decimal numbering of rules, schemes and contracts.
_DECIMAL = r"(?:\.\d{1,3}(?![\d.]\d)){0,3}"
_ITEM = re.compile(rf"(?P<num>{_NUM}{_DECIMAL})(?P<subs>(?:{_SUB})*)(?P<part>{_PART})?")
_SUBS_ONLY = re.compile(rf"(?P<subs>(?:{_SUB})+)")
_ROMAN_ITEM = re.compile(
    rf"(?P<num>{_ROMAN}(?:{HY}[A-Z]{{1,2}}(?![\w]))?|\d{{1,3}}(?!\d|[-/.]\d{{1,2}}[-/.]\d)(?:{HY}?[A-Z]{{1,2}})?(?![\w]))"
)

# Separators inside a list: "302, 307 and 34", "302/34", "161 to 164", "169 or 170", "3-5".
_LIST_SEP = re.compile(
    rf"{_SP}?,{_SP}?(?:(?:and|or|&){_SP})?|{_SP}?/{_SP}?|{_SP}(?:and|or|to|&|till|upto|up{_SP}to){_SP}|{_SP}?[-\u2013]{_SP}?(?=\d)"
)

# "Section(s) 3 and 4" first: "Section" alone would leave "(s) 3" that no number follows.
_SEC_HEAD = (
    r"[Ss]ection\(s\)|SECTION\(S\)|"
    r"Sections?|SECTIONS?|sections?|Secs?\.|secs?\.|Sec(?=[ \d-])|sec(?=[ \d-])|SEC\.|Ss\.|ss\.|S\.|s\.|"
    r"S(?=[ \t]?\d)|s(?=[ \t]?\d)"
)
# Head words by kind. Sub-units first so that "sub-section" is not read as "section".
_HEADS: tuple[tuple[str, str], ...] = (
    ("subsection", rf"[Ss]ub{HY}?{_SP}?[Ss]ections?|SUB{HY}SECTIONS?|[Ss]ub{HY}?s\.|[Ss]ub{HY}sec\."),
    ("subrule", rf"[Ss]ub{HY}?{_SP}?[Rr]ules?|[Ss]ub{HY}R\."),
    ("subclause", rf"[Ss]ub{HY}?{_SP}?[Cc]lauses?"),
    ("subregulation", rf"[Ss]ub{HY}?{_SP}?[Rr]egulations?"),
    ("section", _SEC_HEAD),
    ("article", r"Articles?|ARTICLES?|articles?|Arts?\.|arts?\.|Art(?=[ \t]?\d)"),
    # "U/ o 8 Rule 10 CPC", "order VII Rule 11": lower-case "order" only when a rule follows.
    ("order", r"Orders?|ORDER|(?:order|o)(?=[ \t]?(?:\d+|[IVXL]+)[ \t,.]+[Rr]ule)|O\.(?=[ \t]?[\dIVX])"
              r"|Or\.(?=[ \t]?\d)"),
    ("rule", r"Rules?|rules?|RULES?|Rr?\.(?=[ \t]?\d)|rr?\.(?=[ \t]?\d)"),
    ("regulation", r"Regulations?|regulations?|Regn?\.(?=[ \t]?\d)"),
    ("clause", r"Clauses?|clauses?|CLAUSE|[Cc]ls?\.(?=[ \t]?[\d(])"),
    ("chapter", r"Chapters?|CHAPTER|chapter"),
    ("part", r"Part"),
    ("entry", r"Entr(?:y|ies)|entr(?:y|ies)"),
    # "Explanation III of Sub-section (h) of Section 2", "Explanation-I"
    ("explanation", r"Explanation"),
)
# A head never starts inside a word ("Rs 5", "it's 5", "Subsection" read as "section"), though it may start after
# an opening quote ("the FIR says 'section 379 IPC'"). The look-behind
# also makes the scan fast: most positions fail it before any of the alternatives is tried.
_HEAD_RE = re.compile(
    r"(?<![\w.\-])(?<!\w['\u2019])(?:" + "|".join(f"(?P<{k}{i}>{p})" for i, (k, p) in enumerate(_HEADS)) + ")"
)
_KIND_OF_GROUP = {f"{k}{i}": k for i, (k, _) in enumerate(_HEADS)}

# Kinds numbered with Roman numerals or plain numbers ("Order IX", "Chapter XIV-B", "Part III").
_ROMAN_KINDS = frozenset({"order", "chapter", "part", "explanation"})
# Kinds whose number is a bracketed sub-unit ("sub-section (2)", "clause (iii)").
_SUB_KINDS = frozenset({"subsection", "subrule", "subclause", "subregulation", "clause"})
# Kinds that carry a section-like key; chapters and parts are headings, not provisions to look up.
KEYED_KINDS = frozenset({"section", "article", "rule", "regulation", "order"})
"""Kinds whose numbers ``provision_keys`` reports (orders through their rules)."""

# "First Schedule", "Seventh Schedule", "7th Schedule", "II Schedule", "Schedule-I", "Schedule 1".
_ORDINAL = (
    r"First|Second|Third|Fourth|Fifth|Sixth|Seventh|Eighth|Ninth|Tenth|Eleventh|Twelfth|"
    r"\d{1,2}(?:st|nd|rd|th)|[IVX]{1,4}"
)
_SCHEDULE_RE = re.compile(
    rf"(?:(?:{_ORDINAL}){_SP}Schedule(?![\w-])|Schedule{HY}?{_SP}?(?:[IVX]{{1,4}}|\d{{1,2}})(?![\w]))"
)
# "List II", "Concurrent List", "Union List", "State List" (Seventh Schedule to the Constitution).
_LIST_RE = re.compile(rf"(?:(?:Concurrent|Union|State){_SP}List|Lists?(?:{_SP}|{HY})(?:III|II|I)(?![\w]))")

# "sub-section (2) of Section 439", "Entry 54 to List-II"; not "Sections 139 to 158 in Chapter XIV" (two spans
# in the corpus).
_OF = re.compile(rf"{_SP}?,?{_SP}?(?:of|to){_SP}(?:the{_SP})?")
_DIRECT = re.compile(rf"{_SP}?,?{_SP}?")
_READ_WITH = re.compile(rf"{_SP}?,?{_SP}?(?:read{_SP}with|r{_SP}?/{_SP}?w|R/W|r\\w){_SP}")
_INITIAL_BEFORE = re.compile(rf"(?<![\w.])[A-Z]\.{_SP}?$")
_HEAD_SEP = re.compile(rf"(?:{_SP}|{HY}|\.(?=\d))?{_SP}?")
_RULE_AFTER_ORDER = re.compile(rf"\.?{_SP}?,?{_SP}?(?:Rules?|rules?|RULES?|Rr?\.|rr?\.)(?:{_SP}|{HY})?{_SP}?")

# Lower-level kinds that may follow a higher one without "of": "Section 2 clause (15)", "Entry 32 List II".
_CHILD_KINDS = frozenset({"subsection", "clause", "subclause", "subrule", "subregulation"})


@dataclass(frozen=True, slots=True)
class Ref:
    """One numbered item inside a provision span: number and sub-units as written."""

    kind: str
    number: str
    subs: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ProvisionMatch:
    """A provision span, the kind of its outermost unit ("section" for "sub-section (2) of Section 439") and
    the references it names."""

    start: int
    end: int
    kind: str
    refs: tuple[Ref, ...]


@dataclass(slots=True)
class _Unit:
    kind: str
    end: int
    refs: list[Ref]


def find_provisions(text: str) -> list[ProvisionMatch]:
    """Every provision span in ``text``, in order, non-overlapping."""
    out: list[ProvisionMatch] = []
    pos = 0
    starts = _candidate_starts(text)
    for start, kind, head_end in starts:
        if start < pos:
            continue
        found = _scan(text, start, kind, head_end)
        if found is not None:
            out.append(found)
            pos = found.end
    return out


def _starts_word(text: str, pos: int, forbidden: str) -> bool:
    """True when ``pos`` is not inside a word: "Section" in "Subsection" or "s" in "Rs 5" is not a head."""
    if pos == 0:
        return True
    ch = text[pos - 1]
    return not (ch.isalnum() or ch in forbidden)


def _candidate_starts(text: str) -> list[tuple[int, str, int]]:
    cands: list[tuple[int, str, int]] = []
    for m in _HEAD_RE.finditer(text):
        s = m.start()
        if s > 1 and text[s - 1] == "/" and text[s - 2] not in "uU":
            continue  # "Ex.PW32/Art.10" is an exhibit; "u/s 138" is a section
        group = m.lastgroup
        assert group is not None
        if m.group().startswith("R.") and _INITIAL_BEFORE.search(text, max(0, s - 4), s):
            continue  # "[1952] S. C. R. 583": the last letter of a spaced reporter's name, not "R. 583" (a rule)
        cands.append((s, _KIND_OF_GROUP[group], m.end()))
    for rx, kind in ((_SCHEDULE_RE, "schedule"), (_LIST_RE, "list")):
        for m in rx.finditer(text):
            if _starts_word(text, m.start(), "_."):
                cands.append((m.start(), kind, m.end()))
    cands.sort(key=lambda c: (c[0], -c[2]))
    return cands


def _scan(text: str, start: int, kind: str, head_end: int) -> ProvisionMatch | None:
    unit = _unit_at(text, kind, head_end)
    if unit is None:
        return None
    units = [unit]  # innermost first: "clause (a)", "sub-section (1)", "Section 5"
    last = unit
    pos = unit.end
    while True:
        step = _chain_step(text, pos, last.kind)
        if step is None:
            break
        nxt, child = step
        if child:
            units.insert(units.index(last), nxt)  # "Section 2 clause (15)": the clause is inside Section 2
        else:
            units.append(nxt)
        last = nxt
        pos = nxt.end
    pos, extra = _read_with_bare(text, pos, units[-1].kind)
    refs = _combine(units) + extra
    return ProvisionMatch(start, pos, units[-1].kind, tuple(refs))


def _unit_at(text: str, kind: str, head_end: int) -> _Unit | None:
    """Parse the numbers after a head word ending at ``head_end``."""
    if kind in ("schedule", "list"):
        return _Unit(kind, head_end, [])
    sep = _HEAD_SEP.match(text, head_end)
    pos = sep.end() if sep else head_end
    first = _item(text, pos, kind)
    if first is None:
        return None
    ref, pos = first
    unit = _Unit(kind, pos, [ref])
    if kind == "order":
        _order_rule(text, unit)
    _list_tail(text, unit)
    return unit


def _item(text: str, pos: int, kind: str, allow_subs_only: bool = False) -> tuple[Ref, int] | None:
    if kind in _ROMAN_KINDS:
        m = _ROMAN_ITEM.match(text, pos)
        if m:
            return Ref(kind, m.group("num")), m.end()
        return None
    m = _ITEM.match(text, pos)
    if m:
        subs = tuple(_SUB_LABEL.findall(m.group("subs")))
        return Ref(kind, m.group("num"), subs), m.end()
    if kind in _SUB_KINDS or allow_subs_only or kind == "entry":
        s = _SUBS_ONLY.match(text, pos)
        if s:
            return Ref(kind, "", tuple(_SUB_LABEL.findall(s.group("subs")))), s.end()
        if kind in _SUB_KINDS:
            r = _ROMAN_ITEM.match(text, pos)
            if r and r.group("num")[:1] in "ivxIVX":
                return Ref(kind, "", (r.group("num"),)), r.end()
    return None


_SUB_LABEL = re.compile(r"\(\s*([0-9A-Za-z]{1,5}(?:[-\u00ad\u2010\u2011\u2012\u2013][0-9A-Za-z]{1,3}|\s[A-Z])?)\s*\)")


def _order_rule(text: str, unit: _Unit) -> None:
    """'Order 39 Rule 1', 'Order IX, Rule 9': the rule belongs to the order's unit."""
    m = _RULE_AFTER_ORDER.match(text, unit.end)
    if not m:
        return
    got = _item(text, m.end(), "rule")
    if got is None:
        return
    ref, end = got
    unit.refs.append(ref)
    unit.end = end


def _list_tail(text: str, unit: _Unit) -> None:
    """Extend ``unit`` over ", 307 and 34", "/34", " to 164", " or section 163A"."""
    while True:
        sep = _LIST_SEP.match(text, unit.end)
        if not sep:
            return
        pos = sep.end()
        head = _HEAD_RE.match(text, pos)
        kind = unit.kind
        if head is not None:
            group = head.lastgroup
            assert group is not None
            head_kind = _KIND_OF_GROUP[group]
            if head_kind != unit.kind:
                return
            hs = _HEAD_SEP.match(text, head.end())
            pos = hs.end() if hs else head.end()
        got = _item(text, pos, kind, allow_subs_only=True)
        if got is None:
            return
        ref, end = got
        if kind == "order":
            sub = _Unit(kind, end, [ref])
            _order_rule(text, sub)
            unit.refs.extend(sub.refs)
            end = sub.end
        else:
            unit.refs.append(_inherit(unit.refs[-1], ref) if not ref.number else ref)
        if text[sep.start():sep.end()].strip() in ("to", "till", "upto", "up to", "-", "\u2013"):
            unit.refs[-1:] = _expand_range(unit.refs[-2], unit.refs[-1])
        unit.end = end


def _inherit(prev: Ref, ref: Ref) -> Ref:
    """'Section 5(1)(d) and (c)': "(c)" replaces the last sub-unit of 5(1)(d)."""
    if not prev.subs:
        return Ref(prev.kind, prev.number, ref.subs)
    return Ref(prev.kind, prev.number, prev.subs[: max(0, len(prev.subs) - len(ref.subs))] + ref.subs)


def _expand_range(lo: Ref, hi: Ref) -> list[Ref]:
    """'Sections 161 to 164' names 161, 162, 163 and 164 when both ends are plain numbers."""
    if lo.number.isdigit() and hi.number.isdigit() and not lo.subs and not hi.subs:
        a, b = int(lo.number), int(hi.number)
        if 0 < b - a <= 60:
            return [Ref(hi.kind, str(n)) for n in range(a + 1, b + 1)]
    return [hi]


def _chain_step(text: str, pos: int, prev_kind: str) -> tuple[_Unit, bool] | None:
    """The next unit of an "of"-chain ("... of Section 439"), or a child unit ("Section 2 clause (15)"): the unit
    and whether it is a child (inside the previous unit rather than around it)."""
    for rx, children_only in ((_OF, False), (_DIRECT, True)):
        m = rx.match(text, pos)
        if not m:
            continue
        p = m.end()
        if children_only and p == pos and prev_kind not in ("entry",):
            # "Section 2 clause (15)" needs at least a space between the two units.
            continue
        sched = _SCHEDULE_RE.match(text, p)
        if sched is not None and not children_only:
            return _Unit("schedule", sched.end(), []), False
        lst = _LIST_RE.match(text, p)
        if lst is not None and (not children_only or prev_kind == "entry"):
            return _Unit("list", lst.end(), []), False
        head = _HEAD_RE.match(text, p)
        if head is None:
            continue
        group = head.lastgroup
        assert group is not None
        kind = _KIND_OF_GROUP[group]
        if children_only and kind not in _CHILD_KINDS:
            continue
        if not children_only and kind == prev_kind and kind not in ("clause", "subclause"):
            continue
        unit = _unit_at(text, kind, head.end())
        if unit is not None:
            return unit, children_only
    return None


def _read_with_bare(text: str, pos: int, kind: str) -> tuple[int, list[Ref]]:
    """'Section 302 r/w 120 B, 302 r/w 34': bare numbers after "read with" stay in the span."""
    refs: list[Ref] = []
    if kind not in ("section", "article", "rule", "order"):
        return pos, refs
    while True:
        m = _READ_WITH.match(text, pos)
        if not m:
            return pos, refs
        got = _item(text, m.end(), "section" if kind == "order" else kind)
        if got is None:
            return pos, refs
        ref, end = got
        refs.append(ref)
        pos = end
        unit = _Unit(ref.kind, pos, [ref])
        _list_tail(text, unit)
        refs.extend(unit.refs[1:])
        pos = unit.end


def _combine(units: list[_Unit]) -> list[Ref]:
    """Refs of an "of"-chain resolved to the outermost numbered unit.

    "clause (a) of sub-section (1) of Section 5" names section 5 with sub-units ("1", "a"); a list at the
    outer end fans out ("sub-section (3) of Sections 4 and 5").
    """
    outer = units[-1]
    if len(units) == 1:
        return list(outer.refs)
    inner_subs: list[str] = []
    for u in reversed(units[:-1]):
        if u.refs and u.kind in _SUB_KINDS:
            first = u.refs[0]
            inner_subs.extend(first.subs or ((first.number,) if first.number else ()))
    if outer.kind == "order" or not outer.refs:
        return [*outer.refs, *(r for u in units[:-1] for r in u.refs if u.kind in KEYED_KINDS)]
    return [Ref(r.kind, r.number, r.subs + tuple(inner_subs)) for r in outer.refs]


def provision_keys(match: ProvisionMatch) -> list[tuple[str, str, tuple[str, ...]]]:
    """Canonical (kind, number, sub-units) for each provision a match names, in order, without repeats.

    Sections and articles keep their number ("302", "498A"); an Order of the Code of Civil Procedure with
    its Rule becomes "O39R1", so it can never be mistaken for Section 39. Chapters, parts, schedules and
    lists are headings, not provisions, and give nothing.
    """
    out: list[tuple[str, str, tuple[str, ...]]] = []
    refs = list(match.refs)
    i = 0
    while i < len(refs):
        r = refs[i]
        if r.kind == "order":
            order = _arabic(r.number)
            if i + 1 < len(refs) and refs[i + 1].kind == "rule":
                rule = refs[i + 1]
                out.append(("order", f"O{order}R{_canon(rule.number) or rule.number}", _subs(rule.subs)))
                i += 2
                continue
            out.append(("order", f"O{order}", ()))
        elif r.kind in KEYED_KINDS and r.number:
            num = _canon(r.number)
            if num:
                out.append((r.kind, num, _subs(r.subs)))
        i += 1
    return list(dict.fromkeys(out))


def _subs(subs: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(canonical_sub(s) for s in subs)


def _canon(number: str) -> str | None:
    try:
        return canonical_section(number)
    except InvalidSectionNumberError:
        return None


def _arabic(number: str) -> str:
    s = number.upper().split("-")[0].strip()
    if s.isdigit():
        return s
    if s and all(ch in "IVXLC" for ch in s):
        return str(roman_value(s))
    return s
