"""India Code sources: the catalogue of 846 central Acts, the index of all their sections, and the
full text of 43 Acts (``data/corpus/indiacode``, see its SOURCE.md)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from graph_schema.acts import CURATED_BY_SLUG, STOPWORDS, generated_code, slug_year, title_aliases
from graph_schema.errors import InvalidSectionNumberError
from graph_schema.model import Act, Section, SectionStatus
from graph_schema.numbering import canonical_section
from ingestion.dates import parse_date
from ingestion.footnotes import clean_text, parse_footnotes, section_status
from ingestion.report import Reject
from ingestion.sources.base import Parsed, read_jsonl, text_or_none
from ingestion.subunits import parse_subunits

# The section index gives placeholder titles ("Page 12") where India Code had no heading.
_PLACEHOLDER_TITLE = re.compile(r"^\s*Page\s+\d+\s*$", re.IGNORECASE)
_INSERTED_WHOLE = re.compile(r"^\s*\^(\d+)\[")


def act_codes_for_catalog(rows: list[dict[str, Any]]) -> dict[str, str]:
    """Assign every catalogue slug a unique code: curated codes first, generated ones after.

    Generated codes are initials + "A" + year ("CA2013"). Where two Acts of one year share
    initials (the Advocates Act and the Apprentices Act, both 1961) each gets the first three
    letters of its first word instead of the initial ("ADVA1961", "APPA1961").
    """
    out: dict[str, str] = {}
    generated: dict[str, list[tuple[str, str, str | None]]] = {}
    for r in sorted(rows, key=lambda r: str(r.get("slug"))):
        slug = str(r.get("slug"))
        if slug in CURATED_BY_SLUG:
            out[slug] = CURATED_BY_SLUG[slug].code
            continue
        year = _act_year(r)
        generated.setdefault(generated_code(str(r.get("title")), year), []).append((slug, str(r.get("title")), year))
    taken = set(out.values())
    for code, members in generated.items():
        if len(members) == 1 and code not in taken:
            out[members[0][0]] = code
            taken.add(code)
            continue
        for slug, title, year in members:
            words = [w for w in re.findall(r"[A-Za-z]+", re.sub(r",?\s*\d{4}\.?$", "", title))
                     if w.lower() not in STOPWORDS]
            alt = (words[0][:3] + "".join(w[0] for w in words[1:])).upper() + f"A{year or ''}" if words else code
            while alt in taken:
                alt += "X"
            out[slug] = alt
            taken.add(alt)
    return out


def _act_year(r: Mapping[str, Any]) -> str | None:
    from_slug = slug_year(str(r.get("slug", "")))
    if from_slug is not None:
        return str(from_slug)
    year = text_or_none(r.get("actYear"))
    return year if year and year.isdigit() else None


def read_catalog(path: Path) -> Parsed:
    """``acts_catalog.jsonl``: one Act per line."""
    out = Parsed()
    rows = list(read_jsonl(path, out.rejects))
    codes = act_codes_for_catalog([r for _, r in rows if r.get("slug") and r.get("title")])
    seen: set[str] = set()
    for n, r in rows:
        slug, title = text_or_none(r.get("slug")), text_or_none(r.get("title"))
        if not slug or not title:
            out.rejects.append(Reject(path.name, n, "catalogue row without slug or title"))
            continue
        if slug in seen:
            out.rejects.append(Reject(path.name, n, f"duplicate Act {slug!r}", codes.get(slug)))
            continue
        seen.add(slug)
        code = codes[slug]
        curated = CURATED_BY_SLUG.get(slug)
        title = title.rstrip(".")
        aliases = tuple(dict.fromkeys((*(curated.aliases if curated else ()), *title_aliases(title))))
        year = _act_year(r)
        out.acts.append(
            Act(
                code=code,
                title=title,
                number=text_or_none(r.get("actNumber")),
                year=int(year) if year else None,
                # Commencement; failing that, enactment (86 catalogue Acts give no commencement date).
                in_force_from=parse_date(r.get("enforcementDate")) or parse_date(r.get("enactmentDate")),
                status=SectionStatus.IN_FORCE,
                aliases=aliases,
                slug=slug,
                source=text_or_none(r.get("sourceUrl")),
            )
        )
    return out


def read_section_index(path: Path, slug_to_code: Mapping[str, str]) -> Parsed:
    """``section_index_all_acts.jsonl``: every section of every active central Act, mostly without text.

    These become existence-only sections (``has_text`` false) unless a text source supplies them.
    Titles like "Page 1" are placeholders, not titles, and are dropped.
    """
    out = Parsed()
    for _, r, code, number in _section_rows(path, slug_to_code, out):
        title = text_or_none(r.get("title"))
        if title and _PLACEHOLDER_TITLE.match(title):
            title = None
        status, ceased = section_status(title, None, None)
        out.existence_only.append(
            Section(
                act=code,
                number=number,
                title=title,
                text=None,
                status=status,
                in_force_to=ceased,
                order=_int(r.get("order_no")),
                source=f"indiacode/{path.name}",
                existence_only=True,
            )
        )
    return out


def read_fulltext(path: Path, slug_to_code: Mapping[str, str]) -> Parsed:
    """``sections_fulltext_subset.jsonl``: India Code text with footnotes for 43 Acts."""
    out = Parsed()
    for n, r, code, number in _section_rows(path, slug_to_code, out):
        raw_text = r.get("text") or ""
        footnotes = text_or_none(r.get("footnotes"))
        title = text_or_none(r.get("title"))
        status, ceased = section_status(title, raw_text, footnotes)
        amendments = parse_footnotes(code, number, footnotes)
        text = _without_heading(clean_text(raw_text), number, title) if raw_text.strip() else None
        out.sections.append(
            Section(
                act=code,
                number=number,
                title=_clean_title(title),
                text=text,
                status=status,
                in_force_from=_inserted_from(raw_text, amendments),
                in_force_to=ceased,
                order=_int(r.get("order_no")),
                source=f"indiacode/{path.name}#{r.get('india_code_section_id') or n}",
                subunits=parse_subunits(text) if text and status is SectionStatus.IN_FORCE else (),
            )
        )
        out.amendments.extend(amendments)
    return out


_HEADING_END = re.compile(r"\.?\s*(?:-{2,}|[—–―])\s*")


def _without_heading(text: str, number: str, title: str | None) -> str:
    """``text`` without the section's own number and heading repeated at its start.

    India Code prints a section inserted whole by an amendment with its label and heading inside the
    insertion: NDPS s.68C reads ``68C. Prohibition of holding illegally acquired property.-- (1) As from
    ...``. The number and heading are the section's ``number`` and ``title``; left in the text they show
    as a stray "68C." before sub-section (1) and hide that sub-unit from the parser. Only a prefix of
    this section's own number, a one-line heading and the dash India Code ends headings with goes (the
    printed heading may differ from the title in a word: "outisde" in CPC s.89); nothing else is touched.
    """
    prefix = f"{number}."
    if not title or not text.startswith(prefix):
        return text
    line = text[len(prefix) :].split("\n", 1)[0][:400]
    m = _HEADING_END.search(line)
    if m is None or m.start() < 3:
        return text
    rest = text[len(prefix) :][m.end() :]
    return rest if rest.strip() else text


def _section_rows(
    path: Path, slug_to_code: Mapping[str, str], out: Parsed
) -> Iterator[tuple[int, dict[str, Any], str, str]]:
    """Rows of an India Code section file with a known Act and a valid, first-seen section number;
    the others become rejects."""
    seen: set[tuple[str, str]] = set()
    for n, r in read_jsonl(path, out.rejects):
        code = slug_to_code.get(str(r.get("act_slug")))
        if code is None:
            out.rejects.append(Reject(path.name, n, f"unknown Act {r.get('act_slug')!r}"))
            continue
        try:
            number = canonical_section(str(r.get("section_no", "")))
        except InvalidSectionNumberError as exc:
            out.rejects.append(Reject(path.name, n, str(exc), code))
            continue
        if (code, number) in seen:
            out.rejects.append(Reject(path.name, n, f"duplicate section {code} {number}", code))
            continue
        seen.add((code, number))
        yield n, r, code, number


def _inserted_from(raw_text: str, amendments: tuple[Any, ...]) -> str | None:
    """A section wrapped whole in footnote 1's "Ins. by ... (w.e.f. D-M-Y)" came into force then.

    NI Act s.138 reads ``^1[Where any cheque ...`` with footnote 1 "Ins. by Act 66 of 1988, s. 4
    (w.e.f. 1-4-1989)": the section applies from 1989-04-01, not from 1881.
    """
    m = _INSERTED_WHOLE.match(raw_text)
    if not m:
        return None
    for a in amendments:
        if a.footnote == m.group(1) and a.kind.value == "inserted":
            if a.effective:
                return str(a.effective)
            # No w.e.f. date: the amending Act's year is a lower bound ("Ins. by Act 26 of 1955").
            year = re.search(r"\bof\s+(1[89]\d\d|20\d\d)\b", a.amending_act or "")
            if year:
                return f"{year.group(1)}-01-01"
    return None


def _clean_title(title: str | None) -> str | None:
    if not title:
        return None
    t = title.strip().strip("[]").strip()
    t = re.sub(r"\.+\]?\.?$", ".", t)
    return t or None


def _int(value: Any) -> int | None:
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return None
