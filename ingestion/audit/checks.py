"""The audit's findings: each a pure function over the parsed sources (``Corpus``)."""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum

from graph_schema.acts import ActResolver
from graph_schema.errors import LegalRagError
from graph_schema.model import Relation, Section, SectionStatus, SubUnit
from ingestion.audit.corpus import (
    INDIACODE,
    LEGACY,
    STRUCTURED,
    Corpus,
    live,
    loaded_sections,
    source_texts,
)


class FindingKind(StrEnum):
    DUPLICATE_TEXT = "duplicate_text"
    HEADING_MISMATCH = "heading_mismatch"
    TEXT_DISAGREES = "text_disagrees"
    EMPTY_TEXT = "empty_text"
    TRUNCATED_TITLE = "truncated_title"
    NUMBERING_GAP = "numbering_gap"
    NO_CHANGE_DIFFERS = "no_change_differs"
    UNKNOWN_ACT = "unknown_act"
    UNDATED_INSERTION = "undated_insertion"
    BAD_RECORD = "bad_record"




AGREE = 0.9
"""Two texts agree when this share of the shorter one's words match the other in order. The copies in
new-codes-sections append the marginal headings of the sections after (BNSS 59 ends "... Police to report
apprehensions. Discharge of person apprehended."), so the shorter text is the measure."""
DIFFERS = 0.75
"""A "no change" link is flagged when fewer than this share of the shorter text's words match the other's
(the legacy copies of the old codes carry no illustrations, so the new text is often longer)."""
MIN_WORDS = 12
"""Texts shorter than this ("Omitted.", "[Repealed.]") are not compared for duplicates."""


@dataclass(frozen=True, slots=True)
class Finding:
    kind: FindingKind
    act: str
    section: str | None
    detail: str
    message: str

    @property
    def key(self) -> str:
        return f"{self.kind.value}|{self.act}|{self.section or ''}|{self.detail}"

    def as_dict(self) -> dict[str, object]:
        return {"kind": self.kind.value, "act": self.act, "section": self.section, "detail": self.detail,
                "message": self.message}  # fmt: skip


# --- text comparison ------------------------------------------------------------------------------

_WORD = re.compile(r"[a-z0-9]+")


def words(text: str | None) -> list[str]:
    return _WORD.findall((text or "").lower())


def similarity(a: list[str], b: list[str], *, of: str = "shorter") -> float:
    """Share of the shorter (or ``of="longer"``) word list matched, in order, by the other."""
    if not a or not b:
        return 0.0
    matched = sum(m.size for m in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks())
    return matched / (min(len(a), len(b)) if of == "shorter" else max(len(a), len(b)))


def compare_texts(corpus: Corpus) -> tuple[list[Finding], int, int, int]:
    """``text_disagrees`` findings and the counts (compared, all agree, corroborated)."""
    texts = source_texts(corpus)
    findings: list[Finding] = []
    compared = agree = corroborated = 0
    primary = {INDIACODE: texts[INDIACODE], LEGACY: texts[LEGACY]}
    for source, table in primary.items():
        for key, text in table.items():
            others = {name: t[key] for name, t in texts.items() if name != source and key in t}
            if not others:
                continue
            compared += 1
            mine = words(text)
            scores = {name: similarity(mine, words(t)) for name, t in others.items()}
            if all(v >= AGREE for v in scores.values()):
                agree += 1
            if any(v >= AGREE for v in scores.values()):
                corroborated += 1
                continue
            shown = ", ".join(f"{n} {v:.2f}" for n, v in sorted(scores.items()))
            findings.append(Finding(FindingKind.TEXT_DISAGREES, key[0], key[1], source,
                                    f"{key[0]} {key[1]}: the {source} text is confirmed by no other source ({shown})"))
    return findings, compared, agree, corroborated


def duplicate_texts(corpus: Corpus) -> list[Finding]:
    """Sections of one Act to which one source gives the same text."""
    findings = []
    for source, table in source_texts(corpus).items():
        groups: dict[tuple[str, tuple[str, ...]], list[str]] = defaultdict(list)
        for (act, number), text in table.items():
            w = tuple(words(text))
            if len(w) >= MIN_WORDS:
                groups[(act, w)].append(number)
        for (act, _), numbers in groups.items():
            if len(numbers) < 2:
                continue
            for n in numbers:
                others = ", ".join(f"s.{m}" for m in numbers if m != n)
                findings.append(Finding(FindingKind.DUPLICATE_TEXT, act, n, source,
                                        f"{act} {n}: {source} gives it the same text as {others}"))
    return findings


_FINGERPRINT = 15


def heading_mismatches(corpus: Corpus) -> list[Finding]:
    """A source's text for X that another source gives section Y (and not X): its heading, X's, is wrong for it."""
    texts = source_texts(corpus)
    prints: dict[str, dict[tuple[str, tuple[str, ...]], set[str]]] = {}
    for source, table in texts.items():
        idx: dict[tuple[str, tuple[str, ...]], set[str]] = defaultdict(set)
        for (act, number), text in table.items():
            w = words(text)
            if len(w) >= MIN_WORDS:
                idx[(act, tuple(w[:_FINGERPRINT]))].add(number)
        prints[source] = idx
    findings = []
    for source, table in texts.items():
        for (act, number), text in table.items():
            w = words(text)
            if len(w) < MIN_WORDS:
                continue
            for other, idx in prints.items():
                if other == source:
                    continue
                elsewhere = {y for y in idx.get((act, tuple(w[:_FINGERPRINT])), set()) - {number}
                             if similarity(w, words(texts[other][(act, y)])) >= AGREE}
                own = texts[other].get((act, number))
                if elsewhere and own is not None and similarity(w, words(own)) < AGREE:
                    ys = ", ".join(f"s.{y}" for y in sorted(elsewhere))
                    findings.append(Finding(
                        FindingKind.HEADING_MISMATCH, act, number, source,
                        f"{act} {number}: the {source} text under this heading is the text of {ys} in {other}",
                    ))
                    break
    return findings


def empty_texts(corpus: Corpus) -> list[Finding]:
    """Sections in force, or in force until the 2024 repeal, that ingestion would load without text."""
    findings = []
    for (act, number), s in loaded_sections(corpus).items():
        if s.has_text:
            continue
        if live(s):
            source = LEGACY if s.act in {"IPC", "CRPC", "IEA"} else INDIACODE
            findings.append(Finding(FindingKind.EMPTY_TEXT, act, number, source,
                                    f"{act} {number} ({s.title or 'no title'}): no shipped source carries its text"))
    return findings


def truncated_titles(corpus: Corpus) -> list[Finding]:
    """A loaded title that is a word-prefix of another source's title for the section, or ends mid-phrase."""
    findings = []
    others: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    for key, (title, _) in corpus.structured.items():
        if title:
            others[key].append((STRUCTURED, title))
    for key, subjects in corpus.subjects.items():
        others[key].extend(subjects)
    for (act, number), s in loaded_sections(corpus).items():
        mine = words(s.title)
        if not mine:
            continue
        longer = next(((src, t) for src, t in others.get((act, number), []) if cut_from(s.title or "", t)), None)
        if longer:
            findings.append(Finding(FindingKind.TRUNCATED_TITLE, act, number, longer[0],
                                    f"{act} {number}: title {s.title!r} is cut from {longer[1]!r} ({longer[0]})"))
    return findings


_CUT = re.compile(r"^(?:['\u2019]s\b|-[a-z])")


def cut_from(short: str, full: str) -> bool:
    """``short`` is ``full`` cut inside a word group: at an apostrophe ("Police officer" from "Police officer's
    power to investigate cognizable case.", CrPC 156) or a hyphen ("... more than twenty" from "twenty-four").
    A shorter title that ends at a word boundary ("Rape" beside the table's "Rape definition.") is a title."""
    a, b = re.sub(r"\s+", " ", short).strip().rstrip("."), re.sub(r"\s+", " ", full).strip()
    return len(b) > len(a) > 0 and b.lower().startswith(a.lower()) and bool(_CUT.match(b[len(a):]))


def numbering_gaps(corpus: Corpus) -> list[Finding]:
    """Sub-sections numbered (1), (2), (4): a number missing that no omission footnote explains."""
    omitted = {(a.act, a.section) for a in corpus.fulltext.amendments if a.kind.value in {"omitted", "repealed"}}
    # India Code prints an omitted sub-section as "* * * * *", sometimes with no footnote (GWA 15, 17).
    omitted |= {k for k, raw in corpus.raw_fulltext.items() if _OMISSION.search(raw)}
    findings = []
    for (act, number), s in loaded_sections(corpus).items():
        if not live(s):
            continue
        nums = sorted({int(u.path[0]) for u in s.subunits if len(u.path) == 1 and u.path[0].isdigit()})
        missing = sub_section_gaps(s.subunits)
        if missing and (act, number) not in omitted:
            gap = ", ".join(f"({n})" for n in missing)
            held = ", ".join(f"({n})" for n in nums)
            findings.append(Finding(FindingKind.NUMBERING_GAP, act, number, gap,
                                    f"{act} {number}: sub-section {gap} missing (the text numbers {held})"))
    return findings


_OMISSION = re.compile(r"\*\s*\*\s*\*")


def sub_section_gaps(subunits: Iterable[SubUnit]) -> list[int]:
    """Sub-section numbers missing below the highest one: (1), (3), (4) -> [2]."""
    nums = sorted({int(u.path[0]) for u in subunits if len(u.path) == 1 and u.path[0].isdigit()})
    return [n for n in range(1, nums[-1]) if n not in nums] if nums else []


_NEW_WORDS = {"sanhita": "code", "adhiniyam": "act", "nagarik": "", "suraksha": "", "bharatiya": "", "nyaya": "",
              "sakshya": ""}  # fmt: skip


def _comparable(text: str | None) -> list[str]:
    return [w for w in (_NEW_WORDS.get(x, x) for x in words(text)) if w]


def no_change_links(corpus: Corpus) -> list[Finding]:
    """Table links whose summary says "no change" between texts that differ materially."""
    loaded = loaded_sections(corpus)
    findings = []
    for r in corpus.replacements:
        if r.relation is not Relation.SAME:
            continue
        old, new = loaded.get((r.old.act, r.old.section)), loaded.get((r.new.act, r.new.section))
        if old is None or new is None or not old.has_text or not new.has_text:
            continue
        old_text = _unit_text(old, r.old.sub)
        new_text = _unit_text(new, r.new.sub)
        if old_text is None or new_text is None:
            continue
        score = similarity(_comparable(old_text), _comparable(new_text))
        if score < DIFFERS:
            summary = corpus.summaries.get((r.old.act, r.old.section, r.new.label), "no change")
            findings.append(Finding(
                FindingKind.NO_CHANGE_DIFFERS, r.old.act, r.old.section, f"{r.new.act} {r.new.label}",
                f"{r.old} -> {r.new}: the table says {summary!r}, but only {score:.0%} of the words match",
            ))
    return findings


def _unit_text(s: Section, sub: tuple[str, ...]) -> str | None:
    if not sub:
        return s.text
    path = "/".join(sub)
    return next((u.text for u in s.subunits if "/".join(u.path) == path), None)


# "the Motor Vehicles Act, 1939", "the Marriage Laws (Amendment) Act, 1976": capitalised words (and the
# joining words of a title) before "Act, YYYY", read backwards up to the article that opens the name.
_ACT_END = re.compile(r"\b(Act|Code|Sanhita|Adhiniyam),?\s+(1[6-9]\d\d|20[0-2]\d)\b")
_TOKEN = re.compile(r"\([^()]{1,60}\)|[A-Za-z'\u2019.&-]+")
_JOINING = {"of", "and", "for", "in", "on", "to", "from", "the"}
_ACT_WORDS = {"Act", "Code", "Sanhita", "Adhiniyam", "Acts"}
_PART_OF = {"Chapter", "Part", "Schedule", "Order", "Section", "Article", "Rule", "Regulation", "Sch", "Sch."}


def act_names(text: str) -> Iterator[str]:
    """Act names with their year as the text writes them ("Motor Vehicles Act, 1939")."""
    for m in _ACT_END.finditer(text):
        head = text[max(0, m.start() - 300) : m.start()]
        tokens = list(_TOKEN.finditer(head))
        taken: list[str] = []
        end = len(head)
        for i in range(len(tokens) - 1, -1, -1):
            t = tokens[i]
            if head[t.end() : end].strip():  # punctuation or a number between: the name ends here
                break
            w = t.group(0)
            before = [x.group(0) for x in tokens[max(0, i - 2) : i]]
            # "the Scheduled Castes and the Scheduled Tribes (...) Act": "the" inside a name follows "and"
            # after a word of the name ("this Sanhita and the Air Force Act" names two Acts).
            if w.lower() == "the" and not (taken and before[-1:] == ["and"] and len(before) == 2
                                           and before[0][:1].isupper() and before[0] not in _ACT_WORDS):
                break
            if re.search(r"\d", w) or (w.startswith("(") and len(w) <= 4):
                break
            if not (w[0].isupper() or w[0] == "(" or w in _JOINING):
                break
            taken.append(w)
            end = t.start()
        while taken and taken[-1] in _JOINING:
            taken.pop()
        name = " ".join(reversed(taken))
        # "Chapter X of the ...", "section 5A of the ...": a part of an Act, not its name.
        if not taken or taken[-1] in _PART_OF or not re.match(r"[A-Z]", name) or name.startswith("("):
            continue
        yield f"{name} {m.group(1)}, {m.group(2)}"


def unknown_acts(corpus: Corpus) -> list[Finding]:
    """Acts named in the text ingestion loads that the graph (catalogue and repealed codes) does not hold."""
    from graph_schema.acts import normalise_alias

    resolver = ActResolver(corpus.acts)
    seen: dict[str, tuple[str, str]] = {}
    spellings: set[str] = set()
    for (act, number), s in loaded_sections(corpus).items():
        for name in act_names(s.text or ""):
            # One finding per Act however spelt ("Administrator-Generals", "Administrator General's").
            if normalise_alias(name) in spellings:
                continue
            spellings.add(normalise_alias(name))
            try:
                resolver.resolve(name)
            except LegalRagError:
                seen[name] = (act, number)
    return [Finding(FindingKind.UNKNOWN_ACT, a, n, name, f"{a} {n} names {name!r}, which the graph does not hold")
            for name, (a, n) in sorted(seen.items())]  # fmt: skip


_INSERTED_WHOLE = re.compile(r"^\s*\^(\d+)\[")


def undated_insertions(corpus: Corpus) -> list[Finding]:
    """Sections wrapped whole in an insertion marker whose footnote records an insertion without a date.

    A marker with no footnote at all (NI Act 143, 143A, 148; 260 rows of India Code) may be an insertion
    or a substitution, so it is not a finding: such sections are dated by ``commencement.jsonl`` records."""
    inserted = {(a.act, a.section, a.footnote) for a in corpus.fulltext.amendments if a.kind.value == "inserted"}
    findings = []
    for s in corpus.fulltext.sections:
        m = _INSERTED_WHOLE.match(corpus.raw_fulltext.get((s.act, s.number), ""))
        if not m or s.in_force_from is not None or s.status is not SectionStatus.IN_FORCE:
            continue
        if (s.act, s.number, m.group(1)) in inserted:
            findings.append(Finding(FindingKind.UNDATED_INSERTION, s.act, s.number, "",
                                    f"{s.act} {s.number} was inserted by amendment, but its footnote gives no date"))
    return findings


def bad_records(corpus: Corpus) -> list[Finding]:
    return [Finding(FindingKind.BAD_RECORD, r.act or "-", None, f"{r.file}:{r.line}", f"{r.file}:{r.line}: {r.reason}")
            for r in corpus.curation.rejects]  # fmt: skip
