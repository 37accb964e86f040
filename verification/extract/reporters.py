"""Reporter and neutral citations of judgments: "(2014) 8 SCC 273", "AIR 1973 SC 1461", "2024 INSC 123".

Each pattern is one regex with bounded repetition and no nested quantifiers, so no input makes it
backtrack for long. A citation "core" is one reporter reference; ``extend_chain`` grows a core over
pinpoints (", 213", "at 897"), court markers ("(SC)", "(FB)"), footnote marks and parallel citations joined by
":", ";", "=" or "/" ("(1999) 6 SCC 667 = AIR 1999 SC 2979"), which InLegalNER annotates as one PRECEDENT.
Citations in a reported judgment's footnotes and "CITATION:" header are found here too (``is_footnote``,
``report_headers``): they are not precedents the sentence relies on.
"""

from __future__ import annotations

import bisect
import re

from graph_schema.citations import case_citations

_SP = r"[ \t\u00a0]"
_YR = r"(?:1[6-9]\d\d|20\d\d)"
# Not a date's "3/2014"; but "174/23 Taxman 219" and "68/[1980] 3 Taxman 487" are a page and a parallel report.
_PAGE = rf"\d{{1,5}}(?!\d|/(?![\[(]|\d{{1,4}}{_SP}[A-Z]))"
# One word of a reporter's abbreviation: "SCC", "Cri.", "L.J.", "ITR", "Supp.", "OnLine", "Ker", "(Cri)".
_REPWORD = (
    r"(?!Nos?\b)(?:[A-Z](?:\.[A-Z])+\.?|[A-Z][A-Za-z&]{0,10}\.?"
    r"|\((?:L&S|[A-Z][A-Za-z]{0,8})\.?\))"
)
# Words that follow a year and a number in ordinary prose and never open a reporter's name.
_NOT_REPORTER = (
    r"(?!(?:Sections?|Articles?|Rules?|Orders?|Acts?|Nos?|Page|Pages|Paras?|Paragraph|Vol|Volume|Chapter|Part|"
    r"Schedule|Clauses?|Ex|PW|DW|CW|Annexure|Of|And|The|In|At|On|To|OF|AND|THE|IN|AT|ON|TO|NOS?|Rs|FIR|Dated|Dt|"
    r"Exhibit|Case|Cases|"
    r"Appeal|Petition|Writ|Suit|Complaint|CC|WP|CWP|SLP|Sessions|Civil|Misc|Application|Revision|"
    r"Reference|Regular|First|Second|Special|Original|OS|RFA|RSA|CRP|MA|MAC|MACT|ITA|ST|SC/ST|U/s|Sec|Ss|"
    r"January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|"
    r"Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|A\.?M|P\.?M|Hrs|Km|Kms|Kg|Kgs|Mr|Mrs|Ms|Dr|Smt|Shri|Sri)\b)"
)
# "2007 (Y) PW25-Dr. M.Sathikumar": a witness number is never part of a reporter's name.
_NOT_WITNESS = r"(?!(?:PW|DW|CW)(?:\b|\d))"
# Words are separated by a space or follow a dot ("Cri.L.J."), so "SCC" is never split into "S" "CC".
# "MLJ(Cri)": a bracketed series glued to the reporter.
_REP = rf"{_NOT_REPORTER}{_REPWORD}(?:(?:(?<=\.){_SP}?|{_SP}|(?=\()){_NOT_WITNESS}{_REPWORD}){{0,3}}"
_VOLP = rf"(?:\({_SP}?\d{{1,3}}{_SP}?\)|\d{{1,4}}(?![\d/]))"
_SUPP = rf"(?:\(?(?:Supplementary|Supp?l?\.?)\)?{_SP}?(?:\(?\d{{1,2}}\)?{_SP}?)?)"
# Court names after "AIR <year>": "SC", "Supreme Court", "Mad", "Madh Pra", "Bom.", "P.C.", "N.S.C.", "Punjab and
# Haryana".
_AIR_COURT = (
    rf"(?:\(?[A-Z][A-Za-z]{{0,10}}\.?\)?|(?:[A-Z]\.){{1,3}})"
    rf"(?:{_SP}?(?:&{_SP}?|and{_SP})?(?:[A-Z][A-Za-z]{{0,10}}\.?|(?:[A-Z]\.){{1,3}}))?"
)

_CORES: tuple[tuple[str, str], ...] = (
    # (2014) 8 SCC 273 ; [1955] 1 S.C.R. 206 ; (2003)7 SCC-750 ; [1976] Supp. S.C.R. 489 ; (2000) (1) SCC 168
    ("reporter", rf"[\(\[]{_SP}?{_YR}{_SP}?[\)\]]{_SP}?(?:{_VOLP}(?:{_SP}|-)?)?{_SUPP}?{_REP}{_SP}?[-,]?{_SP}?"
                 rf"(?:p\.{_SP}?|page{_SP})?"
                 rf"{_PAGE}"),
    # (1983 1 SCC 305)
    ("reporter", rf"(?<=\(){_YR}{_SP}\d{{1,2}}{_SP}{_REP}{_SP}{_PAGE}(?=\))"),
    # AIR 1973 SC 1461 ; A.I.R. 1945 P.C. 98 ; AIR1958Ker111 ; AIR 1987 Supreme Court 1145 ; (AIR) 1967 Bombay 355 ;
    # AIR 1955 NUC (Trav-Co) 4125 (the "Notes of Unreported Cases" series)
    ("reporter", rf"(?:\(S\){_SP}?)?(?:\(AIR\)|A\.?{_SP}?I\.?{_SP}?R\.?){_SP}?(?:\(\d{{1,3}}\){_SP}?)?{_YR}{_SP}?"
                 rf"(?:NUC{_SP}?\([A-Z][A-Za-z&.\-]{{0,12}}\)|{_AIR_COURT}){_SP}?(?:{_PAGE}|(?=[ \t]?[,;)]))"),
    # 1956 AIR (SC) 404 ; 1956 AIR SC 404
    ("reporter", rf"{_YR}{_SP}AIR{_SP}?\(?[A-Z][A-Za-z]{{0,10}}\.?\)?{_SP}{_PAGE}"),
    # 2023 SCC OnLine SC 890 ; 2024 INSC 123 ; 2023:DHC:1234 ; 2023:BHC-AS:12345
    ("neutral", rf"{_YR}{_SP}SCC{_SP}On{_SP}?[Ll]ine{_SP}[A-Z][A-Za-z&]{{0,10}}\.?{_SP}{_PAGE}"),
    ("neutral", rf"{_YR}{_SP}INSC{_SP}{_PAGE}"),
    ("neutral", rf"{_YR}:[A-Z][A-Z]{{1,7}}(?:-[A-Z]{{1,5}})?:\d{{1,6}}(?:-[A-Z]{{2,4}})?(?![\w:])"),
    # MANU/KE/0044/1958
    ("neutral", rf"MANU/[A-Z]{{2,4}}/\d{{3,5}}/{_YR}"),
    # ILR (1913) 36 Mad 453 ; ILR 41 Mad 743 ; ILR 1943 Bom 128 ; I.L.R. (1972) 2 Calcutta 660 ; [1927] ILR 50 Mad 130
    ("reporter", rf"(?:[\[\(]{_YR}[\]\)]{_SP}?)?I\.?{_SP}?L\.?{_SP}?R\.?{_SP}?"
                 rf"(?:[\(\[]?{_YR}[\)\]]?{_SP}?)?(?:\d{{1,3}}{_SP}?)?"
                 rf"[A-Z][A-Za-z\-]{{1,10}}\.?{_SP}?(?:Series{_SP})?{_PAGE}"),
    # JT 2004(8) SC 531 ; JT 2004 (8) SC page 531 ; JT [2000] Suppl. 1 SC 538
    ("reporter", rf"JT{_SP}?[\(\[]?{_YR}[\)\]]?{_SP}?(?:{_SUPP}|\(?\d{{1,2}}\)?{_SP}?)?SC{_SP}?(?:page{_SP})?{_PAGE}"),
    # 1996 JT (8) SC 280
    ("reporter", rf"{_YR}{_SP}JT{_SP}?\(?\d{{1,2}}\)?{_SP}?SC{_SP}?{_PAGE}"),
    # 1985 ACJ 645 ; 2009 (6) SCC 1 ; 1998 Cri LJ 1242 ; 1960-2 Lab LJ 592 ; 1974 (4) SCC page 3
    ("reporter", rf"{_YR}{_SP}?(?:[-(]{_SP}?\d{{1,3}}{_SP}?\)?{_SP}?|\d{{1,3}}{_SP}|{_SUPP})?{_REP}{_SP}?"
                 rf"(?:page{_SP}|p\.{_SP}?)?"
                 rf"[-,]?{_SP}?{_PAGE}"),
    # 157 (2009) DLT 450 (a Roman volume, "I (1997) BC 247", is added by ``find_cores``)
    ("reporter", rf"\d{{1,4}}{_SP}?\({_YR}\){_SP}?{_REP}{_SP}?{_PAGE}"),
    # 187 ITR 363 ; 4 I.T.R. 71 ; 25 Bom 332 ; [1972] 42 Comp Cas 125 -- only well-known reporters here:
    # "12 March 2014" or "5 PW 3" must not read as a citation.
    ("reporter", rf"\d{{1,4}}{_SP}(?:I\.?{_SP}?T\.?{_SP}?R\.?|S\.?T\.?C\.?|E\.?L\.?T\.?|Comp\.?{_SP}?Cas\.?|"
                 rf"CTR|ITD|TTJ|Taxman|DLT|CLR|Cal\.?{_SP}?WN|CWN|Bom\.?{_SP}?LR|Bom|Mad|Cal|All|Lah|Pat|Nag|"
                 rf"I\.?A\.?|App\.?{_SP}?Cas\.?|A\.?C\.?|Q\.?B\.?D?\.?|K\.?B\.?|Ch\.?{_SP}?D?\.?|U\.?S\.?|L\.?{_SP}?Ed\.?|"
                 rf"W\.?L\.?R\.?|All{_SP}ER|E\.?R\.?|L\.?T\.?|T\.?L\.?R\.?|FJR|LLJ|MLJ|KLT|SCR|S\.C\.R\.|Ind{_SP}Cas|"
                 rf"Cri?\.?{_SP}?L\.?{_SP}?J\.?|Crl\.?{_SP}?L\.?{_SP}?J\.?)"
                 rf"{_SP}?{_PAGE}"),
)
_CORE_RES = tuple((kind, re.compile(p)) for kind, p in _CORES)
_ROMAN_VOLUME = re.compile(rf"(?<![\w.])[IVX]{{1,4}}{_SP}?$")
# The Law Reports: "(1867) L.R. 2 C.P. 651", "L.R. 52 I.A. 191", "LR 10 Ch 96" -- volume, series, page. The year
# in brackets before it is added by ``find_cores`` (in the pattern it would make every position a start to try).
_LAW_REPORTS = re.compile(rf"L\.?{_SP}?R\.?{_SP}?\d{{1,3}}{_SP}?{_REP}{_SP}?{_PAGE}")
_YEAR_BEFORE = re.compile(rf"[\(\[]{_YR}[\)\]]{_SP}?$")
_MONTHS = (
    r"(?!(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|"
    r"Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|Page|Para|Paras|Section|Sections|Article|Rule|Order|Chapter|Vol)\b)"
)
# Right after a case name any "<volume> <Reporter> <page>" is a citation, even of a reporter the patterns above do
# not know: "Ramesh v. Savita, 3 MC 74", "Joti v. Maya, 44 Pun Re 1891 (FB)", "Blyth v. Birmingham Waterworks
# Co., (1956) 11 Ex 781". Alone, "12 March 2014" or "5 PW 3" would read the same, so these are never used alone.
_LOOSE_CORE = re.compile(
    rf"(?:[\(\[]{_YR}[\)\]]{_SP}?)?\d{{1,4}}{_SP}{_MONTHS}[A-Z][A-Za-z]{{0,7}}\.?"
    rf"(?:{_SP}?[A-Z][A-Za-z]{{0,7}}\.?){{0,2}}{_SP}?{_PAGE}(?!\.\d)"
)
# A citation never starts right after these characters: a number run ("12014"), a date ("12.3.2014", "3/2014")
# or a neutral citation's own colon. Checked in Python rather than by a leading look-behind, which would stop
# the regex engine from skipping quickly to plausible first characters.
_NOT_AFTER = frozenset("0123456789/.-:")
# A list number glued to the next word: "12.2007 (2) TNT 193" (item 12). Not a date's "15.12.2007".
LIST_NUMBER = re.compile(r"(?:(?<=\s)|^)\d{1,2}\.$")
_YEAR_AHEAD = re.compile(rf"{_YR}(?!\d)")

_PINPOINT = re.compile(
    # ", 213", "-118", " at 897", " @ 721". Pinpoints written "at p. 631" or "at page 6" are left out of the span
    # in the corpus (10 of 11 times), a bare "at 897" never is.
    rf"(?:,{_SP}?\d{{1,4}}(?![\d/\-]|\.\d)(?:{_SP}?-{_SP}?\d{{1,4}})?|{_SP}?-{_SP}?\d{{1,4}}(?![\d/])"
    rf"|{_SP}(?:at|@){_SP}\d{{1,4}}(?![\d/]|\.\d)(?:{_SP}?-{_SP}?\d{{1,4}})?)"
)
# A footnote mark after a citation: "1996(6) SCC 405 (2) ." -- but not a list number that opens the next case,
# "AIR 1999 SC 2526 (3) R.K. Garg v. Union of India".
_FOOTNOTE_MARK = re.compile(rf"{_SP}?\(\d{{1,2}}\)(?![ \t]*[A-Z(\[\w])")
# A pinpoint in brackets: "[1901] A.C. 495 (502)", "(2005) 6 SCC 344 (para 10)" -- not a year opening the next
# citation, "AIR 1999 SC 12 (2000) 3 SCC 45".
_BRACKET_PIN = re.compile(
    rf"{_SP}?\((?:paras?\.?{_SP}?\d{{1,4}}|\d{{3,4}})\)(?![ \t]*[\d(\[]|(?<=\((?:1[6-9]|20)\d\d\))[ \t]*[A-Z])"
)
# "(SC)", "(FB)", "(Del)", "(P&H)", "(Guj.)", "[FB]", "(A)" (old reporters' footnote letters), "(Mad)"; "SC]".
_COURT_MARK = re.compile(
    rf"{_SP}?[\(\[](?![Ss]upra)(?:[A-Z][A-Za-z&.]{{0,8}}|[A-Z]\.?{_SP}?[A-Z]\.?|P&H|J&K)[\)\]]"
    rf"|{_SP}(?:SC|Del|Bom|Mad|Cal|All|Ker|Guj|Raj|Pat|Ori|Kar|P&H)(?=[\]\)])"
)
# Parallel citations of one judgment: "(1999) 6 SCC 667 = AIR 1999 SC 2979", "... : (AIR 1954 Cal 340)".
# Not "and": "ILR 30 Pat 1257 and (1959) ILR 38 Pat 95" are two judgments.
_PARALLEL_SEP = re.compile(rf"{_SP}?[:;=,]{_SP}?|{_SP}|/")
_OPEN = re.compile(rf"[\(\[]{_SP}?")
_CLOSE_BRACKET = re.compile(rf"{_SP}?[\)\]]")


def find_cores(text: str) -> list[tuple[int, int, str]]:
    """Every citation core in ``text`` as (start, end, kind): the longest at each start, non-overlapping.

    Each pattern runs on its own so that the longest reading wins ("(1915) ILR 37 All 557" is one ILR
    citation, not the bracketed-year form "(1915) ILR 37").
    """
    found: list[tuple[int, int, str]] = []
    for kind, rx in _CORE_RES:
        found.extend((m.start(), m.end(), kind) for m in rx.finditer(text) if _may_start(text, m.start()))
    for m in _LAW_REPORTS.finditer(text):
        year = _YEAR_BEFORE.search(text, max(0, m.start() - 9), m.start())
        start = year.start() if year is not None else m.start()
        if _may_start(text, start):
            found.append((start, m.end(), "reporter"))
    found.extend(_parallel_after_slash(text, found))
    found.sort(key=lambda c: (c[0], -c[1]))
    out: list[tuple[int, int, str]] = []
    last = 0
    for c in found:
        if c[0] >= last:
            out.append(_roman_volume(text, c, last))
            last = c[1]
    return out


def _roman_volume(text: str, core: tuple[int, int, str], last: int) -> tuple[int, int, str]:
    """A Roman volume before a bracketed year belongs to the citation: "I (1997) BC 247", "II (2005) DMC 123".

    Done here rather than in the pattern, where a Roman numeral would make every "I", "V" and "X" in a text a
    place to try the whole pattern.
    """
    start, end, kind = core
    if not text.startswith("(", start):
        return core
    m = _ROMAN_VOLUME.search(text, max(last, start - 6), start)
    return (m.start(), end, kind) if m is not None else core


def _parallel_after_slash(text: str, found: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Cores written right after another core and a slash: "[1986] 158 ITR 174/23 Taxman 219" (tax reports)."""
    out: list[tuple[int, int, str]] = []
    for pos in sorted({e + 1 for _, e, _ in found if text.startswith("/", e)}):
        for kind, rx in _CORE_RES:
            m = rx.match(text, pos)
            if m is not None:
                out.append((m.start(), m.end(), kind))
    return out


def find_loose_cores(text: str, taken: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Citation cores of reporters ``find_cores`` does not know, not overlapping ``taken``; for use right after
    a case name only."""
    out: list[tuple[int, int, str]] = []
    starts = [s for s, _, _ in taken]  # ``taken`` is sorted and non-overlapping
    for m in _LOOSE_CORE.finditer(text):
        i = bisect.bisect_left(starts, m.end())  # the cores starting before this one ends
        if _may_start(text, m.start()) and not (i and taken[i - 1][1] > m.start()):
            out.append((m.start(), m.end(), "reporter"))
    return out


def _may_start(text: str, pos: int) -> bool:
    if pos == 0:
        return True
    prev = text[pos - 1]
    if text[pos].isdigit():
        if prev == "-" and pos > 1 and not text[pos - 2].isdigit():
            return True  # "Indo-French Pharmaceutical Co. -1983 (12) E.L.T. 725"
        if prev == "." and LIST_NUMBER.search(text, max(0, pos - 4), pos) and _YEAR_AHEAD.match(text, pos):
            return True  # "12.2007 (2) TNT 193": a list number glued to the year
        return prev not in _NOT_AFTER and not prev.isalpha()
    return not prev.isalnum()


def extend_chain(text: str, end: int, cores_by_start: dict[int, tuple[int, str]], depth: int = 0) -> int:
    """Grow a citation ending at ``end`` over pinpoints, court marks and parallel citations.

    A bracketed group of parallel citations is taken whole: "(1989) 2 SCC 132: (AIR 1989 SC 885: 1989 Cri LJ 963)".
    """
    while True:
        end = _decorations(text, end)
        sep = _PARALLEL_SEP.match(text, end)
        if not sep:
            return end
        nxt = sep.end()
        core = cores_by_start.get(nxt)
        opened = None if core is not None else _OPEN.match(text, nxt)
        if opened is not None:
            core = cores_by_start.get(opened.end())
        if core is None:
            return end
        new_end = _decorations(text, core[0])
        if opened:
            if depth < 2:
                new_end = extend_chain(text, new_end, cores_by_start, depth + 1)
            close = _CLOSE_BRACKET.match(text, new_end)
            if close is None:
                return end
            new_end = close.end()
        end = new_end


def _decorations(text: str, end: int) -> int:
    for _ in range(4):
        m = (_PINPOINT.match(text, end) or _COURT_MARK.match(text, end) or _FOOTNOTE_MARK.match(text, end)
             or _BRACKET_PIN.match(text, end))
        if m is None:
            break
        end = m.end()
    return end


def court_marks(text: str, end: int) -> int:
    """Court marks after a bracketed citation has closed: "(123 ITR 681) (Del)", "(AIR 1976 Madh Pra 21) (FB)"."""
    for _ in range(3):
        m = _COURT_MARK.match(text, end)
        if m is None or not m.group().lstrip(" \t\u00a0").startswith(("(", "[")):
            break
        end = m.end()
    return end


# A footnote: "(1) [1955] 1 S.C.R. 206 ." or "(1)(1952) 1 L.L.J. 195 ." -- a number, a citation, a full stop.
_FOOTNOTE_OPEN = re.compile(r"(?:(?<=\s)|(?<=\))|^)\(\d{1,2}\)[ \t]?$")
_FOOTNOTE_CLOSE = re.compile(r"[ \t]?\.(?![\w.])")
_FOOTNOTE_NEXT = re.compile(r"[ \t]?\.?[ \t]?")
_HEADER = re.compile(r"\b(?:CITATION|CITATOR[ \t]INFO)[ \t]?:")
_NEXT_HEADING = re.compile(
    r"\b(?:ACT|HEADNOTE|BENCH|PETITIONER|RESPONDENT|DATE[ \t]OF[ \t]JUDGMENT|JUDGMENT|CITATOR[ \t]INFO)[ \t]?:"
)


def report_headers(text: str) -> list[tuple[int, int]]:
    """The "CITATION:" and "CITATOR INFO :" blocks of a reported Supreme Court judgment's head.

    "CITATION: 1977 AIR 2185 1978 SCR (1) 222 ..." are the judgment's own reports and "CITATOR INFO : RF 1992
    SC 604 (96,97)" the later judgments that cite it; neither is a precedent the judgment relies on. A block runs
    to the next heading ("ACT:", "HEADNOTE:", "BENCH:", ...).
    """
    out: list[tuple[int, int]] = []
    if "CITAT" not in text:
        return out
    for m in _HEADER.finditer(text):
        nxt = _NEXT_HEADING.search(text, m.end(), m.end() + 600)
        out.append((m.start(), nxt.start() if nxt else min(len(text), m.end() + 600)))
    return out


def is_footnote(text: str, start: int, end: int, footnote_end: int) -> bool:
    """A footnote of a reported judgment that text extraction spliced into a sentence.

    "... on which the exist- (1) [1955] 1 S.C.R. 206 . (2) [1959] F.C.R. 124 ence or extent of a legal right":
    a citation after a footnote number (or after another footnote) and closed by a full stop is the reference
    for a name marked "(1)" in the body, which is the precedent; InLegalNER does not label the footnote (29 of
    the 33 such citations in the fit part of its training split have no PRECEDENT label).
    """
    opened = _FOOTNOTE_OPEN.search(text, max(0, start - 6), start)
    after_footnote = footnote_end >= 0 and _FOOTNOTE_NEXT.fullmatch(
        text, footnote_end, opened.start() if opened else start) is not None
    if _FOOTNOTE_CLOSE.match(text, end):
        return opened is not None or after_footnote
    return opened is not None and after_footnote  # "(2) [1959] F.C.R. 124 ence": the word broken by the footnote


_SPACES = re.compile(r"\s+")


def normalise_citation(raw: str) -> str:
    """Canonical spelling of a reporter or neutral citation, for registry look-ups.

    Uses ``graph_schema.citations`` (the registry's own key) when it knows the reporter, otherwise
    collapses whitespace: "(2014)8 S.C.C. 273" -> "(2014) 8 SCC 273", "1998  Cri LJ 1242" -> "1998 Cri LJ 1242".
    """
    known = case_citations(raw)
    if known:
        return known[0]
    text = _SPACES.sub(" ", raw).strip(" ,;:[]")
    text = re.sub(r"([\)\]])(?=\d)", r"\1 ", text)
    return re.sub(r"(?<=[A-Za-z.])(?=\d)", " ", text) if text.startswith("AIR") else text
