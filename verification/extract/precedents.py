"""Precedents: "Arnesh Kumar v. State of Bihar, (2014) 8 SCC 273", "AIR 1955 SC 84", "Municipal Corporation of
Delhi v. Gurnam Kaur".

A precedent is a case name (two parties around "v.", "vs.", "versus"), a citation chain (``reporters``), or
both joined by ", ", ": ", " - " or "reported in". Party names are found by walking outwards from the
"v." over name-like words, so no list of case names is needed.

Span conventions follow InLegalNER, checked against its training split: the name and its citation are one
span; brackets around a citation that follows a name belong to it ("Bhagat Ram v. State of Punjab (AIR 1954
SC 621)", "Sarla Verma's case (2009 (6) SCC 1)"); a case number written with the name belongs to it
("Mantoon Kumar vs. State, Crl. Appeal No. 174/2005", "CC No. 2264/12 Axis Bank Ltd. Vs Sunil Dutt
Shukla"); a leading "The" and a trailing "(supra)" are outside; honorifics ("Smt.", "M/s.") are inside.
The corpus labels whole words, so brackets, quotes and list numbers glued to the first or last word are
inside ("3.State of Haryana Vs. Bhajan Lal", "Union of India and Ors.)"), while a bracket standing alone at
the end is outside ("State of Punjab ( AIR 1956 SC 460 )"). A place or office after a comma closes a party's
name ("Presiding Officer, Labour Court, Assam"); two cases in a list are two spans.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from verification.extract.reporters import (
    LIST_NUMBER,
    court_marks,
    extend_chain,
    find_cores,
    find_loose_cores,
    is_footnote,
    normalise_citation,
    report_headers,
)
from verification.extract.words import words_before

_SP = r"[ \t\u00a0]"
# "v." between two parties. Look-behinds are checked in Python (``_versus``) so the regex can skip quickly
# to a "v", "V" or "-".
_VERSUS = re.compile(
    # "Union of India v, Supriya Ghosh", "C.E.S.C. Ltd & Ors. V/s, Subhash Chandra Bose": a comma for the stop.
    r"(?:v\.?|vs\.?|Vs\.?|VS\.?|V\.|versus|Versus|VERSUS|v/s\.?|V/s\.?|V/S\.?|-vs-|-Vs-|Vrs\.?)(?=\s|,[ \t][A-Z])"
    r"|(?:v|vs|Vs|VS)\.(?=[A-Z])"
    # "Satish Kumar Sharma-vs.-Union of India", "Syed Rafiq Ahmed -v.- Regional Transport Officer"
    r"|-(?:v|vs|Vs)\.?-(?=[A-Z\s])"
    # "Sunitha V Ramesh": a bare capital V between two words, not between initials ("K V Rao").
    r"|V(?=\s[A-Z][a-z])"
)
# "K. Ram Kumar and V. B. Saharya": after "and" a capital "V." is an initial; so it is after another initial
# or a title ("Sri T. V. Ramana", "Mr. V. K. K. Menon", "Justice V. R. Sen", "N. V. Philips").
_NOT_VERSUS_BEFORE = re.compile(
    r"(?:\band|&|,|(?<![\w.])[A-Z]\.|\b(?:Mr|Mrs|Ms|Miss|Dr|Shri|Sri|Smt|Sh|Kum|Justice|JUSTICE|SRI|SHRI)\.?)[ \t]$"
)
_CONNECTORS = frozenset(
    {"of", "and", "&", "@", "the", "for", "de", "da", "di", "du", "del", "van", "von", "der", "bin", "alias", "others",
     "another", "ors", "ors.", "anr", "anr.", "etc", "etc.", "through", "thr", "thr.", "OF", "AND", "THE", "FOR",
     "lrs", "lrs.", "-", "to", "And", "Of", "For", "ltd", "ltd.", "pvt", "pvt.", "co", "co.", "represented", "rep.",
     "by", "its", "s/o", "S/o", "S/O", "d/o", "D/o", "w/o", "W/o", "r/o", "R/o"}
)
_TRAILING_DROP = frozenset({"of", "and", "&", "@", "the", "for", "through", "thr", "thr.", "OF", "AND", "THE", "FOR",
                            "de", "da", "van", "von", "alias", "-", "represented", "rep.", "rep", "by", "its", "to"})
# Capitalised words that end a walk to the left: they introduce a case, they do not name a party.
_LEFT_STOP = frozenset(
    {
        "In", "See", "Vide", "Also", "Cf.", "Cf", "Per", "Following", "Relying", "Reliance", "Hon'ble", "Honble",
        "Apex", "Lordship", "Lordships", "Learned", "Para", "Paragraph",
        "Page", "Therefore", "Thus", "Hence", "However", "Again", "Similarly", "Further", "Moreover", "Recently",
        "Earlier", "Later", "Then", "Now", "As", "Since", "While", "Whereas", "If", "When", "After", "Before",
        "Where", "Here", "There", "This", "That", "These", "Those", "It", "Its", "Their", "His", "Her", "Our", "We",
        "He", "She", "They", "The", "Reported", "Decided", "Held", "Supra", "J.", "JJ.", "CJ.", "C.J.",
        "Ld.", "Under", "Section", "Sections", "Article", "Articles", "Rule", "Order", "Act", "Constitution", "On",
        "At", "By", "From", "To", "With", "Or", "But", "Both", "Either", "Judgment", "Judgement",
        "Decision", "Case", "Cases", "Appeal", "IN", "THE", "Titled", "Entitled", "Re", "Ibid", "Id",
        "Ex", "Exhibit", "Annexure", "Dated", "Dt.", "Note", "Reference", "Citation", "Vol", "Privy",
        "Followed", "Approved",
        "Overruled", "Distinguished", "Explained", "Referred", "Applied", "Considered", "Pg.", "Sl.",
        "Serial", "Item",
    }
)
_RIGHT_STOP = frozenset(
    {"In", "See", "Vide", "Section", "Sections", "Article", "Articles", "Rule", "Order", "Under", "Supra", "Para",
     "Page", "Pg.", "Decided", "Reported", "Held", "Also", "Where", "Wherein", "Which", "But", "No.", "No",
     "Nos.", "FIR", "Date", "Dated", "DOD", "PS", "Supreme"}
)
# Words after which a lower-case "the" stays inside a name: "Secretary to the Government", "Her Majesty the
# Queen", "Hon'ble the Chief Justice".
_JOINS_THE = frozenset(
    {"of", "to", "for", "and", "&", "by", "in", "on", "through", "thr.", "under", "majesty", "hon'ble", "honble"}
)
# A person's title after a comma starts a new person, not more of a party's name: "State of Punjab, Mr. Sibal".
_TITLES = frozenset({"Mr.", "Mr", "Mrs.", "Mrs", "Justice", "Ld.", "Mr.Justice"})
# Footnote numbers after a name: "Fakira v. King Emperor (1)", "Commissioner of Excess Profits Tax(2)".
_FOOTNOTE = re.compile(r"[ \t]?\(\d{1,2}\)(?![\w(])")
# Words written with a full stop that is part of the word, not the end of the sentence.
_ABBREV = frozenset(
    {"ors", "anr", "ltd", "co", "corpn", "corp", "bros", "inc", "pvt", "etc", "govt", "dept", "dy", "addl", "jt",
     "asst", "secy", "commr", "smt", "sri", "shri", "dr", "mr", "mrs", "ms", "st", "mfg", "ind", "assn", "spl",
     "no", "nos", "sr", "jr", "dist", "distt", "admn", "mun", "ry", "rly", "ins", "m/s", "cit", "comm", "corpns",
     "pt", "ch", "bd", "gen", "mgr", "dir", "supdt", "sub", "ass", "indus", "engg", "p", "ld", "ex", "admin",
     "asstt", "sh", "kum", "bk", "assocn", "soc", "coop", "edn", "tr", "mahant", "sm"}
)
# A word of a party's name: capitalised, no digits ("Mys.L.J.315" is a citation, "No.680/2010" a case number).
# A trailing number is a footnote mark ("Krishna Kumar Birla v. Rajendra Singh Lodha6"), kept with the name.
# "Basavaiah(Dr.)" carries a glued title; "(dead)" and "(since deceased)" follow a party who died; "&Ors." is
# "& Ors." written without its space.
_PARTY_TOKEN = re.compile(
    r"^(?:[A-Z][A-Za-z'\u2019\-&.@/]*(?:\([A-Z][a-z]{0,4}\.?\))?\d{0,3}|M/[sS]\.?"
    r"|\([A-Z][A-Za-z.&'\u2019, \-]{0,38}\)|\([ \t]?(?:since[ \t])?(?:dead|deceased)\)|@|&|&(?:Ors|Anr|ors|anr)\.?"
    r"|['\u2019]s)$"
)
# A list number glued to a name's first word: "3.State of Haryana Vs. Bhajan Lal", "1)RAMZAN AND ANR. VS.".
_GLUED_NUMBER = re.compile(r"^\d{1,3}[.)](?=[A-Z])")
# Words, with a comma kept on the word before it ("Orissa,reported" -> "Orissa," "reported"), and short
# bracketed groups as one word ("(Delhi Admin.)", "(P)").
_TOKEN = re.compile(r"\([^()\n]{1,40}\)|[^\s,]+,?|,")
_CITE_START = re.compile(r"[\(\[\{]?\s?(?:\d|A\.?\s?I\.?\s?R|I\.?\s?L\.?\s?R|JT\b|MANU/|\(AIR\)|\(S\)|[Rr]eported\b)")
_OPEN_QUOTES = "\"'\u2018\u201c-("
_ATTACH = re.compile(
    rf"['\u2019\"\u201d]?\.?{_SP}?(?:[,;:=]{{1,2}}|-{{1,2}}|\u2013)?{_SP}?"
    rf"(?:\(?{_SP}?(?:reported|Reported){_SP}(?:in|at|as){_SP}?(?::{_SP})?)?"
)
_BRACKETS = re.compile(r"[\(\[\{]{1,2}[ \t]?")
_PARALLEL_BRACKET = re.compile(r"[ \t]?[:;=][ \t]?[\(\[][ \t]?")
_CLOSE = re.compile(r"[ \t]?([\)\]\}]{1,2})")
# "Crl. Appeal No. 174/2005", "First Appeal No. 1030 of 1973", "W.P. No. 12837 of 1986", "C.M.A No.312 of 2009".
# Also without "No." after a bracketed type: "CS(OS) 1368/2009", "W.P.(C) 512/2012".
_CASE_NO = (
    rf"(?:(?:[A-Z][\w.()/&\-]*{_SP}){{0,6}}No\.?{_SP}?\d+(?:[/\-]\d+)*(?:{_SP}(?:of|OF){_SP}\d{{4}})?"
    rf"|[A-Z][A-Za-z.]{{0,8}}\([A-Z]{{1,5}}\){_SP}?\d{{1,6}}/\d{{2,4}}(?![\w/]))"
)
# ", Crl. Appeal No. 174/2005", "(W.P. No. 12837 of 1986)", and a bracket closed only after more words: "(Company
# Petition No. 38 of 1980 decided on 10-10-1984 )" -- the span ends with the number.
_CASE_NO_AFTER = re.compile(
    rf"{_SP}?(?:,{_SP}?({_CASE_NO})|\({_SP}?({_CASE_NO})(?:{_SP}?\)|(?={_SP}(?:decided|dated|dt\.|on){_SP})))"
)
# "CC No. 2264/12 ", "D.B. Civil Special Appeal (Writ) No.680/2010 ", "RCA:40/2010 " right before a case name.
_CASE_NO_BEFORE = re.compile(
    # "AND", "In" and "With" join two numbers; the case is the one after them ("No.352/2005 In S.B. Civil Writ
    # Petition No.4251/1994 V.K. Gaur Vs. State of Rajasthan").
    rf"(?:(?<=\s)|^)((?:(?!(?:AND|And|IN|In|WITH|With)\s)(?:[A-Z]|\([A-Za-z])[\w.()/&:\-]*{_SP}){{0,6}}"
    rf"(?:No\.?{_SP}?|[A-Z]+:)\d+(?:/\d+)+{_SP})$"
)
# Only with the bracket glued to the name: "Suit No.645/10 ( Smt.Girja Devi & ors. V/s Nanhey Lal & ors. )" is
# labelled without the number (2 of 2 such in the fit part).
_CASE_NO_PAREN = re.compile(rf"(?:(?<=\s)|^)({_CASE_NO}{_SP}?\()$")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
# "Dr.B.S.Mahajan-AIR 1990 SC 434", "State of Kerala[2011 (1) KLT 886]"
_GLUED_CITE = re.compile(r"-(?=AIR|A\.I\.R|\(?\d{4}|\[)|(?<=[A-Za-z.])[\[(](?=\d)")
# Between a name written without "v." and its citation: ", ", " - ", " reported as ".
_BEFORE_CHAIN = re.compile(r"(?:[ \t]?[,;:]|[ \t]-{1,2}|[ \t]\u2013|,?[ \t]reported[ \t](?:in|as|at))?[ \t]$|^")
# "40 ITR 618 (SC) in case Bhopal Sugar Mills v. ITO", "2003 SC 3995 in Parwati Bai Vs. Radhika": "in" too.
_AFTER_CHAIN = re.compile(r"[ \t]?(?:,[ \t]?(?:[Tt]he[ \t])?|[ \t]in[ \t](?:case[ \t])?|[ \t]\(?[ \t]?)")
# Marks glued to a span's last or first word; only taken when they end or start a word.
_GLUED_CLOSE = re.compile(r"(?:,?\(\d{1,2}\)|[)\]}'\"\u2019\u201d])+(?=\s|$)")
_TRAILING_ETC = re.compile(r"[ \t](?:etc\.[ \t]){0,2}etc\.$")
_BROKEN_WORD = re.compile(r"(?<![\w\-])[A-Z][A-Za-z]{0,20}-[ \t]$")
_SPACED_CLOSE = re.compile(r"(?:\s[)\]}]{1,2}){1,3}$")
_GLUED_OPEN = re.compile(r"(?:(?<=\s)|^)-{0,2}[(\[{'\"\u2018\u201c]+$")
# Between two cases in a list: ", ", "; ", " and ".
_CASE_SEP = re.compile(r"[ \t]?[,;][ \t]?(?:(?:and|&)[ \t])?|[ \t](?:and|&)[ \t]")
_TEXT_END = re.compile(r"\s*\Z")
_FOOTNOTE_TOKEN = re.compile(r"^\(\d{1,2}\)$")  # "Ajit Singh (2) v. State of Punjab"
_MAX_LEFT = 12
_MAX_RIGHT = 16


@dataclass(frozen=True, slots=True)
class PrecedentMatch:
    """A precedent span: ``kind`` is "reporter", "neutral" or "name"; ``normalised`` the first citation."""

    start: int
    end: int
    kind: str
    normalised: str | None
    core_start: int | None = None
    """For a citation grown to the left over a name: where the citation itself starts."""
    anchor: int | None = None
    """For a case name: where its "v." starts."""


Chain = tuple[int, str, str]  # end, kind, normalised first core


def find_precedents(text: str) -> list[PrecedentMatch]:
    """Every precedent in ``text``, sorted, non-overlapping."""
    cores = find_cores(text)
    by_start = {s: (e, k) for s, e, k in cores}
    chain_at: dict[int, Chain] = {}
    last = -1
    for s, e, kind in cores:
        if s < last:
            continue
        end = extend_chain(text, e, by_start)
        chain_at[s] = (end, kind, normalise_citation(text[s:e]))
        last = end
    found: list[PrecedentMatch] = []
    anchors = [v for v in _VERSUS.finditer(text) if _versus(text, v)]
    versus = frozenset(v.start() for v in anchors)
    after_name = _after_name_chains(text, cores, chain_at) if anchors else chain_at
    for v in anchors:
        v_end = v.end() + 1 if text.startswith(",", v.end()) else v.end()  # "v, Supriya Ghosh"
        named = _case_name(text, v.start(), v_end, after_name, versus)
        if named is not None:
            found.append(named)
    names = {p.start: p for p in found if p.kind == "name"}
    footnote_end = -1
    for s, (e, k, n) in chain_at.items():
        cited = _name_after_chain(text, s, e, k, n, names) or _name_before_chain(text, s, e, k, n)
        # A footnote's citation grown over a name: "(2) A.T.R. 1964 Mysore 6." (a misread "A.I.R.").
        if is_footnote(text, cited.start, cited.end, footnote_end):
            footnote_end = cited.end
            continue
        found.append(cited)
    headers = report_headers(text)
    found = [p for p in found if not any(s <= p.start < e for s, e in headers)]
    return _resolve(text, [_whole_words(text, p) for p in found])


def _whole_words(text: str, p: PrecedentMatch) -> PrecedentMatch:
    """Widen a span over brackets, quotes and footnote marks glued to its first or last word.

    InLegalNER labels whole whitespace-separated words, so where the text has "Union of India and Ors.)",
    "AIR 1934 All 693(2)" or "--'Umashankar v. Rex'" the glued marks are inside the span.
    """
    start, end = p.start, p.end
    # A bracket standing alone is a word of its own, which the corpus leaves out at a span's end (32 times in the
    # fit part, 3 times in): "State of Punjab ( AIR 1956 SC 460 )", "(AIR 1987 SC 1023 )".
    spaced = _SPACED_CLOSE.search(text, start, end)
    if spaced is not None:
        end = spaced.start()
    close = _GLUED_CLOSE.match(text, end) if end and not text[end - 1].isspace() else None
    if close is not None:
        end = close.end()
        if close.group().endswith((")", "]")):
            end = court_marks(text, end)  # "(1969 Acc CJ 286) (Delhi)", "1967 Cri LJ 1081) (SC)"
    listed = LIST_NUMBER.search(text, max(0, start - 4), start) if text[start : start + 1].isdigit() else None
    if listed is not None:
        start = listed.start()  # "12.2007 (2) TNT 193 (Jayalakshmi and another vs. Govindammall and others)"
    elif start and not text[start - 1].isspace():
        opened = _GLUED_OPEN.search(text, max(0, start - 4), start)
        # Not an opening bracket this span never closes: "(AIR 1966 Punj 348)." stays "AIR 1966 Punj 348".
        if opened is not None and _closes(text[opened.start() : end]):
            start = opened.start()
    if (start, end) == (p.start, p.end):
        return p
    return PrecedentMatch(start, end, p.kind, p.normalised, p.core_start, p.anchor)


def _closes(span: str) -> bool:
    return sum(span.count(c) for c in "([{") <= sum(span.count(c) for c in ")]}")


def _after_name_chains(text: str, cores: list[tuple[int, int, str]], chain_at: dict[int, Chain]) -> dict[int, Chain]:
    """``chain_at`` and the chains of reporters only recognisable after a case name ("Joti v. Maya, 44 Pun Re
    1891 (FB)", "Megha Ram v. Makhan Lal, 67 Pun Re 1912: 130 Pun Re 1916: (AIR 1917 Lah 135)")."""
    loose = find_loose_cores(text, cores)
    if not loose:
        return chain_at
    by_start = {s: (e, k) for s, e, k in [*cores, *loose]}
    chains = dict(chain_at)
    for s, e, kind in loose:
        chains[s] = (extend_chain(text, e, by_start), kind, normalise_citation(text[s:e]))
    return chains


def _name_after_chain(
    text: str, start: int, end: int, kind: str, normalised: str, names: dict[int, PrecedentMatch]
) -> PrecedentMatch | None:
    """A citation followed by its case name.

    "2008 ACJ 1935 Zila Singh v. Mukes Kumar", "2009 (1) SCC 475 (X vs Y)", "AIR 1954 Bom 305, Madholal Sindhu
    v. Asian Assurance Co. Ltd.", "[1960] 2 SCR 311, The General Manager, Southern Railway v. Rangachari".
    """
    m = _AFTER_CHAIN.match(text, end)
    if m is None or m.end() not in names:
        return None
    name = names[m.end()]
    if "(" not in m.group():
        return PrecedentMatch(start, name.end, kind, normalised)
    if not m.group().endswith("("):
        return None  # "AIR 1983 SC 753 ( Bharwada Bhoginbhai Hirjibhai Vs. State of Gujrat )": two spans
    # "(X vs Y)" must close after the name.
    close = re.compile(r"[ \t]?\)").match(text, name.end)
    return PrecedentMatch(start, close.end(), kind, normalised) if close else None


def _versus(text: str, v: re.Match[str]) -> bool:
    """The look-behinds of ``_VERSUS``: whitespace before (a word before a glued "-vs.-")."""
    s = v.start()
    if s == 0:
        return False
    word = v.group()
    if word.startswith("-") and word.endswith("-") and not text[s - 1].isspace():
        return text[s - 1].isalnum()
    if not text[s - 1].isspace():
        # "State of Punjab & Anr.v Iqbal Singh", "R.v. James Lloyd": glued to an abbreviation's full stop.
        return (word in ("v", "v.") and s > 1 and text[s - 1] == "." and text[s - 2].isalpha()
                and text[v.end() : v.end() + 1].isspace())
    if word == "V" and not re.match(r"[a-z]{2}$", text[max(0, s - 3) : s - 1]):
        return False
    return not (word.startswith("V") and _NOT_VERSUS_BEFORE.search(text, max(0, s - 9), s))


def _case_name(
    text: str, v_start: int, v_end: int, chain_at: dict[int, Chain], versus: frozenset[int]
) -> PrecedentMatch | None:
    left = _walk_left(text, v_start, cross_comma=True)
    if left is None:
        return None
    right = _walk_right(text, v_end, versus)
    if right is None:
        return None
    end, kind, normalised = right, "name", None
    attached = _attach_citation(text, right, chain_at)
    if attached is not None:
        end, kind, normalised = attached
    else:
        case_no = _CASE_NO_AFTER.match(text, right)
        footnote = _FOOTNOTE.match(text, right)
        if case_no is not None:
            end = case_no.end()
        elif footnote is not None:
            end = footnote.end()
        else:
            # "National Highway Authority of India v. Ganga Enterprises etc.": a trailing "etc." with nothing after
            # it is left out (3 of 3 such names in the fit part); before a citation it stays in.
            etc = _TRAILING_ETC.search(text, v_end, end)
            if etc is not None:
                end = etc.start()
    if kind == "name" and left > 0 and text[left - 1] == "(" and text.startswith(")", end):
        # "(Prahlad Singh v. Sukhdev Singh) AIR 1987 Supreme Court 1145"
        after = _attach_citation(text, end + 1, chain_at)
        if after is not None:
            return PrecedentMatch(left - 1, after[0], after[1], after[2], anchor=v_start)
    before = _CASE_NO_BEFORE.search(text, max(0, left - 120), left)
    if before is not None:
        left = before.start(1)
    elif kind == "name":
        # "Criminal Appeal No. 1602 of 2012 (Sahabuddin & Anr vs. State of Assam)"
        opened = _CASE_NO_PAREN.search(text, max(0, left - 120), left)
        close = re.compile(r"[ \t]?\)").match(text, end)
        if opened is not None and close is not None:
            left, end = opened.start(1), close.end()
    return PrecedentMatch(left, end, kind, normalised, anchor=v_start)


def _attach_citation(text: str, pos: int, chain_at: dict[int, Chain]) -> Chain | None:
    """A citation chain following a case name at ``pos``, brackets included: ", (2014) 8 SCC 273", " [(..)]"."""
    m = _ATTACH.match(text, pos)
    if m is None:
        return None
    p = m.end()
    if p in chain_at:
        return chain_at[p]
    opened = _BRACKETS.match(text, p)
    if opened is None:
        return None
    # "[(2004) 1 SCC 663]": the chain may itself start with one of the brackets.
    for q in range(opened.end(), p, -1):
        if q in chain_at:
            end, kind, normalised = chain_at[q]
            want = sum(1 for ch in text[p:q] if ch in "([{")
            close = _CLOSE.match(text, end)
            if close is None:
                return end, kind, normalised  # "Sarla Varma v. DTC (2010(2) KLT 802 (SC)": never closed
            end = close.start(1) + min(want, len(close.group(1)))
            if want <= len(close.group(1)):
                end = court_marks(text, end)  # "CIT v. Dr. Rameshwarlal Pahwa (123 ITR 681) (Del)"
            return _bracketed_parallel(text, end, chain_at), kind, normalised
    return None


def _bracketed_parallel(text: str, end: int, chain_at: dict[int, Chain]) -> int:
    """Extend a bracketed citation over a bracketed parallel one: "[1997 (7) SCC 43]:[1997 KHC 1048]"."""
    m = _PARALLEL_BRACKET.match(text, end)
    if m is None or m.end() not in chain_at:
        return end
    close = _CLOSE.match(text, chain_at[m.end()][0])
    return close.end() if close is not None and close.group(1)[0] in ")]" else end


def _name_before_chain(text: str, start: int, end: int, kind: str, normalised: str) -> PrecedentMatch:
    """Grow a citation chain to the left over a case name written without "v.".

    "Susamma Thomas, 1994 ACJ 1 (SC)", "Col. Singhi [1971] 1 SCR 791", "Sarla Verma's case (2009 (6) SCC 1)".
    """
    p = start
    opened = re.compile(r"[\(\[\{][ \t]?$").search(text, max(0, p - 3), p)
    if opened is not None:
        close = _CLOSE.match(text, end)
        if close is None:
            return PrecedentMatch(start, end, kind, normalised)
        p = opened.start()
        end_if_named = close.start(1) + 1
    else:
        end_if_named = end
    sep = _BEFORE_CHAIN.search(text, max(0, p - 16), p)
    q = sep.start() if sep is not None and sep.group() else p
    if q == p and p > 0 and not text[p - 1].isspace():
        return PrecedentMatch(start, end, kind, normalised)
    case_word = re.compile(r"([ \t])?(?:['\u2019]s?[ \t]|[ \t])?case[ \t]?$").search(text, max(0, q - 9), q)
    if case_word is not None:
        if case_word.group(1) and any(q_ in case_word.group() for q_ in "'\u2019"):
            # "Mohar Singh 's case [AIR 1955 SC 84]": with the possessive split off (the corpus' tokenisation
            # of some judgments) the name is left out of the span.
            return PrecedentMatch(start, end, kind, normalised)
        q = case_word.start()
    left = _walk_left(text, q, cross_comma=False)
    if left is None:
        return PrecedentMatch(start, end, kind, normalised)
    words = [w for w in text[left:q].split() if w not in _CONNECTORS]
    needed = 2 if text[q:p].strip()[:1] in (",", ";", ":", "-", "\u2013") else 1
    if any(w in ("Court", "Bench", "Tribunal", "Commission") for w in words):
        return PrecedentMatch(start, end, kind, normalised)  # "the Kerala High Court (1964 KLT 298)"
    if len(words) < needed or (opened is None and case_word is not None):
        return PrecedentMatch(start, end, kind, normalised)
    return PrecedentMatch(left, end_if_named if opened is not None else end, kind, normalised, core_start=start)


def _walk_left(text: str, v_start: int, *, cross_comma: bool) -> int | None:
    """Start of the party name ending at ``v_start``; None when there is none.

    With ``cross_comma`` one comma may be crossed: "Chief Commissioner, Ajmer v. Radhey Shyam".
    """
    start: int | None = None
    commas = 0 if cross_comma else 1
    for n, (pos, tok) in enumerate(words_before(text, v_start, split_commas=True)):
        opener = _OPEN_QUOTES if tok.count("(") > tok.count(")") else _OPEN_QUOTES[:-1]
        lead = len(tok) - len(tok.lstrip(opener))
        core = tok[lead:]
        if core.endswith(",") and n == 0:
            core = core[:-1]  # "Minerva Mills Ltd., v. Union of India"
        elif core.endswith((",", ";", ":")):
            if core.endswith((";", ":")) or commas or n == 0:
                break
            commas += 1
            core = core[:-1]
        if n >= _MAX_LEFT or not core or core in _LEFT_STOP:
            break
        numbered = _GLUED_NUMBER.match(core)
        if numbered is not None:
            word = core[numbered.end() :]
            if word in _LEFT_STOP or not _PARTY_TOKEN.match(word):
                break  # "16.In Hem Chand v. State of Haryana": the paragraph number goes with "In"
            start = pos + lead  # InLegalNER labels the whole word, number and all
            break
        if (core not in _CONNECTORS and not _PARTY_TOKEN.match(core) and not _FOOTNOTE_TOKEN.match(core)
                and not _hyphenated(text, pos, core)):
            break
        start = pos + lead
        if lead:
            break
    if start is None:
        return None
    return _trim_leading(text, start, v_start)


def _hyphenated(text: str, pos: int, core: str) -> bool:
    """The rest of a capitalised word broken at a line's end: "Manu- facturing" of "Siemens Engineering & Manu-
    facturing Co.", read leftwards from the word at ``pos``."""
    return core.isalpha() and core.islower() and _BROKEN_WORD.search(text, max(0, pos - 24), pos) is not None


def _trim_leading(text: str, start: int, limit: int) -> int | None:
    word = re.compile(r"(\S+)\s*")
    while start < limit:
        m = word.match(text, start)
        assert m is not None
        w = m.group(1).rstrip(",")
        if w in _CONNECTORS or w in _LEFT_STOP or w in ("'s", "\u2019s") or w.startswith("("):
            start = m.end()
            continue
        break
    return start if start < limit and text[start:limit].strip() else None


def _walk_right(text: str, v_end: int, versus: frozenset[int] = frozenset()) -> int | None:
    """End of the second party's name starting after the "v." ending at ``v_end``; None when there is none.

    ``versus`` holds the starts of every "v." in the text: reaching another one means two cases were joined,
    and the name ends before the last comma crossed ("State of West Bengal v. Ratan Behari Dey, Sasadhar
    Chakravarthy and Another v. Union of India") or else before the last "and" ("X v. CIT and Indo-Commercial
    Bank Ltd. v. CIT").
    """
    window = text[v_end : min(len(text), v_end + 400)]
    blank = _BLANK_LINE.search(window)
    if blank is not None:
        window = window[: blank.start()]
    end: int | None = None
    before_and: int | None = None
    before_comma: int | None = None
    prev_core = ""
    for i, m in enumerate(_TOKEN.finditer(window)):
        pos, tok = m.start() + v_end, m.group()
        if pos in versus:
            end = before_comma if before_comma is not None else before_and
            break
        if tok in ("and", "&", "AND") and end is not None:
            before_and = end
        if i >= _MAX_RIGHT or _CITE_START.match(tok):
            break
        tok, core = _name_word(tok, first=i == 0)
        if not _continues_name(core, prev_core if i else None):
            break
        prev_core = core
        end = pos + tok.index(core) + len(core)
        closing = tok[tok.index(core) + len(core) :][:1]
        if core != tok and not tok.endswith(core + ".") and closing in ",;:\"'\u2019\u201d)":
            following = itertools.islice(_TOKEN.finditer(window, m.end()), 12)
            if not _continues_after_comma(text, end, [(f.start() + v_end, f.group()) for f in following]):
                break
            if closing == ",":
                before_comma = end
    if end is None:
        return None
    return _trim_trailing(text, v_end, end)


def _name_word(tok: str, *, first: bool) -> tuple[str, str]:
    """A token of a party's name without what is glued to it, and its core without punctuation.

    "Dr.B.S.Mahajan-AIR" ends before the citation after the hyphen; "Munshi(1)" before its footnote mark.
    """
    cite = _GLUED_CITE.search(tok)
    if cite is not None and cite.start() > 0:
        tok = tok[: cite.start()]
    balanced = tok.startswith("(") and tok.endswith(")")
    glued = re.search(r"\(\d{1,2}\)$", tok)
    if glued is not None and glued.start() > 0 and not balanced:
        tok = tok[: glued.start()]
    core = tok if balanced else tok.rstrip(",;:)\"'\u2019\u201d")
    return tok, core.lstrip(_OPEN_QUOTES) if first else core


def _continues_name(core: str, prev: str | None) -> bool:
    """Whether ``core`` (after the word ``prev``, None for the first) is still part of a party's name."""
    if not core or core in _RIGHT_STOP or core.lower().startswith("(supra"):
        return False
    if core not in _CONNECTORS and core.lower() not in _CONNECTORS and not _PARTY_TOKEN.match(core):
        if prev is None or not (core.isalpha() and core.islower()):
            return False
        # "Collector of Excise, Govern- ment of Tripura": a word broken at a line's end; "Punjab National Bank Ltd.
        # Vs. Its workmen".
        return _BROKEN_WORD.fullmatch(prev + " ") is not None or prev in ("Its", "Their")
    # "Sangram Singh v. Election Tribunal Kotah the Apex Court held" is prose; "Secretary to the" is not.
    return not (core == "the" and prev is not None and prev.lower() not in _JOINS_THE)


def _continues_after_comma(text: str, end: int, nxt: list[tuple[int, str]]) -> bool:
    """Whether a name runs on after a comma.

    It does before a citation ("District Board, Nadia, AIR 1942 Cal 360"; "Income - Tax Officer, District
    IV, Calcutta and others AIR 1964 SC 1742") and when the words up to the end of the name are all a name's
    words, a place or an office closing it ("Presiding Officer, Labour Court, Assam and has again been
    affirmed", "Board of Revenue, Bihar , ."). It does not before prose ("State of Punjab, the Court held"),
    a judge ("State of Punjab, Kapur J. observed") or a person ("State of Punjab, Mr. Sibal argued").
    """
    if not text.startswith(",", end) or not nxt:
        return False
    words = 0
    for j, (_pos, tok) in enumerate(nxt[:12]):
        if _CITE_START.match(tok):
            return j > 0
        core = tok.rstrip(",")
        if not core:
            continue  # a comma standing alone: "Bihar , ."
        if core in _RIGHT_STOP or core in _LEFT_STOP or core in _TITLES:
            return False
        if core in _CONNECTORS or core.lower() in _CONNECTORS:
            continue
        if _PARTY_TOKEN.match(core) or re.fullmatch(r"[IVX]+", core):
            words += 1
            continue
        # The name has ended: it did so well if prose or the end of the sentence follows.
        return words > 0 and (core[0].islower() or core[0] in ".;:(")
    # The text ends: "Tulsidas Paul v. Second Labour Court, W.B."
    last_pos, last_tok = nxt[-1]
    return words > 0 and _TEXT_END.match(text, last_pos + len(last_tok)) is not None


def _trim_trailing(text: str, begin: int, end: int) -> int | None:
    """Drop trailing connectors and a sentence-final full stop ("... State of Punjab." -> "State of Punjab")."""
    words = list(re.finditer(r"\S+", text[begin:end]))
    while words and words[-1].group().rstrip(".,") in _TRAILING_DROP:
        words.pop()
    if not words:
        return None
    last = words[-1]
    stop = begin + last.end()
    word = last.group()
    if word.endswith(".") and not _keeps_dot(word):
        stop -= 1
    return stop


def _keeps_dot(word: str) -> bool:
    bare = word.rstrip(".").lower()
    if bare in _ABBREV or len(bare) == 1:
        return True
    # Initials and dotted abbreviations: "U.P.", "M.P.", "S.C.", "Co.Ltd."
    return "." in bare


def _resolve(text: str, found: list[PrecedentMatch]) -> list[PrecedentMatch]:
    """Keep the longest of overlapping spans, earliest first."""
    found.sort(key=lambda p: (p.start, -(p.end - p.start)))
    out: list[PrecedentMatch] = []
    for p in found:
        if out and p.start < out[-1].end:
            # "Lalita Kumari v. Government of Uttar Pradesh and 2024 INSC 123": the name belongs to the case
            # before; the citation stands on its own.
            if p.core_start is not None and p.core_start >= out[-1].end:
                out.append(PrecedentMatch(p.core_start, p.end, p.kind, p.normalised))
                continue
            # "Mahabir Auto Stores v. Indian Oil Corporation, Srilekha Vidyarthi v. State of U.P.": the second
            # case's first party starts after the first case.
            start = _after_case(text, out[-1].end, p.anchor) if p.anchor is not None else None
            if start is not None and p.end > out[-1].end:
                out.append(PrecedentMatch(start, p.end, p.kind, p.normalised, p.core_start, p.anchor))
            continue
        out.append(p)
    return out


def _after_case(text: str, end: int, anchor: int) -> int | None:
    """Start of a party name after the case ending at ``end`` and before the "v." at ``anchor``."""
    sep = _CASE_SEP.match(text, end, anchor)
    if sep is None or sep.end() >= anchor:
        return None
    return _trim_leading(text, sep.end(), anchor)
