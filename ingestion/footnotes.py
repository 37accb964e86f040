"""India Code footnotes and markers: amendment events, section status and clean display text.

India Code prints a section's amendment history as numbered footnotes keyed to inline markers in
the text: ``^1[inserted or substituted words]`` and ``^2* * * * *`` (omitted words). This module

* reads the footnotes into :class:`~graph_schema.model.Amendment` events (:func:`parse_footnotes`),
* decides from the heading and the text whether a section is still in force
  (:func:`section_status`), and
* strips the markers and the PDF's hard line wraps for display and sub-unit parsing
  (:func:`clean_text`).

Footnotes that record no amendment are skipped: commencement notes ("22nd August, 1996, vide
notification No. G.S.R 375(E)" is the Act's in-force date, which belongs on the Act), extent notes
("The Act has been extended to ..."), cross-references ("See now ...", "Cf. s. 238, infra.") and the
Supreme Court's striking down of IT Act s.66A (a judgment, not an amending instrument).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date

from graph_schema.markers import strip_markers
from graph_schema.model import Amendment, AmendmentKind, SectionStatus
from ingestion.dates import parse_date

__all__ = ["clean_text", "parse_footnotes", "section_status"]

# ---------------------------------------------------------------------------------------------
# Splitting footnotes
# ---------------------------------------------------------------------------------------------

# OCR sometimes letter-spaces a whole footnote ("2 . I n s . b y s . 1 9 , i b i d ." in TPA
# s.58): a run of four or more one-character tokens is one word group with its spaces lost.
_SPACED_RUN = re.compile(r"(?<!\S)\S(?!\S)(?: \S(?!\S)){3,}")
_LINE_HEAD = re.compile(r"^(?P<label>\d{1,3}|\*)(?!\d)[ \t]*(?P<dots>\.*)[ \t]*(?P<rest>.*)$")
_ORDINAL = re.compile(r"^(?:st|nd|rd|th)\b")
# A footnote that begins with a date is a commencement note, e.g. "1st July, 2024, except ...".
_DATE_START = re.compile(r"^\d{1,2}\s*(?:st|nd|rd|th)?\s+[A-Z][a-z]+,?\s+\d{4}")
_NOTE_START = re.compile(
    r"^(?:See\b|Cf\.|But\s+see\b|For\s|As\s+to\b|Vide\b|This\s+Act\b|The\s+Act\s+has\b|The\s+application\b"
    r"|In\s+its\s+application\b|Nothing\s+in\b)",
    re.IGNORECASE,
)


def _unspace(m: re.Match[str]) -> str:
    s = m.group(0).replace(" ", "")
    s = re.sub(r"([.,])(?=\w)", r"\1 ", s)
    return re.sub(r"\bby(?=[a-zA-Z])", "by ", s)


def _split(footnotes: str) -> Iterator[tuple[str, str]]:
    """Yield ``(label, body)`` for each numbered or starred footnote.

    A line opens a footnote when it starts with ``N.`` or ``*``, or with an undotted number right
    before a capital (``1Subs. by``, ``12 Subs. by``, IT Act's ``2\nSubs. by``). A wrapped line such
    as ``2 and the First Schedule``, ``1.9.1984 vide`` or ``10\n-\n2009)`` continues its note, and so
    does ``1st September, 1984, vide ...``; ``5. 1st April, 1937.`` opens one.
    """
    lines = [_SPACED_RUN.sub(_unspace, ln.strip()) for ln in footnotes.replace("\r", "").split("\n")]
    label: str | None = None
    body: list[str] = []
    for i, line in enumerate(lines):
        m = _LINE_HEAD.match(line)
        rest = (m.group("rest") or next((ln for ln in lines[i + 1 :] if ln), "")) if m else ""
        opens = False
        if m and m.group("dots") and _DATE_START.match(rest):
            opens = True  # "2. 22nd August, 1996, vide notification ..." (a commencement note)
        elif m and rest and not _ORDINAL.match(rest) and not rest[0].isdigit():
            if m.group("label") == "*" or m.group("dots"):
                opens = rest[0].isalpha() or rest[0] in "\"'“‘*[("
            else:
                opens = rest[0].isupper()
        elif m and label is None and m.group("label") != "*":
            opens = bool(rest)  # the first line always opens its note ("1 17\nth\nOctober, 2000, vide ...")
        if m and opens:
            if label is not None:
                yield label, " ".join(body)
            label, body = m.group("label"), [m.group("rest")]
        elif line:
            label = label or "?"  # text before any numbered footnote is an unnumbered note
            body.append(line)
    if label is not None:
        yield label, " ".join(body)


# ---------------------------------------------------------------------------------------------
# Classifying one footnote
# ---------------------------------------------------------------------------------------------

_VERBS: tuple[tuple[AmendmentKind, str], ...] = (
    (AmendmentKind.RENUMBERED, r"re-?\s?numbered|numbered|re-?\s?lettered|relattered|lettered"),
    (AmendmentKind.INSERTED, r"ins\b\.?|inserted"),
    (AmendmentKind.SUBSTITUTED, r"subs\b\.?|substituted"),
    (AmendmentKind.OMITTED, r"omitted"),
    (AmendmentKind.REPEALED, r"rep\b\.?|repealed"),
    (AmendmentKind.ADDED, r"added"),
    (AmendmentKind.AMENDED, r"amended|adapted|modified"),
)
_VERB_RE = re.compile("|".join(rf"(?P<{k.name}>\b(?:{p}))" for k, p in _VERBS), re.IGNORECASE)
# A verb in a relative or historical clause ("which had been subs. by the A.O. 1950", "Earlier it
# was inserted by ...", "The words in italics were subs. by ...") is history, not this footnote's
# event.
_HISTORY = re.compile(r"\b(?:which|earlier|had\s+been|were)\b[^,.;]*$", re.IGNORECASE)
_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”")

_WEF = re.compile(
    r"(?:(?:w\s*\.?\s*e\s*\.?\s*f\b\s*\.?|with\s+effect\s+from)\s*)+"
    r"(\d{1,2}\s*[-./]+\s*\d{1,2}\s*[-./]+\s*\d{4})",
    re.IGNORECASE,
)
# "(w.e.f. 27-5-2976)" in HMA s.13 is a typo, and a typo is not a date we may guess at. An
# amendment takes effect within a few years of its Act (Act 32 of 2019: 1-4-2022) or before it
# (Act 48 of 2021 was retrospective to 1-5-2014), never decades later.
_FIRST_YEAR, _LAST_YEAR = 1800, 2100
_MAX_DELAY_YEARS = 10

_STATE_PREFIX = r"(?:(?P<state>Pun\.|Bom\.|W\.\s?B\.|U\.\s?P\.|M\.\s?P\.|Bombay|Madras|Bihar|Punjab)\s+)?"
_INSTRUMENTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("ibid", re.compile(r"\b(?:ibidi?|bid)\b", re.IGNORECASE)),
    ("named_act", re.compile(r"\bAct\s*,?\s*\d{4}\s*,?\s*\(\s*(?:Act\s+)?(?P<n>\d+)\s+of\s*(?P<y>\d{4})\s*\)")),
    ("act", re.compile(_STATE_PREFIX + r"\bActs?\s+(?:of\s+)?(?P<n>\d+)\s+of\s*(?P<y>\d{4})")),
    ("ao", re.compile(r"\bA\.\s*O\.\s*(?:\(\s*No\.\s*(?P<no>\d)\s*\)\s*,?\s*)?(?:Order\s*,?\s*)?(?P<y>\d{4})")),
    (
        "aol",  # "the Adaptation of Laws (No. 2) Order, 1956", "Adaption of Laws (No. 2) 1956"
        re.compile(
            r"(?:(?<=\bby\s)|(?<=\bthe\s))Adapt(?:at)?ion\s+of\s+Laws\s*"
            r"(?:\(\s*No\.\s*(?P<no>\d)\s*\))?\s*(?:Order)?\s*,?\s*(?P<y>\d{4})"
        ),
    ),
    ("order", re.compile(r"\bOrder\s*,?\s*(?P<y>\d{4})\b")),
    ("reg", re.compile(r"\bReg(?:ulation)?\.?\s+(?P<n>\d+)\s+of\s+(?P<y>\d{4})")),
    ("ord", re.compile(r"\bOrd(?:inance)?\.?\s+(?P<n>\d+)\s+of\s+(?P<y>\d{4})")),
    ("notification", re.compile(r"\bnotification\s+No\.?\s*(?P<so>(?:S\.\s*O\.|G\.\s*S\.\s*R\.?)\s*\d+\s*\(E\))")),
)
_ORDER_NAME_START = re.compile(r"^(?:.*?\bby\s+)?(?:the\s+)?", re.IGNORECASE)


def _mask_quotes(s: str) -> str:
    """Blank out quoted old words so verbs and Act names inside them are not read as events."""
    return _QUOTED.sub(lambda m: m.group(0)[0] + "_" * (len(m.group(0)) - 2) + m.group(0)[-1], s)


def _main_verb(masked: str) -> tuple[AmendmentKind, int, int] | None:
    """The footnote's own event: its opening verb ("Subs. by ...") or else its last live verb.

    "The words ... ins. by Act 38 of 1925, s. 2, omitted by Act 20 of 1929" (TPA s.130) ends with
    the omission; "Paragraph 2, ins. by the A.O. 1937, ... was Rep. by the A. O. 1950" (Contract Act
    s.21) with the repeal.
    """
    live = [m for m in _VERB_RE.finditer(masked) if not _HISTORY.search(masked[max(0, m.start() - 40) : m.start()])]
    if not live:
        return None
    first = live[0]
    chosen = first if first.start() == 0 else live[-1]
    kind = AmendmentKind[next(k for k, v in chosen.groupdict().items() if v)]
    return kind, chosen.start(), chosen.end()


def _instrument(region: str, previous: str | None) -> tuple[str | None, str]:
    """Normalised amending instrument named first in ``region``, and how it was named.

    Returns ``(name, how)``: ``how`` is ``"named"``, ``"ibid"`` (``name`` is then ``previous``,
    itself None when unknown: never a guess) or ``""`` when the region names no instrument.
    """
    best: tuple[int, str, re.Match[str]] | None = None
    for kind, rx in _INSTRUMENTS:
        m = rx.search(region)
        if m and (best is None or m.start() < best[0]):
            best = (m.start(), kind, m)
    if best is None:
        return None, ""
    _, kind, m = best
    g = m.groupdict()
    if kind == "ibid":
        return previous, "ibid"
    if kind in {"named_act", "act"}:
        state = f"{g['state']} " if g.get("state") else ""
        return f"{state}Act {g['n']} of {g['y']}", "named"
    if kind in {"ao", "aol"}:
        if g.get("no"):
            return f"Adaptation of Laws (No. {g['no']}) Order, {g['y']}", "named"
        return f"A.O. {g['y']}", "named"
    if kind == "order":
        head = _ORDER_NAME_START.sub("", region[: m.start()], count=1).strip(" ,")
        if head == "Government of India (Adaptation of Indian Laws)":
            return f"A.O. {g['y']}", "named"
        plausible = head[:1].isupper() and len(head) <= 150
        return (f"{head} Order, {g['y']}" if plausible else None), "named"
    if kind in {"reg", "ord"}:
        return f"{kind.capitalize()}. {g['n']} of {g['y']}", "named"
    return re.sub(r"(?<=[.R])(?=\d)", " ", re.sub(r"\s+", "", g["so"])), "named"


def _dated(text: str, instrument: str | None, via_ibid: bool) -> tuple[str | None, str | None]:
    """``(instrument, effective)`` with the first "w.e.f. D-M-YYYY" in ``text`` checked against it.

    A date outside 1800-2100 is a typo and is dropped. A date more than ten years after the
    instrument's year contradicts it: "2. Subs. by s. 8, ibid., for "six months" (w.e.f. 1-5-2014)"
    under NDPS s.18 follows a footnote on Act 9 of 2001, because India Code's "ibid" points at a
    footnote of the previous section on the same page; the printed date stands and the instrument
    becomes unknown. An instrument named outright keeps its name and loses the date ("Subs. by Act
    2 of 1951, s. 3 for "the States" (w.e.f. 1-2-1977)", CPC s.20).
    """
    m = _WEF.search(text)
    iso = parse_date(m.group(1)) if m else None
    if iso is None or not _FIRST_YEAR <= int(iso[:4]) <= _LAST_YEAR:
        return instrument, None
    made = re.search(r"(\d{4})$", instrument or "")
    if made and int(iso[:4]) > int(made.group(1)) + _MAX_DELAY_YEARS:
        return (None, iso) if via_ibid else (instrument, None)
    return instrument, iso


_STRUCK_DOWN = re.compile(
    r"\bstruck\s+down\s+by\s+(?:the\s+)?Supreme\s+Court'?s?\s+(?:Order|judg(?:e)?ment)\s+dated\s+"
    r"(?P<day>\d{1,2})(?:st|nd|rd|th)?\s+(?P<month>[A-Z][a-z]+),?\s+(?P<year>\d{4}),?\s+in\s+(?:the\s+)?"
    r"(?P<case>.+?)\.?$", re.IGNORECASE)
"""India Code's note of a judgment that struck a section down (IT Act s.66A, Shreya Singhal)."""
_MONTHS = {m: i for i, m in enumerate(("january", "february", "march", "april", "may", "june", "july", "august",
                                       "september", "october", "november", "december"), start=1)}  # fmt: skip


def _struck_down(body: str) -> tuple[str, str] | None:
    """``(case, ISO date)`` of a struck-down note, None for any other footnote or an impossible date."""
    m = _STRUCK_DOWN.search(body)
    month = _MONTHS.get(m.group("month").lower()) if m else None
    if m is None or month is None:
        return None
    try:
        day = date(int(m.group("year")), month, int(m.group("day")))
    except ValueError:
        return None
    return m.group("case").strip().rstrip(",;"), day.isoformat()


def _classify(body: str, previous: str | None) -> tuple[AmendmentKind, str | None, str | None] | None:
    """``(kind, instrument, effective)`` for an amendment footnote (or a judgment striking the section down: the
    case as its instrument), None for a note."""
    judgment = _struck_down(body)
    if judgment is not None:
        return AmendmentKind.STRUCK_DOWN, judgment[0], judgment[1]
    if _DATE_START.match(body) or _NOTE_START.match(body):
        return None
    masked = _mask_quotes(body)
    verb = _main_verb(masked)
    if verb is None:
        # "Sub-section (6) by the Jammu and Kashmir Reorganization (Adaptation of Central Laws)
        # Order, 2020" (Family Courts Act s.19) names its instrument but lost its verb.
        by = re.search(r"\bby\b", masked)
        instrument, how = _instrument(masked[by.start() :], previous) if by else (None, "")
        if by is None or instrument is None:
            return None
        return (AmendmentKind.AMENDED, *_dated(body[by.start() :], instrument, how == "ibid"))
    kind, _, end = verb
    instrument, how = _instrument(masked[end:], previous)
    # The date is the one printed before the next verb: in "Subs. by the Adaptation of Laws (No. 2)
    # Order, 1956, ... The words in italics were ins. by Act 2 of 1951, s. 15 (w.e.f. 1-4-1951)"
    # (CPC s.122) the 1951 date is the insertion's, not the substitution's.
    nxt = _VERB_RE.search(masked, end)
    return (kind, *_dated(body[end : nxt.start() if nxt else len(body)], instrument, how == "ibid"))


def parse_footnotes(act: str, section: str, footnotes: str | None) -> tuple[Amendment, ...]:
    """Parse a section's India Code footnotes into amendment events.

    Args:
        act: Act code of the section (``"NIA"``).
        section: canonical section number (``"138"``).
        footnotes: the ``footnotes`` field, e.g. ``"1. Ins. by Act 66 of 1988, s, 4 (w.e.f. 1-4-1989).
            \\n\\n3. Subs. by s. 7, ibid., for within fifteen days (w.e.f. 6-2-2003)."``

    Returns:
        One :class:`Amendment` per amendment footnote, in footnote order. ``footnote`` is the printed
        label (``"1"``, ``"*"``), with ``"-2"``, ``"-3"`` appended when a label repeats; ``amending_act``
        is normalised (``"Act 55 of 2002"``, ``"A.O. 1950"``, ``"Adaptation of Laws (No. 2) Order,
        1956"``) with "ibid" resolved to the previous amendment footnote's instrument of the same
        section, or None; ``effective`` is the "w.e.f." date, or None when none is printed. Notes
        that record no amendment (commencement dates, extent, cross-references) are skipped.
    """
    if not footnotes or not footnotes.strip():
        return ()
    out: list[Amendment] = []
    seen: dict[str, int] = {}
    previous: str | None = None
    for label, raw in _split(footnotes):
        body = re.sub(r"\s+", " ", raw).strip()
        result = _classify(body, previous)
        if result is None:
            continue
        kind, instrument, effective = result
        seen[label] = seen.get(label, 0) + 1
        key = label if seen[label] == 1 else f"{label}-{seen[label]}"
        out.append(Amendment(act, section, key, kind, instrument, effective, body))
        previous = instrument
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# Section status
# ---------------------------------------------------------------------------------------------

_GONE_TITLE = {"omitted": SectionStatus.OMITTED, "repealed": SectionStatus.REPEALED}
# The text of an omitted or repealed section is a note under its old heading: "[Guardianship in
# marriage.Omitted by the Child Marriage Restraint (Amendment) Act, 1978, (2 of 1978), s. 6 and
# Schedule (w.e.f. 1-10-1978)." (HMA s.6), "20. [Controller to act as repository.]Omitted by ..."
# (IT Act s.20), "[Rep. by the Repealing and Amending Act, 1960 ..." (HMA s.30). An in-force
# section never opens with a bracketed heading followed by a capitalised "Omitted by"/"Rep. by".
_GONE_NOTE = re.compile(
    r"^(?:\d+[A-Z]*\s*\.\s*)?\[[^\n]{0,300}?(?P<verb>Omitted|Rep\s*\.|Repealed)\s*by\b(?P<rest>[^\n]*)"
)


def section_status(title: str | None, text: str | None, footnotes: str | None) -> tuple[SectionStatus, str | None]:
    """Whether a section is in force, omitted or repealed, and the ISO date it ceased.

    The text's own note decides when there is one ("[...] Omitted by ... (w.e.f. 1-10-1978)"):
    Stamp Act s.3A is headed "[Repealed.]" but its note says "Omitted by the Refugee Relief Taxes
    (Abolition) Act, 1973", and Commercial Courts Act s.9 keeps its old heading over an omission
    note. Otherwise the heading decides ("[Omitted.].", "Repealed..", "Omitted."); "Repeal." and
    "Repeal and savings." head sections that repeal other Acts and are in force. A section that
    merely mentions repeal in its text (BNS s.358 "The Indian Penal Code ... is hereby repealed")
    stays in force.

    Args:
        title: the India Code heading.
        text: the raw section text (markers allowed).
        footnotes: the raw footnotes. Accepted so callers can pass a whole row, but never decisive:
            across the corpus no omitted or repealed section records its end only in a footnote, and
            footnotes that omit or repeal words *within* a section (Contract Act s.21 "The second
            Illustration to s. 21 rep. by Act 24 of 1917") or record a judgment (IT Act s.66A
            "struck down by Supreme Court's Order dated 24th March, 2015") do not end the section.

    Returns:
        ``(status, ceased)``: ``ceased`` is the w.e.f. date printed in the note, or None when the
        note gives none ("Omitted by Act X of YYYY" alone) or the section is in force.
    """
    del footnotes  # see Args: never decisive on this corpus
    if text and text.strip():
        first = clean_text(text).split("\n\n", 1)[0]
        m = _GONE_NOTE.match(first)
        if m:
            status = SectionStatus.OMITTED if m.group("verb") == "Omitted" else SectionStatus.REPEALED
            instrument, _ = _instrument(_mask_quotes(m.group("rest")), None)
            return status, _dated(m.group("rest"), instrument, via_ibid=False)[1]
    key = re.sub(r"[^a-z]", "", (title or "").lower())
    if key in _GONE_TITLE:
        return _GONE_TITLE[key], None
    return SectionStatus.IN_FORCE, None


# ---------------------------------------------------------------------------------------------
# Clean text
# ---------------------------------------------------------------------------------------------

_LABEL_START = re.compile(r"^\(\s*[0-9A-Za-z]{1,6}(?:-[0-9A-Za-z]{1,3})?\s*\)")
_BLOCK_WORD = re.compile(r"^(?:Provided\b|Explanation\b|Illustrations?\b|Exception\b)")
_DOUBLE_STOP = re.compile(r"(?<!\.)\.\.(?!\.)")
_BOUNDARY_END = re.compile(r"(?:[;:.—–―]|-{2,}|;\s*(?:or|and))$")


def _starts_block(current: str, line: str) -> bool:
    """A wrapped line that is really a new sub-unit or proviso missing its blank line."""
    return bool(_BOUNDARY_END.search(current)) and bool(_LABEL_START.match(line) or _BLOCK_WORD.match(line))


def clean_text(text: str) -> str:
    """India Code text without footnote markers or hard line wraps, paragraphs kept.

    ``^1[`` and its matching ``]`` go, as do ``^2* * * * *`` omission marks; lines inside a
    paragraph are joined with one space, or with none after a single hyphen (``(w.e.f.1-1-\\n1964)``
    reads ``(w.e.f.1-1-1964)``); paragraphs are separated by one blank line. A line that opens a
    sub-unit or proviso after a line ending in ``;``, ``:``, ``.`` or a dash starts a paragraph of
    its own. A doubled full stop (``fine..`` in BNS s.103(1), ``harm..`` in s.25: a typo of the
    printed text, or a marker's ``]`` removed between two stops) is one; an ellipsis stays. Words are
    never changed, added or dropped.
    """
    paragraphs: list[str] = []
    for para in re.split(r"\n[ \t]*\n", strip_markers(text.replace("\r\n", "\n").replace("\r", "\n"))):
        lines = [ln.strip() for ln in para.split("\n") if ln.strip()]
        if not lines:
            continue
        current = lines[0]
        for line in lines[1:]:
            if _starts_block(current, line):
                paragraphs.append(current)
                current = line
            elif re.search(r"[A-Za-z0-9]-$", current) and not current.endswith("--") and line[0].isalnum():
                current += line
            else:
                current += " " + line
        paragraphs.append(current)
    tidy = (_DOUBLE_STOP.sub(".", re.sub(r"[ \t]{2,}", " ", p)).strip() for p in paragraphs)
    return "\n\n".join(p for p in tidy if p)
