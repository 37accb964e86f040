"""Statute names: "Indian Penal Code, 1860", "Evidence Act 1872", "NDPS Act", "Act LIII of 1948", "Constitution".

Named statutes are found from their head word ("Act", "Code", "Rules", "Ordinance", "Adhiniyam", ...) by
walking left over the words of the name, then right over a year or an Act number. Bare abbreviations
("IPC", "Cr.P.C.", "BNSS") come from a gazetteer matched by spaCy's PhraseMatcher (see ``pipeline``).

Span conventions follow InLegalNER, checked against its training split: a leading "the" is not part of
the span ("the [Arms Act]"), the year is ("[Land Acquisition Act, 1894]"), and so is an Act number in
brackets ("[Reformatory Schools Act, 1897 (Central Act No. 8 of 1897)]"). "the Act", "the Code" and "the said
Act" are never annotated, but we report them as back-references (``said=True``, left out of the InLegalNER score)
because a checker needs to know which Act "Section 142 of the Act" means.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from verification.extract.words import words_before

_SP = r"[ \t\u00a0]"
_HEAD_RE = re.compile(
    r"(?P<head>Acts?|ACT|Code|CODE|Rules|RULES|Regulations?|REGULATIONS|Bye-laws|Ordinance|ORDINANCE|Order"
    r"|Adhiniyam|Sanhita|Manual|Constitution|CONSTITUTION|Constn\.?)(?![A-Za-z])"
)
# A heading word that may end a name only when the name is clearly one: "Import (Control) Order, 1955".
_WEAK_HEADS = frozenset({"Order", "Manual", "Regulation"})
_LOWER_CONNECTORS = ("of", "and", "the", "for", "on", "in", "to", "from", "at", "with", "against", "se", "cum")
# "Recovery Of Debts And Bankruptcy Act": title case and capitals join words as well.
_CONNECTORS = frozenset({"&", *_LOWER_CONNECTORS, *(w.title() for w in _LOWER_CONNECTORS),
                         *(w.upper() for w in _LOWER_CONNECTORS)})
_LEADING_CONNECTORS = _CONNECTORS | {"by"}
# Capitalised words that start a sentence or a clause, never a statute's name: "Under Indian Penal Code".
_STOP_WORDS = frozenset(
    {
        "The", "In", "Under", "By", "As", "See", "Vide", "That", "This", "These", "Those", "Both", "Said", "Such",
        "Whereas", "Since", "If", "When", "Where", "While", "Section", "Sections", "Article", "Articles", "Rule",
        "Chapter", "Clause", "Schedule", "Part", "Sec", "Sec.", "S.", "Art.", "Order", "Also", "Or",
        "Hence", "Thus", "Therefore", "However", "Further", "Accordingly",
        "It", "Its", "An", "A", "Any", "No", "Not", "Old", "Amended",
        "Present", "Impugned", "Aforesaid", "Same", "Relevant", "Respective",
        "Learned", "Hon'ble", "Honble", "Counsel", "U/S", "U/s", "Sub", "Federal", "Scheme",
        "THE", "UNDER", "SECTION", "SECTIONS", "BY", "Ss.", "Act", "Code", "Rules",
        "Regulations", "Ordinance", "Constitution", "Now", "Then", "Even", "Only", "Whether", "Is", "Was", "Are",
        "Were", "Has", "Have", "Had", "Being", "Be", "Which", "Who", "What", "Though", "Although", "But", "Once",
        "After", "Before", "Prior", "Upon", "Between", "Within", "Without", "Per", "Re",
        # a question's first word, never a statute's ("Does the Probation of Offenders Act allow ...?")
        "Does", "Do", "Did", "Can", "Could", "Will", "Would", "Should", "Shall", "Must", "Might", "How", "Why",
        "Please", "Kindly", "Explain", "Tell", "According", "Apart", "Besides", "Isn't", "Doesn't", "Can't", "Won't",
    }
)
# Generic adjectives that make "Central Act" and "Bihar Act" statutes but "the Special Act" not.
_GENERIC_SINGLE = frozenset(
    {"Special", "General", "Local", "Earlier", "Later", "Subsequent", "Previous", "Existing", "Repealed",
     "Repealing", "Validating", "Validation", "Amendment", "Finance", "Union", "State", "Concerned", "Other",
     "Main", "New", "Amending", "Principal", "Parent", "Original", "Present", "Impugned", "Old"}
)
_HEAD_AFTER_BRACKET = re.compile(r"\s*(?:\([^()]{1,40}\)\s*)*(?:Act|Code|Rules|Regulations|Order|Ordinance)\b")
# A word of a name: capitalised, no digits ("S.147" is a section), not a Roman numeral ("Chapter XIV of the Act").
_CAP_WORD = re.compile(r"^(?![IVXLC]+$)(?:[A-Z][A-Za-z'\u2019\-&./]*|\d{1,2}(?:st|nd|rd|th))$")
_YEAR = r"(?:1[6-9]\d\d|20\d\d)"
# ", 1860", " 1872", " of 1985", ". 1948", " (1919)", ",1988".
_YEAR_TAIL = re.compile(rf"(?:,|\.)?{_SP}?(?:of{_SP})?(?:\({_YEAR}\)|{_YEAR})(?![\d])")
# "Act 14 of 1982", "Act No. 7 of 1964", "Act XV of 1946", "Act 81 of 86", "Act No.54 of 1994".
_NUMBER_TAIL = re.compile(
    rf",?{_SP}?(?:No\.?{_SP}?)?(?:\d{{1,3}}|[IVXLC]{{1,8}})(?:{_SP}?of{_SP}?|/)(?:{_YEAR}|\d\d)(?![\d])"
)
# "(Central Act No. 8 of 1897)", "(Act No. 37 of 1995)", "(No. XII of 1951)", "(Tamil Nadu Act No.27 of 1998)".
_BRACKET_TAIL = re.compile(
    rf"{_SP}?\((?:[A-Z][\w.]*{_SP}){{0,3}}(?:Act{_SP}?)?(?:No\.?{_SP}?)?(?:\d{{1,3}}|[IVXLC]{{1,8}})"
    rf"{_SP}of{_SP}{_YEAR}\)"
)
# "Code of Criminal Procedure", "Constitution of India": the name runs on after the head.
_OF_TAIL = re.compile(rf"{_SP}(?:of|OF|on){_SP}((?:[A-Z][\w\-]*{_SP}?){{1,3}})")
_SAID = re.compile(
    rf"\b(?:said|aforesaid|above[\-{_SP}]?said|above[\-{_SP}]mentioned){_SP}(Act|Code|Ordinance|Sanhita|Adhiniyam)"
    r"(?![A-Za-z])"
)
# "Section 142 of the Act": not "the Act of 1988", "the Code of Criminal Procedure", "the Act, 1956", "the Rules
# (as amended)". No look-behind in front ("bathe Act" is ruled out in ``find_said``): it would make every
# position of a text a start to try.
_BARE = re.compile(
    rf"(?:the|The|THE){_SP}+(Act|Code|Ordinance|Sanhita|Adhiniyam|Rules|Regulations)(?![\w\-])"
    rf"(?!{_SP}?,?{_SP}?(?:of|OF|Of|No\b|\d|\())"
)
_WORD_CHAR = re.compile(r"[\w\-]")  # "bathe Act", "lathe Code" are not "the Act"
_MAX_WORDS = 16


@dataclass(frozen=True, slots=True)
class StatuteMatch:
    """A statute span; ``said`` marks "the said Act" and similar back-references."""

    start: int
    end: int
    name: str
    said: bool = False
    kind: str = "name"


def find_named_statutes(text: str) -> list[StatuteMatch]:
    """Statutes named by a head word ("... Act", "... Code", "Constitution of India"), in order."""
    out: list[StatuteMatch] = []
    last_end = 0
    for m in _HEAD_RE.finditer(text):
        if m.start() < last_end or (m.start() and text[m.start() - 1].isalpha()) or _in_brackets(text, m.start()):
            continue
        found = _statute_at(text, m.start(), m.end(), m.group("head"))
        if found is not None and found.start >= last_end:
            out.append(found)
            last_end = found.end
    return out


def _in_brackets(text: str, pos: int) -> bool:
    """A head inside a bracketed part of a longer name: "Information Technology (Intermediary Guidelines and
    Digital Media Ethics Code) Rules, 2021" is named by its last head, "Rules"."""
    before = text[max(0, pos - 90) : pos]
    opened = before.rfind("(")
    if opened < 0 or before.rfind(")") > opened:
        return False
    after = text[pos : pos + 60]
    close = after.find(")")
    if close < 0 or after.find("(", 0, close) >= 0:
        return False
    # Only when the name goes on to its own head after the bracket; "(Act No. 33 of 1920)" is a statute.
    return _HEAD_AFTER_BRACKET.match(after, close + 1) is not None


def find_said(text: str) -> list[StatuteMatch]:
    """Back-references to a statute named before: "the said Act", "the aforesaid Code", and "the Act", "the
    Code" alone.

    "Section 142 of the Act" after "section 138 of the Negotiable Instruments Act, 1881" means the NI Act;
    ``linking`` finds which statute each one means. A bare "the Act" is only a back-reference when a statute
    with that head word was named earlier in the text: in "What is the punishment under the Act?" there is
    nothing to refer to, and a STATUTE span would only be an Act nobody can check. The span of a bare one is
    the head word ("the [Act]"), so that "of the" still joins a provision to it.
    """
    out = [StatuteMatch(m.start(), m.end(), m.group(0), said=True, kind="said") for m in _SAID.finditer(text)]
    bare = [m for m in _BARE.finditer(text) if m.start() == 0 or not _WORD_CHAR.match(text, m.start() - 1)]
    if bare:
        first = _first_named(text)
        out.extend(StatuteMatch(m.start(1), m.end(1), m.group(0), said=True, kind="the") for m in bare
                   if first.get(m.group(1).lower(), len(text)) < m.start())
        out.sort(key=lambda m: m.start)
    return out


def _first_named(text: str) -> dict[str, int]:
    """Where a statute with each head word ("act", "code", "rules"...) is first named, by name or abbreviation."""
    first: dict[str, int] = {}
    named = [(m.start, m.name) for m in find_named_statutes(text)]
    named.extend((m.start(), _ABBREVIATION_NAMES[m.group(0).lower()]) for m in _ABBREVIATION_RE.finditer(text))
    for start, name in named:
        for word in re.findall(r"[a-z]+", name.lower()):
            if start < first.get(word, len(text)):
                first[word] = start
    return first


def _statute_at(text: str, head_start: int, head_end: int, head: str) -> StatuteMatch | None:
    if head == "Acts":
        return None
    if head.startswith("Constitution") or head.startswith("CONSTITUTION") or head.startswith("Constn"):
        return _constitution(text, head_start, head_end)
    start = _walk_left(text, head_start)
    end = head_end
    of = _OF_TAIL.match(text, end) if head in ("Code", "CODE") else None
    if of is not None:
        end = of.start(1) + len(of.group(1).rstrip())
    named = start < head_start or of is not None
    tail_end = _tail(text, end, numbered=True)
    if not named:
        # "Act LIII of 1948", "Ordinance XXVII of 1949": a bare head needs an Act number.
        num = _NUMBER_TAIL.match(text, head_end)
        if head not in ("Act", "Ordinance") or num is None:
            return None
        return StatuteMatch(head_start, tail_end, text[head_start:tail_end], kind="number")
    if head in _WEAK_HEADS and not (_YEAR_TAIL.match(text, end) or "(" in text[start:head_start]):
        return None  # "Import (Control) Order, 1955", but not "Appeal from Original Order No. 54 of 1953"
    words = text[start:head_start].split()
    if words and words[-1] in ("the", "The", "THE"):
        return None  # "Schedule-I of the Act", "Parts of the Act": the Act under discussion, unnamed
    if len(words) == 1 and words[0] in _GENERIC_SINGLE and tail_end == end:
        return None
    return StatuteMatch(start, tail_end, full_name(text[start:tail_end]))


# "a Constitution Bench"; foreign constitutions.
# "a Constitution Bench"; "the Constitution of the Board of Regents" (a body's make-up); foreign constitutions.
_NOT_OURS = re.compile(
    r"[ \t]?(?:Bench|bench|BENCH|Benches|of[ \t](?!India\b|INDIA\b|Bharat\b)|and[ \t]function|and[ \t]composition)"
)


def _constitution(text: str, head_start: int, head_end: int) -> StatuteMatch | None:
    if _NOT_OURS.match(text, head_end):
        return None
    start = head_start
    before = text[max(0, head_start - 8) : head_start]
    if before.endswith("Indian "):
        start = head_start - len("Indian ")
    end = head_end
    m = re.match(r"[ \t](?:of|OF)[ \t](India|INDIA|Bharat)(?![A-Za-z])", text[end : end + 14])
    if m:
        end += m.end()
    return StatuteMatch(start, end, text[start:end], kind="constitution")


def _walk_left(text: str, head_start: int) -> int:
    """Start of the name that ends at ``head_start``; ``head_start`` itself when there is none."""
    if head_start and not text[head_start - 1].isspace() and text[head_start - 1] != ".":
        # "M.V.Act" is a name; "NonAct" is not.
        return head_start
    # A name may wrap onto the next line (India Code text is hard-wrapped) but not across a blank line.
    start = head_start
    commas = 0
    for taken, (pos, word) in enumerate(words_before(text, head_start)):
        tok = word
        if tok.endswith(",") and taken and _comma_inside_name(tok, commas):
            # "Goa, Daman and Diu Reorganisation Act", "Micro, Small and Medium Enterprises Development Act"
            tok = tok[:-1]
            commas += 1
        if taken >= _MAX_WORDS or not _name_token(tok) or tok in _STOP_WORDS:
            break
        start = pos
    # Never start on a connector ("of the Indian Penal Code" -> "Indian Penal Code").
    while start < head_start:
        m = re.match(r"\S+", text[start:head_start])
        assert m is not None
        if m.group() in _LEADING_CONNECTORS:
            nxt = re.match(r"\S+\s*", text[start:head_start])
            assert nxt is not None
            start += nxt.end()
        else:
            break
    return start


def _comma_inside_name(token: str, commas: int) -> bool:
    """A comma inside a name joins capitalised words; it never follows an Act's name or abbreviation, so
    "the Indian Penal Code, Arms Act" stays two statutes."""
    word = token[:-1]
    if commas >= 3 or not word or not word[0].isupper() or word in _STOP_WORDS:
        return False
    return not (_HEAD_RE.fullmatch(word) or word.upper() == word)


def _name_token(tok: str) -> bool:
    if tok in _CONNECTORS:
        return True
    if tok[0] == "(":
        # "(Prevention of Atrocities)", "(Amendment)", "(CIS)"; not "(2)", "(J)" or a stray "(PC".
        inner = tok[1:-1].strip()
        return tok[-1] == ")" and len(inner) > 2 and inner[0].isupper() and not inner.isdigit()
    if "(" in tok or ")" in tok:
        return False
    if tok[-1] in ",;:\"'\u2019\u201c\u201d" and tok[-2:-1] not in ("s", "S"):
        return False  # "Agriculturists' Loans Act" keeps its plural possessive
    return bool(_CAP_WORD.match(tok))


def year_tail(text: str, end: int) -> int:
    """End of a year written after an abbreviation: "Cr.P.C. 1973", "IPC, 1860"."""
    return _tail(text, end, numbered=False)


def _tail(text: str, end: int, *, numbered: bool) -> int:
    """Extend a statute name over its year, Act number and bracketed Act number."""
    m = _YEAR_TAIL.match(text, end)
    if m:
        end = m.end()
    elif numbered:
        n = _NUMBER_TAIL.match(text, end)
        if n:
            end = n.end()
    b = _BRACKET_TAIL.match(text, end)
    if b:
        end = b.end()
    return end


# Bare abbreviations, matched token by token and in any case (so "Cr.P.C.", "Cr. P. C.", "Cr. P.C.", "crpc" and
# "CrPc" are one entry), each with the full name an Act resolver knows. Abbreviations that end in "Act" ("NDPS
# Act") need no entry: the head-word scanner finds them. Only abbreviations that mean one Act: not "TPA" (also a
# third-party administrator in insurance), not "ICA" or "HSA".
ABBREVIATIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Indian Penal Code", ("IPC", "I.P.C.", "I.P.C", "Indian P.C.")),
    ("Code of Criminal Procedure", ("CrPC", "Cr.P.C.", "Cr.P.C", "Cr.PC", "Cr PC", "CrP.C.", "Cr.PC.", "Cri.P.C.",
                                    "Crl.P.C.", "Criminal P.C.", "Code Cr.P.C.", "Cr.P.Code")),
    ("Code of Civil Procedure", ("CPC", "C.P.C.", "C.P.C", "C P.C.", "Civil P.C.", "Civil P.C", "Civ. P.C.", "C.P.Code",
                                 "Civil P.Code")),
    ("Bharatiya Nyaya Sanhita", ("BNS", "B.N.S.")),
    ("Bharatiya Nagarik Suraksha Sanhita", ("BNSS", "B.N.S.S.")),
    ("Bharatiya Sakshya Adhiniyam", ("BSA", "B.S.A.")),
    ("Indian Evidence Act", ("IEA", "I.E.A.")),
    ("Hindu Marriage Act", ("HMA", "H.M.A.")),
    ("Hindu Adoptions and Maintenance Act", ("HAMA", "H.A.M.A.")),
    ("Protection of Women from Domestic Violence Act", ("PWDVA", "P.W.D.V.A.")),
    ("Specific Relief Act", ("SRA", "S.R.A.")),
    # "CPA" only with its year: the Consumer Protection Acts of 1986 and 2019 number their sections differently.
    ("Consumer Protection Act", ("CPA", "C.P.A.")),
    ("Prevention of Terrorism Act", ("POTA",)),
    ("Terrorist and Disruptive Activities (Prevention) Act", ("TADA",)),
    ("Prevention of Money-laundering Act", ("PMLA",)),
    ("Unlawful Activities (Prevention) Act", ("UAPA",)),
    ("Maharashtra Control of Organised Crime Act", ("MCOCA",)),
    ("POCSO Act", ("POCSO",)),
    ("Foreign Exchange Management Act", ("FEMA",)),
    ("Foreign Exchange Regulation Act", ("FERA",)),
    ("Conservation of Foreign Exchange and Prevention of Smuggling Activities Act", ("COFEPOSA",)),
    ("Monopolies and Restrictive Trade Practices Act", ("MRTP",)),
    ("Securitisation and Reconstruction of Financial Assets and Enforcement of Security Interest Act",
     ("SARFAESI",)),
    ("Insolvency and Bankruptcy Code", ("IBC",)),
    ("Double Taxation Avoidance Agreement", ("DTAA",)),
    ("Delhi Rent Control Act", ("DRCA",)),
    ("NDPS Act", ("NDPS",)),
    ("Sale of Goods Act", ("SOGA",)),
)
# Initials of an Act's name with "Act" after them, which the head-word scanner finds but an Act resolver does not
# know, each with the full name it does. Only initials that mean one Act: not "D.P. Act" (Dowry Prohibition or
# Delhi Police), "P.O. Act" (Probation of Offenders or Post Office), "C.P. Act" (the Consumer Protection Act of
# 1986 or of 2019).
SHORT_NAMES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Protection of Women from Domestic Violence Act", ("PWDV Act", "P.W.D.V. Act")),
    ("Indian Evidence Act", ("I.E. Act",)),
    ("Specific Relief Act", ("S.R. Act",)),
    ("Hindu Succession Act", ("H.S. Act",)),
    ("Hindu Adoptions and Maintenance Act", ("H.A.M. Act",)),
    ("Special Marriage Act", ("S.M. Act",)),
    ("Legal Services Authorities Act", ("L.S.A. Act",)),
    ("Dissolution of Muslim Marriages Act", ("D.M.M. Act",)),
    ("Bankers' Books Evidence Act", ("B.B.E. Act",)),
)
_SHORT_NAMES = {re.sub(r"[\s.]", "", v).lower(): canonical for canonical, variants in SHORT_NAMES for v in variants}
_ACT_THEN_TAIL = re.compile(r"(.*?\bAct)(\W.*)?", re.DOTALL)


def full_name(name: str) -> str:
    """The full name for initials in ``SHORT_NAMES``, with the year as written: "PWDV Act, 2005" ->
    "Protection of Women from Domestic Violence Act, 2005"; any other name as it is."""
    m = _ACT_THEN_TAIL.fullmatch(name)
    if m is None:
        return name
    canonical = _SHORT_NAMES.get(re.sub(r"[\s.]", "", m.group(1)).lower())
    return canonical + (m.group(2) or "") if canonical else name


NEEDS_YEAR = frozenset({"Consumer Protection Act"})
"""Abbreviations that name an Act only with a year after them ("CPA 2019", not "CPA")."""
_ABBREVIATION_NAMES = {variant.lower(): canonical for canonical, variants in ABBREVIATIONS for variant in variants}
# The abbreviations as plain text, for ``find_said``; the pipeline's PhraseMatcher also finds spaced forms.
_ABBREVIATION_RE = re.compile(
    r"(?<![\w.])(?:" + "|".join(re.escape(v) for v in sorted(_ABBREVIATION_NAMES, key=len, reverse=True)) + r")(?!\w)",
    re.IGNORECASE,
)
