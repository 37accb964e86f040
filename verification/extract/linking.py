"""Turning candidates into citations: Act codes for statutes, a statute for every provision, keys.

A provision belongs to the statute written right after it ("Section 302 IPC", "Section 302 of the Indian
Penal Code", "u/s 138 of the N.I. Act"), or, failing that, right before it ("IPC Section 302"). Provisions
joined by "read with", "r/w", "and" or "," share the statute named at the end of the chain
("Section 302 read with Section 34 IPC": both are IPC). "the said Act" resolves to the last Act named
before it, preferring one with the same head word ("the said Code" -> the last Code); "the Act" and "the Code"
alone resolve to the last statute with that head word ("Section 142 of the Act" after "Section 138 of the
Negotiable Instruments Act, 1881" is NI Act 142; "the Code" after "Cr.P.C." is the CrPC).

A section with no statute beside it belongs to the last statute named before it in the same sentence ("Under
the Indian Penal Code, the punishment in section 420 ..."); a bare section with no statute before it in its
sentence stays unlinked (act ''), never guessed. An Article with no statute is an Article of the Constitution,
unless "of" or "to" follows it ("Article 3 of the Convention").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from graph_schema.errors import ActYearMismatchError, LegalRagError
from graph_schema.model import CitationKey
from verification.extract.pipeline import Candidate
from verification.extract.provisions import provision_keys
from verification.model import Citation, Label

ActResolve = Callable[[str], str]
KEY_KINDS = frozenset({"section", "article"})
CONSTITUTION_CODE = "COI"
"""The Constitution's code, also when the resolver (the graph's Acts) does not hold it: an Article is then
reported as an Article of an Act the graph does not hold, not as a provision with no statute."""
# Kinds that take the statute named earlier in their sentence. Not articles (Acts have sections; a stray
# "Article 21" after "the CrPC" is still the Constitution's) and not rules (they belong to Rules, not the Act).
_INHERITING = frozenset({"section", "order"})

# Between a provision and the statute it belongs to: " ", ", ", " of the ", " under the ", " of said".
_AFTER = re.compile(r"\s?(?:[,(]\s?)?(?:(?:of|OF|Of|under|in|to)\s+)?(?:(?:the|The|THE)\s+)?")
# Between a statute and a provision that follows it: "IPC Section 302", "Cr.P.C., Section 482".
_BEFORE = re.compile(r"\s?(?:,\s?)?")
# Between two provisions of one chain: "read with", "r/w", "and", ",", "/".
_CHAIN = re.compile(r"\s?,?\s?(?:(?:each\s+)?(?:read\s+with|r\s?/\s?w|R/W|and|or|&|/|along\s+with|with)\s?)?")
_BARE_REFERENCE = re.compile(r"(?:the|The|THE)\s")  # "the Act" and not "said Act": see ``statutes.find_said``
_BRACKET_TAIL = re.compile(r"\s*\([^()]*\)\s*$")
_YEAR_TAIL = re.compile(r"[\s,.]*(?:of\s*)?\(?\d{4}\)?\s*$")
_SPACED_INITIALS = re.compile(r"(?<=\.)\s+(?=[A-Z][a-z]?\.)")


def resolve_statute(name: str, resolve_act: ActResolve) -> str | None:
    """Act code for a statute as written, or None when no resolver spelling knows it.

    A name whose year is not its Act's ("Code of Criminal Procedure, 1898") is None: dropping the
    year would make it the 1973 Code."""
    for candidate in _spellings(name):
        try:
            return resolve_act(candidate)
        except ActYearMismatchError:
            return None
        except LegalRagError:
            continue
    return None


def _spellings(name: str) -> list[str]:
    """'Cr. P. C.' -> 'Cr.P.C.'; 'Hindu Marriage Act, 1955 (Act No. 25 of 1955)' -> '... Act, 1955' -> '... Act'."""
    out: list[str] = []
    s = _SPACED_INITIALS.sub("", name.strip())
    for variant in (s, _BRACKET_TAIL.sub("", s)):
        out.append(variant)
        out.append(_YEAR_TAIL.sub("", variant))
    return [v for v in dict.fromkeys(out) if v]


def build_citations(text: str, cands: list[Candidate], resolve_act: ActResolve) -> list[Citation]:
    """Citations for ``cands`` (sorted, non-overlapping), with statutes resolved and provisions linked."""
    acts: list[str | None] = []
    antecedent: dict[int, int] = {}
    resolved: dict[str, str | None] = {}
    last: int | None = None  # the last statute named
    last_by_head: dict[str, int] = {}  # ... and the last one whose name has this word ("act", "code")
    for i, c in enumerate(cands):
        if c.label is not Label.STATUTE:
            acts.append(None)
            continue
        if c.said:
            head = re.findall(r"[a-z]+", (c.name or "").lower())[-1:]
            # "the said Act" falls back to the last statute of any kind; a bare "the Code" means a Code.
            fallback = None if _BARE_REFERENCE.match(c.name or "") else last
            j = last_by_head.get(head[0], fallback) if head else fallback
            if j is not None:
                antecedent[i] = j
            acts.append(acts[j] if j is not None else None)
            continue
        name = c.name or text[c.start : c.end]
        if name not in resolved:
            resolved[name] = resolve_statute(name, resolve_act)
            if resolved[name] is None and c.kind == "constitution":
                resolved[name] = CONSTITUTION_CODE
        acts.append(resolved[name])
        last = i
        for word in re.findall(r"[a-z]+", name.lower()):
            last_by_head[word] = i
    links = _link(text, cands)
    out: list[Citation] = []
    for i, c in enumerate(cands):
        span = text[c.start : c.end]
        if c.label is Label.PROVISION:
            statute = links.get(i)
            code = acts[statute] if statute is not None else None
            if statute is None and c.kind == "article" and not _OF_SOMETHING.match(text, c.end):
                code = CONSTITUTION_CODE
            assert c.provision is not None
            refs = provision_keys(c.provision)
            # Only sections and articles are keys: the statute graph holds an Act's sections, and a key it
            # cannot hold ("Rule 3" of some Rules, "Order 39 Rule 1" of the CPC's First Schedule) would be
            # reported as not found. The others are kept, readable, in ``extra["refs"]``.
            keys = tuple(CitationKey(code or "", num, sub) for kind, num, sub in refs if kind in KEY_KINDS)
            units = tuple((kind, CitationKey(code or "", num, sub)) for kind, num, sub in refs if kind not in KEY_KINDS)
            extra = {"refs": "; ".join(_ref_label(kind, k.section, k.sub) for kind, k in units)} if units else {}
            out.append(Citation(c.start, c.end, span, c.label, keys=keys, act=code, statute=statute, kind=c.kind,
                                extra=extra, units=units))
        elif c.label is Label.STATUTE:
            extra = {"antecedent": str(antecedent[i])} if i in antecedent else {}
            out.append(Citation(c.start, c.end, span, c.label, act=acts[i], said=c.said, kind=c.kind, extra=extra))
        else:
            out.append(Citation(c.start, c.end, span, c.label, normalised=c.normalised, kind=c.kind))
    return out


def _ref_label(kind: str, number: str, sub: tuple[str, ...]) -> str:
    """'O39R1', 'Rule 3(1)(b)', 'Regulation 16'."""
    label = number + "".join(f"({s})" for s in sub)
    return label if kind == "order" else f"{kind.capitalize()} {label}"


def _link(text: str, cands: list[Candidate]) -> dict[int, int]:
    """Index of the statute each provision belongs to."""
    links: dict[int, int] = {}
    # Right to left, so that a "read with" chain can borrow the statute its last member found.
    for i in range(len(cands) - 1, -1, -1):
        if cands[i].label is not Label.PROVISION:
            continue
        nxt = i + 1
        if nxt < len(cands):
            gap_start, gap_end = cands[i].end, cands[nxt].start
            if cands[nxt].label is Label.STATUTE and _spans(_AFTER, text, gap_start, gap_end):
                links[i] = nxt
                continue
            if cands[nxt].label is Label.PROVISION and nxt in links and _spans(_CHAIN, text, gap_start, gap_end):
                links[i] = links[nxt]
                continue
        prev = i - 1
        if (prev >= 0 and cands[prev].label is Label.STATUTE and _spans(_BEFORE, text, cands[prev].end, cands[i].start)
                and (cands[i].kind != "article" or cands[prev].kind == "constitution")):
            links[i] = prev  # "IPC Section 302"; but "Under the CrPC, Article 21 ..." is the Constitution's
    _link_back(text, cands, links)
    return links


_NEW_CLAUSE = re.compile(r"\?|[;,]\s*(?:and\s+|but\s+|so\s+)?(?:can|could|will|would|should|may|must|is|are|does|do|"
                         r"did)\b", re.IGNORECASE)
"""A clause that asks anew ("The FIR under the IPC was lodged in 2023; can the High Court quash it under section
482?"): its section is the procedure code's, not the statute of the clause before, so nothing is inherited."""


def _link_back(text: str, cands: list[Candidate], links: dict[int, int]) -> None:
    """Link each section (or Order) still without a statute to the last statute named before it in its clause:
    "Under the Indian Penal Code, the punishment in section 420 ...". A statute in an earlier sentence is too far
    ("The complaint under the NI Act was dismissed. Under section 5 the delay may be condoned" means the Limitation
    Act), and so is one before a new question (``_NEW_CLAUSE``): a wrong Act would report a section
    of it verified or repealed, where no Act reports the section unchecked."""
    last: int | None = None
    for i, c in enumerate(cands):
        if c.label is Label.STATUTE:
            last = i
        elif (c.label is Label.PROVISION and i not in links and last is not None and c.kind in _INHERITING
              and not _sentence_ends(text, cands[last].end, c.start)
              and not _NEW_CLAUSE.search(text, cands[last].end, c.start)):
            links[i] = last


# A sentence ends at ".", "?" or "!" (and closing quotes or brackets) before a capital or a line break, at a blank
# line, and before a list item or heading on a new line (answers are often Markdown: "- Section 438 ...").
_SENTENCE_END = re.compile(r"[.?!][\"'\u201d)\]]*(?:\s+[\"'\u201c(\[]*[A-Z]|[ \t]*\n)|\n[ \t]*\n"
                           r"|\n[ \t]*(?:[-*\u2022#]|\d{1,2}[.)])")
# A full stop after these does not end a sentence: "Mr. Rao", "No. 5", "Crl. A.", "r/w s. 34".
_ABBREVIATED = re.compile(r"(?:^|\s|\()(?:[A-Za-z]|No|Nos|Sec|Secs|Ss|ss|Art|Arts|Cl|Mr|Mrs|Ms|Dr|Sh|Smt|Ors|Anr|"
                          r"Crl|Cri|Cr|Vol|Ch|viz|vs|Vs|etc|i\.e|e\.g|u/s|U/S|r/w|[A-Za-z]\.[A-Za-z])$")
_OF_SOMETHING = re.compile(r"\s*,?\s*(?:of|to)\s")


def _sentence_ends(text: str, start: int, end: int) -> bool:
    """Does a sentence end between ``start`` and ``end``? The character before ``start`` is looked at too: a
    statute written "Cr.P.C." may end its sentence with its own full stop."""
    # The capital that starts the next sentence may be the provision's own head word ("... IPC. Sec. 5").
    for m in _SENTENCE_END.finditer(text, max(0, start - 1), min(len(text), end + 3)):
        if m.start() >= end:
            break
        if m.start() == start - 1 or "\n" in m.group():
            return True
        if not _ABBREVIATED.search(text, max(0, m.start() - 6), m.start()):
            return True
    return False


def _spans(rx: re.Pattern[str], text: str, start: int, end: int) -> bool:
    m = rx.match(text, start, end)
    return m is not None and m.end() == end


# Section numbers written beside an Act's name with no head word: "IPC 420", "BNS 318(4) and 316", "a 138 NI Act
# complaint". Scanned after extraction rather than as PROVISION spans: InLegalNER labels no bare number, and a
# number beside a name is a section only when that name is a statute.
_NUMBER_AFTER = re.compile(
    r"[ \t]*(\d{1,3}[A-Z]{0,2}(?:\(\d+\))*(?:[ \t]*(?:,|and|&|/)[ \t]*\d{1,3}[A-Z]{0,2})*)\b"
    r"(?![ \t]*(?:%|per\b|(?:grams?|gms?|kgs?|kilo\w*|days?|weeks?|months?|years?|hours?|rupees|lakhs?|crores?|"
    r"persons?|times)\b))",  # "NDPS Act 20 grams" is a quantity
    re.IGNORECASE,
)
# A number before an Act's name, with its sub-units ("303(2)"). After "under" (how FIRs and charge sheets are quoted)
# also the numbers listed before it ("under 420/406 IPC", "under 498A, 406, and 120B IPC", "under 302 r/w 34 IPC") and
# "of the" before the Act ("under 138 of the NI Act"). Elsewhere only the number next to the name: in a story the
# numbers before it are ages, amounts and counts ("aged 10 and 12 and 498A IPC", "FIR No. 112/23 IPC", "Serial No. 23
# of the NDPS Act").
_BEFORE_ITEM = r"\d{1,3}[A-Z]{0,2}(?:\([0-9A-Za-z]{1,4}\))*"
_NUMBER_BEFORE = re.compile(rf"\b(?:an?|the|under|of)[ \t]+({_BEFORE_ITEM}(?!,\d))[ \t]*$", re.IGNORECASE)
"""'a 138 NI Act complaint', 'under 307 IPC', 'under 303(2) BNS'; not "50,000" or "1,50,000", an amount."""
_LIST_ITEM = r"[1-9]\d{0,2}[A-Z]{0,2}(?:\([0-9A-Za-z]{1,4}\))*"  # "under 50,000" lists no section "000"
_UNDER_LIST = re.compile(
    rf"\bunder[ \t]+({_LIST_ITEM}(?:[ \t]*(?:,[ \t]*(?:(?:and|or|&)[ \t]+)?|and[ \t]|or[ \t]|&|r/w|read[ \t]+with|/)"
    rf"[ \t]*{_LIST_ITEM})+)[ \t]*(?:of[ \t]+(?:the[ \t]+)?)?$"
    rf"|\bunder[ \t]+({_BEFORE_ITEM})[ \t]+of[ \t]+(?:the[ \t]+)?$",
    re.IGNORECASE,
)
_BARE_BEFORE = re.compile(r"(?<![\d.,/])(?<!Rs )(?<!Rs\. )(?<!Rs)(?<!INR )(?<!\u20b9 )(?<!\u20b9)"
                          r"(?:^|(?<=[\s(\[\"\u2018\u201c])|(?<=\s'))"
                          r"(\d{2,3}[A-Z]{0,2}(?:\([0-9A-Za-z]{1,4}\))*)(?![,/]\d)[ \t]*$")
"""A number of two or three digits right before an Act with any word before it, or a quote ("will it be 376 IPC",
"the charge sheet mentions 302 IPC", "the FIR copy says '379 IPC'"): lawyers write sections so. A single digit is a
count ("Are 2 IPC offences ...") unless an article or "under" says otherwise (``_NUMBER_BEFORE``); an amount ("Rs
500 IPC") is no section."""
_BEFORE_WINDOW = 160
"""Characters before an Act's name searched for its numbers: the longest list after "under" is well within it, and
the search costs no more for a long text with many Acts named (a question of 2,000 characters names hundreds)."""
_COUNTED = re.compile(r"[ \t]+(?:offen[cs]es|sections|provisions|cases|matters|charges)\b", re.IGNORECASE)
"""After the Act, a plural noun makes the number a count ("10 IPC offences")."""
_NUMBER = re.compile(r"(?<![\d(])\d{1,3}[A-Z]{0,2}")  # a main number, not the "4" of "318(4)"


def adjacent_sections(text: str, cits: list[Citation]) -> list[tuple[int, Citation, str]]:
    """(position, statute, section number) for each bare number right after a statute ("IPC 420", "BNS 318 and
    316") or right before one ("a 138 NI Act complaint"), where no other citation already covers it. "the said
    Act" back-references are left out (the statute they refer to is named elsewhere, with its own numbers)."""

    def covered(pos: int) -> bool:
        return any(c.start <= pos < c.end for c in cits)

    out: list[tuple[int, Citation, str]] = []
    for c in cits:
        if c.label is not Label.STATUTE or c.said:
            continue
        if (m := _NUMBER_AFTER.match(text, c.end)) and not covered(m.start(1)):
            out.extend((m.start(1) + n.start(), c, n.group()) for n in _NUMBER.finditer(m.group(1)))
        if _COUNTED.match(text, c.end):
            continue  # "10 IPC offences", "the 20 of the IPC offences": a count
        window = max(0, c.start - _BEFORE_WINDOW)
        m = (_UNDER_LIST.search(text, window, c.start) or _NUMBER_BEFORE.search(text, window, c.start)
             or _BARE_BEFORE.search(text, window, c.start))
        if m:
            group = m.lastindex or 1  # _UNDER_LIST's list or its "under N of the", whichever matched
            out.extend((m.start(group) + n.start(), c, n.group()) for n in _NUMBER.finditer(m.group(group))
                       if not n.group().startswith("0") and not covered(m.start(group) + n.start()))
    return sorted(out, key=lambda found: found[0])

