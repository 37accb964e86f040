"""Reporter and neutral citations of judgments: "(2014) 8 SCC 273", "AIR 1973 SC 1461", "2024 INSC 123".

Each pattern is one regex with bounded repetition and no nested quantifiers, so no input makes it
backtrack for long. A citation "core" is one reporter reference; ``citation_chain_at`` grows a core
over pinpoints ("at p. 838"), court markers ("(SC)", "(FB)") and parallel citations joined by ":", ";"
or "=" ("(1999) 6 SCC 667 = AIR 1999 SC 2979"), which InLegalNER annotates as one PRECEDENT.
"""

from __future__ import annotations

import re

from graph_schema.citations import case_citations

_SP = r"[ \t\u00a0]"
_YR = r"(?:1[6-9]\d\d|20\d\d)"
_PAGE = r"\d{1,5}(?![\d/])"
# One word of a reporter's abbreviation: "SCC", "Cri.", "L.J.", "ITR", "Supp.", "OnLine", "Ker", "(Cri)".
_REPWORD = (
    r"(?!Nos?\b)(?:[A-Z](?:\.[A-Z])+\.?|[A-Z][A-Za-z&]{0,10}\.?"
    r"|\((?:L&S|[A-Z][A-Za-z]{0,8})\.?\))"
)
# Words that follow a year and a number in ordinary prose and never open a reporter's name.
_NOT_REPORTER = (
    r"(?!(?:Sections?|Articles?|Rules?|Orders?|Acts?|Nos?|Page|Pages|Paras?|Paragraph|Vol|Volume|Chapter|Part|"
    r"Schedule|Clauses?|Ex|PW|DW|CW|Annexure|Of|And|The|In|At|On|To|Rs|FIR|Dated|Dt|Exhibit|Case|Cases|"
    r"Appeal|Petition|Writ|Suit|Complaint|CC|WP|CWP|SLP|Sessions|Civil|Misc|Application|Revision|"
    r"Reference|Regular|First|Second|Special|Original|OS|RFA|RSA|CRP|MA|MAC|MACT|ITA|ST|SC/ST|U/s|Sec|Ss|"
    r"January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|"
    r"Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|A\.?M|P\.?M|Hrs|Km|Kms|Kg|Kgs|Mr|Mrs|Ms|Dr|Smt|Shri|Sri)\b)"
)
# Words are separated by a space or follow a dot ("Cri.L.J."), so "SCC" is never split into "S" "CC".
_REP = rf"{_NOT_REPORTER}{_REPWORD}(?:(?:(?<=\.){_SP}?|{_SP}){_REPWORD}){{0,3}}"
_VOLP = rf"(?:\({_SP}?\d{{1,3}}{_SP}?\)|\d{{1,4}}(?![\d/]))"
_SUPP = rf"(?:\(?Supp?l?\.?\)?{_SP}?(?:\(?\d{{1,2}}\)?{_SP}?)?)"
# Court names after "AIR <year>": "SC", "Supreme Court", "Mad", "Madh Pra", "Bom.", "P.C.", "N.S.C.".
_AIR_COURT = (
    rf"(?:\(?[A-Z][A-Za-z]{{0,10}}\.?\)?|(?:[A-Z]\.){{1,3}})"
    rf"(?:{_SP}?(?:&{_SP}?)?(?:[A-Z][A-Za-z]{{0,10}}\.?|(?:[A-Z]\.){{1,3}}))?"
)

_CORES: tuple[tuple[str, str], ...] = (
    # (2014) 8 SCC 273 ; [1955] 1 S.C.R. 206 ; (2003)7 SCC-750 ; [1976] Supp. S.C.R. 489 ; (2000) (1) SCC 168
    ("reporter", rf"[\(\[]{_SP}?{_YR}{_SP}?[\)\]]{_SP}?(?:{_VOLP}(?:{_SP}|-)?)?{_SUPP}?{_REP}{_SP}?[-,]?{_SP}?"
                 rf"(?:p\.{_SP}?|page{_SP})?"
                 rf"{_PAGE}"),
    # (1983 1 SCC 305)
    ("reporter", rf"(?<=\(){_YR}{_SP}\d{{1,2}}{_SP}{_REP}{_SP}{_PAGE}(?=\))"),
    # AIR 1973 SC 1461 ; A.I.R. 1945 P.C. 98 ; AIR1958Ker111 ; AIR 1987 Supreme Court 1145 ; (AIR) 1967 Bombay 355
    ("reporter", rf"(?:\(S\){_SP}?)?(?:\(AIR\)|A\.?{_SP}?I\.?{_SP}?R\.?){_SP}?(?:\(\d{{1,3}}\){_SP}?)?{_YR}{_SP}?"
                 rf"{_AIR_COURT}{_SP}?(?:{_PAGE}|(?=[ \t]?[,;)]))"),
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
    # 157 (2009) DLT 450
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
# A citation never starts right after these characters: a number run ("12014"), a date ("12.3.2014", "3/2014")
# or a neutral citation's own colon. Checked in Python rather than by a leading look-behind, which would stop
# the regex engine from skipping quickly to plausible first characters.
_NOT_AFTER = frozenset("0123456789/.-:")

_PINPOINT = re.compile(
    # ", 213", "-118". Pinpoints written "at p. 631" are left out of the span in the corpus more often than not.
    rf"(?:,{_SP}?\d{{1,4}}(?![\d/.\-])(?:{_SP}?-{_SP}?\d{{1,4}})?|{_SP}?-{_SP}?\d{{1,4}}(?![\d/]))"
)
# "(SC)", "(FB)", "(Del)", "(P&H)", "(Guj.)", "[FB]", "(A)" (old reporters' footnote letters), "(Mad)"; "SC]".
_COURT_MARK = re.compile(
    rf"{_SP}?[\(\[](?![Ss]upra)(?:[A-Z][A-Za-z&.]{{0,8}}|[A-Z]\.?{_SP}?[A-Z]\.?|P&H|J&K)[\)\]]"
    rf"|{_SP}(?:SC|Del|Bom|Mad|Cal|All|Ker|Guj|Raj|Pat|Ori|Kar|P&H)(?=[\]\)])"
)
# Parallel citations of one judgment: "(1999) 6 SCC 667 = AIR 1999 SC 2979", "... : (AIR 1954 Cal 340)".
# Not "and": "ILR 30 Pat 1257 and (1959) ILR 38 Pat 95" are two judgments.
_PARALLEL_SEP = re.compile(rf"{_SP}?[:;=,]{_SP}?|{_SP}")
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
    found.sort(key=lambda c: (c[0], -c[1]))
    out: list[tuple[int, int, str]] = []
    last = 0
    for c in found:
        if c[0] >= last:
            out.append(c)
            last = c[1]
    return out


def _may_start(text: str, pos: int) -> bool:
    if pos == 0:
        return True
    prev = text[pos - 1]
    if text[pos].isdigit():
        if prev == "-" and pos > 1 and not text[pos - 2].isdigit():
            return True  # "Indo-French Pharmaceutical Co. -1983 (12) E.L.T. 725"
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
        m = _PINPOINT.match(text, end) or _COURT_MARK.match(text, end)
        if m is None:
            break
        end = m.end()
    return end


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
