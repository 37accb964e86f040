"""Statute text into retrievable chunks that follow legal structure.

section -> sub-section -> clause: a section with sub-units becomes one chunk per top-level unit
(its clauses inside it); a unit longer than ``max_words`` is replaced by its children; a leaf still
too long is split on sentence boundaries into parts. Text before the first unit (a definitions
section's "In this Sanhita, unless the context otherwise requires,--") becomes its own chunk when
it says anything. Every chunk carries a heading ("BNS s.103(1) Punishment for murder") that both
indexes see, and an id stable across re-ingests: ``"{act}:{section}:{sub path or '-'}:{part}"``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace

from graph_schema.model import Section


@dataclass(frozen=True, slots=True)
class Chunk:
    """A retrievable unit of statute text with a stable id.

    ``id`` is ``"{act}:{section}:{sub or '-'}:{part}"`` (``"BNS:103:1:0"``, ``"IPC:302:-:0"``),
    stable across re-ingests so unchanged chunks keep their vectors.
    """

    id: str
    act: str
    section: str
    sub: str | None
    part: int
    title: str | None
    heading: str
    """ "BNS s.103(1) Punishment for murder" - prefixed to the text for both indexes."""
    text: str
    status: str
    in_force_from: str | None
    in_force_to: str | None
    source: str | None
    refers: str = ""
    """The headings of the sections of the same Act that this chunk's text refers to ("in contravention of section 3
    or section 4": "Necessity for driving licence; Age limit ..."): the words the legislature gave the rule a penalty
    or a time limit applies to, which the penal section itself never repeats. Lexical index only."""

    @property
    def indexed_text(self) -> str:
        return f"{self.heading}\n{self.text}"

    @property
    def lexical_text(self) -> str:
        """What BM25 indexes: the indexed text and the headings of the sections it refers to."""
        return f"{self.indexed_text}\n{self.refers}" if self.refers else self.indexed_text

    @property
    def content_hash(self) -> str:
        return hashlib.sha256(self.indexed_text.encode("utf-8")).hexdigest()


MAX_WORDS = 220
NOT_YET_IN_FORCE = "not_yet_in_force"
"""Status of a chunk whose sub-unit was excepted from its Act's commencement (BNS 106(2), S.O. 850(E))."""
_SENTENCE = re.compile(r"(?<=[.;:])\s+(?=[(A-Z\"“])")


@dataclass(frozen=True, slots=True)
class SectionText:
    """What chunking needs of a section (read from the graph, or from an evaluation corpus)."""

    act: str
    number: str
    title: str | None
    text: str
    status: str
    in_force_from: str | None
    in_force_to: str | None
    source: str | None
    units: dict[str, str]
    """Sub-unit path ("1/a") -> text, as stored in the graph."""
    not_in_force: tuple[str, ...] = ()
    """Sub-unit paths not yet in force (BNS 106(2)): their chunks carry status ``not_yet_in_force`` and no date."""

    @classmethod
    def of(cls, s: Section) -> SectionText:
        """From a parsed ``graph_schema.model.Section`` (before it reaches the graph)."""
        return cls(act=s.act, number=s.number, title=s.title, text=s.text or "", status=s.status.value,
                   in_force_from=s.in_force_from, in_force_to=s.in_force_to, source=s.source,
                   units={"/".join(u.path): u.text for u in s.subunits},
                   not_in_force=s.not_in_force)  # fmt: skip


MAX_REFERS = 3
"""A chunk that refers to more sections than this (a list of provisions a procedure applies to) carries none."""
_NUM = r"\d+(?-i:[A-Z]{0,3})"
"""A section number: digits and at most three capital letters ("498A"; never the "of" of "section 21of")."""
_REFERS = re.compile(
    rf"(?<![\w-])sections?\s+(?P<nums>{_NUM}(?:(?:\s*,\s*|\s+(?:and|or|to)\s+)(?:section\s+)?{_NUM})*)"
    # "of the Indian Penal Code", "of the said Sanhita" (another law, named before), "of Act 26 of 1937"; not "of
    # this Act"
    r"(?P<tail>\s*of\s+(?!this\b)[^,.;:]{0,90})?", re.IGNORECASE)
_OTHER_LAW = re.compile(r"\b(?:Act|Code|Sanhita|Adhiniyam|Rules|Regulations?|Order|Constitution)\b")
_NUMBER = re.compile(_NUM)
_RANGE = re.compile(rf"\b{_NUM}\s+to\s+(?:section\s+)?{_NUM}", re.IGNORECASE)
_NO_SUBJECT = re.compile(r"(?:definitions?|interpretation|short title\b.*|(?:\w+\s+){0,4}to\s+make\s+rules\b.*|"
                         r"repeal\w*\b.*|savings?|omitted)", re.IGNORECASE)
"""Headings that name no subject of their own: a reference to them says nothing of what the chunk is about."""


def chunk_sections(sections: Iterable[SectionText], max_words: int = MAX_WORDS) -> Iterator[Chunk]:
    """Chunks of every section; each carries the headings of the sections of its own Act that it refers to."""
    rows = list(sections)
    # a heading as printed may open with stray punctuation or a number (". Prosecution for contempt", "88. ...")
    titles = {(s.act, s.number): re.sub(r"^[\W\d_]+", "", " ".join((s.title or "").split())).rstrip(".")
              for s in rows}
    for s in rows:
        for c in chunk_section(s, max_words):
            refers = referred_titles(c.text, s.act, s.number, titles)
            yield replace(c, refers=refers) if refers else c


def referred_sections(text: str) -> list[str]:
    """The section numbers ``text`` refers to in its own Act, in order: "in contravention of section 3 or section 4"
    gives 3 and 4; "section 420 of the Indian Penal Code" (another law's) gives nothing."""
    return _references(text)[0]


def _references(text: str) -> tuple[list[str], bool]:
    """``referred_sections`` and whether ``text`` refers to a run of sections ("sections 206 to 223": a list, however
    few its ends), in one pass over its references."""
    out: list[str] = []
    ranged = False
    for m in _REFERS.finditer(text):
        ranged = ranged or _RANGE.search(m.group("nums")) is not None
        if _OTHER_LAW.search(m.group("tail") or ""):
            continue
        out.extend(n for n in _NUMBER.findall(m.group("nums")) if n not in out)
    return out, ranged


def referred_titles(text: str, act: str, number: str, titles: dict[tuple[str, str], str]) -> str:
    """The headings of the sections ``text`` refers to (not its own), joined; "" when it refers to none or to more
    than ``MAX_REFERS``."""
    found, ranged = _references(text)
    nums = [n for n in found if n != number and titles.get((act, n))]
    if len(nums) > MAX_REFERS or ranged:
        return ""
    nums = [n for n in nums if not _NO_SUBJECT.fullmatch(titles[(act, n)])]
    return "; ".join(titles[(act, n)] for n in nums)


def chunk_section(s: SectionText, max_words: int = MAX_WORDS) -> list[Chunk]:
    title = (s.title or "").strip().rstrip(".")
    out: list[Chunk] = []

    def emit(path: str | None, text: str) -> None:
        label = s.number + "".join(f"({p})" for p in path.split("/")) if path else s.number
        heading = f"{s.act} s.{label} {title}".strip()
        pending = path is not None and any(path == p or path.startswith(p + "/") for p in s.not_in_force)
        for part, piece in enumerate(split_on_sentences(text, max_words)):
            out.append(Chunk(
                id=f"{s.act}:{s.number}:{path or '-'}:{part}", act=s.act, section=s.number, sub=path, part=part,
                title=s.title, heading=heading, text=piece,
                # Not law on any date, and said so by its status (no in-force date to show); it stays findable,
                # so that a question about hit-and-run finds BNS 106 and the answer can say (2) is not in force.
                status=NOT_YET_IN_FORCE if pending else s.status,
                in_force_from=None if pending else s.in_force_from,
                in_force_to=s.in_force_to, source=s.source,
            ))  # fmt: skip

    top = sorted((p for p in s.units if "/" not in p), key=_natural)
    if not top:
        emit(None, s.text)
        return out
    first = s.units[top[0]]
    lead = s.text[: s.text.find(first[:40])].strip() if first[:40] and first[:40] in s.text else ""
    if _has_words(lead):
        emit(None, lead)
    for path in top:
        _emit_unit(path, s.units, max_words, emit)
    return out


def _emit_unit(path: str, units: dict[str, str], max_words: int, emit: Callable[[str | None, str], None]) -> None:
    """A unit whole if short enough, else its children (or sentence parts when it has none)."""
    text = units[path]
    children = sorted((p for p in units if p.startswith(path + "/") and p.count("/") == path.count("/") + 1),
                      key=_natural)
    if len(text.split()) <= max_words or not children:
        emit(path, text)
        return
    head = text[: text.find(units[children[0]][:40])].strip() if units[children[0]][:40] in text else ""
    if _has_words(head):
        emit(path, head)
    for child in children:
        _emit_unit(child, units, max_words, emit)


def _has_words(lead: str) -> bool:
    """A lead-in is kept however short: "Secondary evidence includes--" and "(2) Whoever,--" are the words the
    clauses after them complete (a clause is quoted after its lead-in, and a quote of the lead-in checked)."""
    return re.search(r"[A-Za-z]{2,}", lead) is not None


def split_on_sentences(text: str, max_words: int) -> list[str]:
    """Sentence-boundary parts of at most ``max_words`` words (a single longer sentence stays whole)."""
    words = text.split()
    if len(words) <= max_words:
        return [text.strip()]
    parts: list[str] = []
    cur: list[str] = []
    n = 0
    for sentence in _SENTENCE.split(text):
        k = len(sentence.split())
        if cur and n + k > max_words:
            parts.append(" ".join(cur).strip())
            cur, n = [], 0
        cur.append(sentence.strip())
        n += k
    if cur:
        parts.append(" ".join(cur).strip())
    return [p for p in parts if p]


def _natural(path: str) -> tuple[tuple[int, str], ...]:
    out = []
    for p in path.split("/"):
        m = re.match(r"(\d+)(.*)", p)
        out.append((int(m.group(1)), m.group(2)) if m else (10_000, p))
    return tuple(out)
