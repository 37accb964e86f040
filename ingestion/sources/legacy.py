"""The repealed criminal codes (IPC, CrPC, IEA) as JSON arrays (``data/corpus/legacy``).

Every section is repealed from 2024-07-01 by BNS s.358, BNSS s.531 and BSA s.170. Sections the
file itself marks as repealed earlier (IPC 161-165A "Rep. by the Prevention of Corruption Act, 1988
(49 of 1988), S. 31") end on the date of that earlier instrument where we know it.
"""

from __future__ import annotations

import re
from pathlib import Path

from graph_schema.acts import REPEALED_CODES
from graph_schema.errors import IngestError, InvalidSectionNumberError
from graph_schema.model import NEW_CRIMINAL_CODES_IN_FORCE, Chapter, Section, SectionStatus
from ingestion.report import Reject
from ingestion.sources.base import ChapterAssignment, Parsed, read_json_array, text_or_none
from ingestion.sources.legacy_layout import CLAUSES, NUMBERED_CLAUSES, restore_labels
from ingestion.subunits import parse_subunits

LEGACY_FILES = {"ipc.json": "IPC", "crpc.json": "CRPC", "iea.json": "IEA"}

# Commencement of instruments that repealed sections before 2024. The Prevention of Corruption
# Act, 1988 came into force on 9 September 1988; the Adaptation of Laws Order 1950 on 26 January
# 1950; the Government of India (Adaptation of Indian Laws) Order 1937 on 1 April 1937.
_EARLIER_REPEALS = (
    (re.compile(r"Prevention of Corruption Act,?\s*1988", re.I), "1988-09-09"),
    (re.compile(r"A\.\s*O\.\s*1950", re.I), "1950-01-26"),
    (re.compile(r"A\.\s*O\.\s*1937", re.I), "1937-04-01"),
)
_ACT_OF_YEAR = re.compile(r"\(\s*\d+\s+of\s+(1[89]\d\d|20[0-2]\d)\s*\)")
_ACT_YEAR = re.compile(r"\bAct,?\s+(1[89]\d\d|20[0-2]\d)\b")
_REPEALED_MARK = re.compile(r"^\s*\[?\s*(?:Rep\.|Repealed\b)", re.I)

# Sections inserted into the old codes after they were enacted, with the amending Act's
# commencement (India Code footnotes to the codes as they stood before repeal). Without this the
# Code's own start date would claim, say, IPC 498A in force in 1980.
INSERTED: dict[str, dict[str, tuple[str, str]]] = {
    "IPC": {
        "498A": ("1983-12-25", "Act 46 of 1983"),
        "304B": ("1986-11-19", "Act 43 of 1986"),
        **dict.fromkeys(("166A", "166B", "326A", "326B", "354A", "354B", "354C", "354D", "370A"),
                        ("2013-02-03", "Act 13 of 2013")),
        **dict.fromkeys(("376AB", "376DA", "376DB"), ("2018-04-21", "Act 22 of 2018")),
    },
    "CRPC": {
        **dict.fromkeys(("53A", "164A", "436A"), ("2006-06-23", "Act 25 of 2005")),
        **dict.fromkeys(tuple(f"265{c}" for c in "ABCDEFGHIJKL"), ("2006-07-05", "Act 2 of 2006")),
        "357A": ("2009-12-31", "Act 5 of 2009"),
        **dict.fromkeys(("357B", "357C"), ("2013-02-03", "Act 13 of 2013")),
    },
    "IEA": {
        **dict.fromkeys(("65A", "65B"), ("2000-10-17", "Act 21 of 2000")),
        "113A": ("1983-12-25", "Act 46 of 1983"),
        "114A": ("1983-12-25", "Act 43 of 1983"),
        "113B": ("1986-11-19", "Act 43 of 1986"),
        "53A": ("2013-02-03", "Act 13 of 2013"),
    },
}

_ROMAN = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
          (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))  # fmt: skip


def roman(n: int) -> str:
    out = ""
    for value, numeral in _ROMAN:
        while n >= value:
            out += numeral
            n -= value
    return out


def read_legacy(path: Path, act: str | None = None) -> Parsed:
    """Read ``ipc.json`` / ``crpc.json`` / ``iea.json`` (or any file of that shape with ``act`` given)."""
    code = act or LEGACY_FILES.get(path.name.lower())
    if code is None:
        raise IngestError(f"{path.name}: cannot tell which repealed code this is; name it ipc/crpc/iea.json")
    act_obj = next((a for a in REPEALED_CODES if a.code == code), None)
    out = Parsed()
    if act_obj is not None:
        out.acts.append(act_obj)
    end = act_obj.in_force_to if act_obj else NEW_CRIMINAL_CODES_IN_FORCE
    seen: set[str] = set()
    rows = read_json_array(path)
    titles = _chapter_titles(rows)
    for i, r in enumerate(rows, start=1):
        if not isinstance(r, dict):
            out.rejects.append(Reject(path.name, i, "expected a JSON object", code))
            continue
        raw_no = r.get("Section", r.get("section"))
        try:
            number = canonical_section(raw_no)
        except InvalidSectionNumberError as exc:
            out.rejects.append(Reject(path.name, i, str(exc), code))
            continue
        if number in seen:
            out.rejects.append(Reject(path.name, i, f"duplicate section {code} {number}", code))
            continue
        seen.add(number)
        title = text_or_none(r.get("section_title"))
        raw_text = text_or_none(r.get("section_desc"))
        # The labels "(1)", "(a)" were lost with the source's HTML lists; restored from the layout.
        text = _untab(restore_labels(raw_text, NUMBERED_CLAUSES if code == "IEA" else CLAUSES)) if raw_text else None
        in_force_to: str | None = end
        if _REPEALED_MARK.match(title or "") or _REPEALED_MARK.match(raw_text or ""):
            # Repealed long before 2024; with no date we claim no end date rather than 2024-07-01.
            in_force_to = _earlier_repeal(f"{title} {text}")
        chapter = None
        ch_no = r.get("chapter")
        if isinstance(ch_no, int) or (isinstance(ch_no, str) and ch_no.isdigit()):
            chapter = Chapter(act=code, number=roman(int(ch_no)), title=titles.get(int(ch_no), ""))
            out.chapters.append(ChapterAssignment(code, number, chapter))
        out.sections.append(
            Section(
                act=code,
                number=number,
                title=title,
                text=text,
                status=SectionStatus.REPEALED,
                in_force_from=INSERTED.get(code, {}).get(number, (None, ""))[0],
                in_force_to=in_force_to,
                chapter=chapter.key if chapter else None,
                order=i,
                source=f"legacy/{path.name}",
                subunits=parse_subunits(text) if text else (),
            )
        )
    return out


def _untab(text: str) -> str:
    """The source's HTML indentation (tabs before list items and table cells, tab-only lines) gone: each
    line stripped, runs of blank lines one paragraph break. Words and line order are kept."""
    if "\t" not in text:
        return text
    lines = [ln.strip() for ln in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def canonical_section(raw: object) -> str:
    from graph_schema.numbering import canonical_section as canon

    if raw is None:
        raise InvalidSectionNumberError("record has no section number")
    return canon(str(raw))


def _chapter_titles(rows: list[object]) -> dict[int, str]:
    """Each chapter's title from its first row.

    Later rows of a chapter often carry a sub-heading in ``chapter_title`` instead (IPC chapter 16
    rows read "hurt", "sexual offences", "unnatural offences" after s.299's "offences affecting the
    human body"); see legacy/SOURCE.md.
    """
    out: dict[int, str] = {}
    for r in rows:
        if not isinstance(r, dict):
            continue
        ch = r.get("chapter")
        if isinstance(ch, str) and ch.isdigit():
            ch = int(ch)
        if isinstance(ch, int) and ch not in out:
            t = re.sub(r"\s+", " ", str(r.get("chapter_title") or "")).strip()
            out[ch] = t[:1].upper() + t[1:]
    return out


def _earlier_repeal(text: str) -> str | None:
    """When an early repeal took effect: a known instrument's commencement, else the 1st of January
    of the repealing Act's year ("Repealed by the Indian Penal Code (Amendment) Act, 1949 (17 of
    1949)" -> 1949-01-01, an upper bound: we never claim the section in force after that year began)."""
    for pattern, date in _EARLIER_REPEALS:
        if pattern.search(text):
            return date
    m = _ACT_OF_YEAR.search(text) or _ACT_YEAR.search(text)
    return f"{m.group(1)}-01-01" if m else None
